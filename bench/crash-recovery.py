#!/usr/bin/env python3
"""kill -9 of the web process → the page's onReady again, through `hybrid-run --print-events`.

Usage: python3 bench/crash-recovery.py [-n ROUNDS] [--binary .build/release/hybrid-run]

Starts hybrid-run on pages/fixtures/manager/lifecycle.html (a local page) with --pool 0 (so the
page's web process is its only one), waits for the page's "show", kills the web process with
SIGKILL and times until the "ready" lifecycle event of the reloaded page arrives on stdout; one
crash per process (the first crash reloads at once; later ones back off), ROUNDS processes.
Prints the median and the worst, in ms.
Needs DISPLAY (run under xvfb-run -a).
"""

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def web_processes(parent):
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
            with open(f"/proc/{entry}/comm") as comm:
                name = comm.read().strip()
        except OSError:
            continue
        if int(fields[1]) == parent and name.startswith("WebKitWebProces") and fields[0] != "Z":
            found.append(int(entry))
    return found


def next_event(stream, name):
    for line in stream:
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if event.get("event") == "lifecycle" and event.get("name") == name:
            return time.perf_counter()
    sys.exit(f"crash-recovery.py: hybrid-run ended before the {name} event")


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", "--rounds", type=int, default=10)
    parser.add_argument("--binary", default=".build/release/hybrid-run")
    args = parser.parse_args()
    command = [args.binary, "--url", "pages/fixtures/manager/lifecycle.html", "--print-events", "--pool", "0"]
    times = []
    # One crash per process: later crashes within the window wait for the back-off (0.5 s, 2 s).
    for _ in range(args.rounds):
        child = subprocess.Popen(command, cwd=REPO, stdout=subprocess.PIPE, text=True, bufsize=1)
        try:
            next_event(child.stdout, "show")
            victims = web_processes(child.pid)
            if len(victims) != 1:
                sys.exit(f"crash-recovery.py: expected one web process, found {victims}")
            killed = time.perf_counter()
            os.kill(victims[0], signal.SIGKILL)
            ready = next_event(child.stdout, "ready")
            times.append((ready - killed) * 1000)
        finally:
            child.send_signal(signal.SIGTERM)
            child.wait(timeout=30)
    print(json.dumps({"rounds": len(times), "kill_to_ready_median_ms": round(statistics.median(times), 1),
                      "kill_to_ready_max_ms": round(max(times), 1)}))


if __name__ == "__main__":
    main()
