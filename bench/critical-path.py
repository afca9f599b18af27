#!/usr/bin/env python3
"""Where a serial bridge call's time goes, UI and web process side by side (python3 standard library).

Usage:
  python3 bench/critical-path.py [--calls N] [--rounds R] BUILD...   e.g. .build/release/hybrid-bench

Wall-clock ratios say how much slower a call is than the C baseline, not where. This runs
c/roundtrip's `serial` and each BUILD's `hybrid-bench bridge` (scenario call) under
`perf record -e raw_syscalls:sys_enter -a`, and splits every call's cycle at four points that both
programs share, seen in the main threads' system calls:

  ui wake   the UI main thread's first read after a blocking poll (its main loop woke: the post arrived)
  ui send   its first write to another descriptor after that (the reply handed to WebKit's IPC thread)
  web wake  the same in the web process's main thread (the reply arrived)
  web send  its first write to another descriptor (the next post handed to its IPC thread)

and prints, per program, the medians (and quartiles) of:

  ui        ui wake -> ui send      the UI's work before its answer leaves (native side of a call)
  ui->web   ui send -> web wake     the answer's way to the page (both IPC threads, the page's wake-up)
  web       web wake -> web send    the page's work from the answer to the next post (its JavaScript)
  web->ui   web send -> ui wake     the post's way to native
  cycle     one whole call
  ui tail   ui send -> the UI's next blocking poll: its work after the answer left
  web tail  web send -> the web process's next blocking poll
  ui polls, web polls   blocking polls (main-loop sleeps) per call in each main thread

A tail runs while the message travels: on a machine with few cores it competes with the IPC
threads, so a longer tail can lengthen the way there. Tracing every system call slows everything
(a cycle takes 1.3-1.5x as long as untraced); compare programs within one run only. The first
quarter of the calls is left out (start-up, JIT tier-up).

Needs `perf` with tracepoint access (linux-perf; root, or kernel.perf_event_paranoid <= -1).
If DISPLAY is unset, one Xvfb is started for the whole run (as run.py does).
"""

