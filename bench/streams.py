#!/usr/bin/env python3
"""Binary streams (issue 34): hybrid.stream against raw scheme requests, and against hybrid.call.

    make -C bench/c build/streams && swift build -c release --product hybrid-bench
    xvfb-run -a python3 bench/streams.py [--runs 3] [--mib 256] [--call-mib 64]

Runs bench/c/streams.c and `hybrid-bench streams pages/bench/streams.html` alternately, --runs
times each, in one session, and prints the medians (MiB/s) and the ratios: hybrid.stream
native->page and page->native over the C program's raw scheme requests (target >= 0.9 both ways),
and hybrid.stream over hybrid.call with the same bytes as base64.
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def run(cmd):
    env = dict(os.environ, WEBKIT_A11Y_BUS_ADDRESS="", GDK_BACKEND="x11")
    done = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    lines = [line for line in done.stdout.splitlines() if line.startswith("{")]
    if done.returncode != 0 or not lines:
        sys.exit(f"streams: {' '.join(cmd)} failed ({done.returncode}): {done.stderr.strip()[-500:]}")
    return json.loads(lines[-1])


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--mib", type=int, default=256)
    parser.add_argument("--call-mib", type=int, default=64)
    parser.add_argument("--bench", default=".build/release/hybrid-bench")
    args = parser.parse_args()
    c_runs, swift_runs = [], []
    for _ in range(args.runs):
        c_runs.append(run(["bench/c/build/streams", str(args.mib)]))
        swift_runs.append(run([args.bench, "streams", f"pages/bench/streams.html?mib={args.mib}&callmib={args.call_mib}"]))

    def median(runs, key):
        return statistics.median(run[key] for run in runs)

    c_down, c_up = median(c_runs, "down_mibps"), median(c_runs, "up_mibps")
    down, up = median(swift_runs, "down_mibps"), median(swift_runs, "up_mibps")
    call_down, call_up = median(swift_runs, "call_down_mibps"), median(swift_runs, "call_up_mibps")
    print(f"{args.mib} MiB, median of {args.runs} (MiB/s)     native->page   page->native")
    print(f"  C, raw scheme requests            {c_down:12.1f}   {c_up:12.1f}")
    print(f"  hybrid.stream                     {down:12.1f}   {up:12.1f}")
    print(f"  hybrid.call, base64 ({args.call_mib} MiB)       {call_down:12.1f}   {call_up:12.1f}")
    print(f"  hybrid.stream / C                 {down / c_down:12.2f}x  {up / c_up:12.2f}x   (target >= 0.9x)")
    print(f"  hybrid.stream / hybrid.call       {down / call_down:12.1f}x  {up / call_up:12.1f}x")
    print(json.dumps({"c": c_runs, "hybrid": swift_runs}))


if __name__ == "__main__":
    main()
