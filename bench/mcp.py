#!/usr/bin/env python3
"""`hybrid-run mcp` figures: what a tool call costs over stdio, against the same call in-process.

Usage: python3 bench/mcp.py [--calls N] [--build release|debug] [--json]

  stdio     `hybrid-run mcp --url pages/bench/mcp-1000.html`, spoken to as an MCP client does
            (newline-delimited JSON-RPC on its stdin/stdout; this script is the client, stdlib only,
            so no client library's own cost is counted): N `tools/call evaluate {"script": "1+1"}`
            round trips, and `snapshot` every 10th call;
  baseline  `hybrid-bench agent pages/bench/mcp-1000.html N`: `WebView.evaluateJavaScript("1+1")`
            and the same through `AgentSession` (the library, no protocol), and `snapshot`.
Both run in this one invocation, stdio first. Prints medians, the stdio overhead (stdio − direct),
the ratio stdio / direct, and the snapshot's time and size on the 1 000-element page. Targets
(issue 35): overhead ≤ 2 ms, snapshot ≤ 50 ms and ≤ 20 KB. Starts its own Xvfb without DISPLAY.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from run import start_xvfb, stop  # noqa: E402  (bench/run.py's display helpers)

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
PAGE = os.path.join(ROOT, "pages", "bench", "mcp-1000.html")


class Client:
    def __init__(self, binary):
        self.process = subprocess.Popen([binary, "mcp", "--url", PAGE, "--log-level", "error"], stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, bufsize=0)
        self.next_id = 0

    def request(self, method, params):
        self.next_id += 1
        self.process.stdin.write((json.dumps({"jsonrpc": "2.0", "id": self.next_id, "method": method, "params": params}) + "\n").encode())
        line = self.process.stdout.readline()
        if not line:
            raise SystemExit("bench/mcp.py: hybrid-run mcp closed stdout")
        answer = json.loads(line)
        if "error" in answer:
            raise SystemExit(f"bench/mcp.py: {method}: {answer['error']}")
        return answer["result"]

    def close(self):
        self.process.stdin.close()
        self.process.wait(timeout=30)


def over_stdio(binary, calls):
    client = Client(binary)
    client.request("initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}})
    client.process.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    evaluate, snapshot, size = [], [], 0
    for index in range(calls):
        started = time.perf_counter()
        result = client.request("tools/call", {"name": "evaluate", "arguments": {"script": "1+1"}})
        evaluate.append((time.perf_counter() - started) * 1000)
        assert result["content"][0]["text"] == "2", result
        if index % 10 == 0:
            started = time.perf_counter()
            result = client.request("tools/call", {"name": "snapshot", "arguments": {}})
            snapshot.append((time.perf_counter() - started) * 1000)
            size = len(result["content"][0]["text"].encode())
    client.close()
    return {"evaluate_stdio_ms": round(statistics.median(evaluate), 3),
            "snapshot_stdio_ms": round(statistics.median(snapshot), 3), "snapshot_bytes": size}


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=200)
    parser.add_argument("--build", default="release", choices=["release", "debug"])
    parser.add_argument("--json", action="store_true", help="one JSON line only")
    options = parser.parse_args()
    binaries = os.path.join(ROOT, ".build", options.build)
    xvfb = None
    if not os.environ.get("DISPLAY"):
        xvfb, os.environ["DISPLAY"] = start_xvfb()
    try:
        stdio = over_stdio(os.path.join(binaries, "hybrid-run"), options.calls)
        line = subprocess.run([os.path.join(binaries, "hybrid-bench"), "agent", PAGE, str(options.calls)],
                              capture_output=True, text=True, check=True, timeout=600).stdout
        direct = json.loads(line)
    finally:
        if xvfb:
            stop(xvfb)
    figures = {"bench": "mcp", "build": options.build, "calls": options.calls, **stdio,
               "evaluate_direct_ms": direct["evaluate_direct_ms"], "evaluate_session_ms": direct["evaluate_session_ms"],
               "snapshot_direct_ms": direct["snapshot_ms"]}
    figures["stdio_overhead_ms"] = round(figures["evaluate_stdio_ms"] - figures["evaluate_direct_ms"], 3)
    figures["stdio_ratio"] = round(figures["evaluate_stdio_ms"] / figures["evaluate_direct_ms"], 2)
    if options.json:
        print(json.dumps(figures))
        return
    print(json.dumps(figures))
    print(f"evaluate 1+1: {figures['evaluate_stdio_ms']} ms over stdio, {figures['evaluate_session_ms']} ms through AgentSession, "
          f"{figures['evaluate_direct_ms']} ms through WebView: overhead {figures['stdio_overhead_ms']} ms "
          f"({figures['stdio_ratio']}x; target <= 2 ms)")
    print(f"snapshot of 1000 elements: {figures['snapshot_stdio_ms']} ms over stdio, {figures['snapshot_direct_ms']} ms in-process, "
          f"{figures['snapshot_bytes']} bytes (targets <= 50 ms, <= 20 KB)")


if __name__ == "__main__":
    main()