import argparse
import bisect
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402  (the driver's display and environment helpers)

READ, WRITE, POLL = 0, 1, 7
WEB_MAIN = "WebKitWebProces"  # the web process's main thread, as the kernel shortens its name
LINE = re.compile(r"\s*(\S+)\s+(\d+)/(\d+)\s+([\d.]+):\s+NR (\d+) \(([^)]*)\)")
SEGMENTS = ("ui", "ui->web", "web", "web->ui", "cycle", "ui tail", "web tail")


def trace(command, env, scratch):
    """The main threads' system calls as (seconds, 'ui'|'web', number, args), in time order."""
    data = os.path.join(scratch, "perf.data")
    record = subprocess.run(["perf", "record", "-q", "-e", "raw_syscalls:sys_enter", "-a", "-o", data, "--", *command],
                            cwd=run.REPO, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=900)
    if record.returncode != 0:
        sys.exit(f"critical-path.py: {' '.join(command)} failed under perf ({record.returncode}):\n{record.stderr[-2000:]}")
    script = subprocess.run(["perf", "script", "-i", data, "-F", "comm,pid,tid,time,trace"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, timeout=900)
    if script.returncode != 0:
        sys.exit(f"critical-path.py: perf script failed:\n{script.stderr[-2000:]}")
    ui_name = os.path.basename(command[0])[:15]
    events = []
    for line in script.stdout.splitlines():
        match = LINE.match(line)
        if not match:
            continue
        comm, pid, tid, seconds, number, args = match.groups()
        if pid != tid:
            continue  # main threads only: their thread id is the process id
        side = "ui" if comm == ui_name else "web" if comm == WEB_MAIN else None
        if side:
            events.append((float(seconds), side, int(number), [a.strip() for a in args.split(",")]))
    return events


def marks(events, side):
    """Wake and send times of one main thread, and the times it went to sleep."""
    wakes, sends, sleeps = [], [], []
    slept, woke_on = True, None
    for seconds, who, number, args in events:
        if who != side:
            continue
        if number == POLL:
            # A poll with a timeout of 0 only looks; any other waits (sleeps until something is ready).
            if len(args) > 2 and args[2] != "0":
                sleeps.append(seconds)
                slept = True
            continue
        if slept and number == READ:
            wakes.append(seconds)
            slept, woke_on = False, args[0]
        elif woke_on is not None and number == WRITE and args[0] != woke_on:
            sends.append(seconds)
            woke_on = None
    return wakes, sends, sleeps


def cycles(events):
    """Each call's marks: from one answer leaving the UI to the next. A wake is the last one before
    its send (a main thread may wake for other things in between)."""
    ui_wakes, ui_sends, ui_sleeps = marks(events, "ui")
    web_wakes, web_sends, web_sleeps = marks(events, "web")
    rows = []
    for send, next_send in zip(ui_sends, ui_sends[1:]):
        web_send_at = bisect.bisect_right(web_sends, send)
        if web_send_at >= len(web_sends) or web_sends[web_send_at] >= next_send:
            continue  # no post between these two answers: not a call's cycle
        web_send = web_sends[web_send_at]
        web_wake_at = bisect.bisect_left(web_wakes, web_send) - 1
        ui_wake_at = bisect.bisect_left(ui_wakes, next_send) - 1
        if web_wake_at < 0 or web_wakes[web_wake_at] <= send or ui_wake_at < 0 or ui_wakes[ui_wake_at] <= web_send:
            continue
        web_wake, ui_wake = web_wakes[web_wake_at], ui_wakes[ui_wake_at]
        ui_sleep_at = bisect.bisect_right(ui_sleeps, send)
        web_sleep_at = bisect.bisect_right(web_sleeps, web_send)
        if ui_sleep_at >= len(ui_sleeps) or web_sleep_at >= len(web_sleeps):
            break
        rows.append({
            "ui": next_send - ui_wake, "ui->web": web_wake - send, "web": web_send - web_wake,
            "web->ui": ui_wake - web_send, "cycle": next_send - send,
            "ui tail": ui_sleeps[ui_sleep_at] - send, "web tail": web_sleeps[web_sleep_at] - web_send,
            "ui polls": bisect.bisect_right(ui_sleeps, next_send) - ui_sleep_at,
            "web polls": bisect.bisect_right(web_sleeps, next_send) - bisect.bisect_right(web_sleeps, send),
        })
    return rows[len(rows) // 4:]


def summary(name, rows):
    if len(rows) < 100:
        sys.exit(f"critical-path.py: only {len(rows)} call cycles found for {name}; is it the call benchmark?")
    print(f"{name}  ({len(rows)} calls)")
    for key in SEGMENTS:
        values = [row[key] * 1e6 for row in rows]
        q1, median, q3 = statistics.quantiles(values, n=4)
        print(f"  {key:9} {median:7.1f} us   (quartiles {q1:6.1f} .. {q3:6.1f})")
    for key in ("ui polls", "web polls"):
        print(f"  {key:9} {statistics.mean(row[key] for row in rows):5.2f} per call")
    return {key: statistics.median(row[key] * 1e6 for row in rows) for key in SEGMENTS}


def main():
    parser = argparse.ArgumentParser(description="a serial bridge call's time, split between the UI and web processes")
    parser.add_argument("--calls", type=int, default=4000, help="serial calls per program (default 4000)")
    parser.add_argument("--rounds", type=int, default=1, help="runs of each program, interleaved (default 1)")
    parser.add_argument("builds", nargs="+", help="hybrid-bench executables to measure")
    args = parser.parse_args()
    if args.calls < 500:
        sys.exit("critical-path.py: --calls must be at least 500")
    if args.rounds < 1:
        sys.exit("critical-path.py: --rounds must be positive")
    if shutil.which("perf") is None:
        sys.exit("critical-path.py: perf is not installed (apt install linux-perf)")
    for build in args.builds:
        if not os.access(build, os.X_OK):
            sys.exit(f"critical-path.py: {build} is not an executable")
    if not os.access(os.path.join(run.REPO, "bench/c/build/roundtrip"), os.X_OK):
        sys.exit("critical-path.py: bench/c/build/roundtrip is missing (make -C bench/c)")
    programs = [("C roundtrip", ["bench/c/build/roundtrip", f"pages/bench/roundtrip.html?scenarios=serial&n={args.calls}&runs=1"])]
    programs += [(build, [build, "bridge", f"pages/bench/bridge.html?scenarios=call&n={args.calls}&runs=1", "0"])
                 for build in args.builds]
    xvfb, display = (None, None) if os.environ.get("DISPLAY") else run.start_xvfb()
    env = run.child_env(display)
    try:
        with tempfile.TemporaryDirectory() as scratch:
            for round_number in range(1, args.rounds + 1):
                if args.rounds > 1:
                    print(f"== round {round_number}")
                baseline = None
                for name, command in programs:
                    medians = summary(name, cycles(trace(command, env, scratch)))
                    if baseline is None:
                        baseline = medians
                    else:
                        print("  vs C:   " + ", ".join(f"{key} {medians[key] - baseline[key]:+.0f}" for key in SEGMENTS))
    finally:
        if xvfb:
            run.stop(xvfb)


if __name__ == "__main__":
    main()
