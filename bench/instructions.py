#!/usr/bin/env python3
"""UI-process instructions per bridge call, against the C baselines (python3 standard library only).

Usage:
  python3 bench/instructions.py [--calls N] BUILD...     e.g. bench/instructions.py .build/release/hybrid-bench

Wall-clock figures on a shared 2-core machine move by 10-30 % between runs; an instruction count
moves much less. This runs each program under valgrind's callgrind (UI process only: WebKit's web and
network processes run natively) twice, with 200 and with 200 + N calls, so start-up cancels out:
the difference over N is what one more call costs the UI process, in instructions. It covers:

  call    a page -> native echo: c/roundtrip's `serial` against `hybrid-bench bridge` (scenario call)
  native  a native -> page echo: c/nativecall against `hybrid-bench bridge`'s native calls

It counts only the UI process's share of a call (the web process's JavaScript runs JIT-compiled,
which callgrind cannot follow from here), and instructions are not time. Nor is the count exact:
what the main loop does between calls depends on timing (how many iterations, which sources are
ready), so counts move by about 5 % between runs, the C programs' too. It still tells a change of
10 % or more to the Swift side apart, which the clock cannot on such a machine.

Needs valgrind (apt install valgrind). valgrind 3.19 (Debian 12) cannot read the DWARF 5 that
Swift writes, so each BUILD is run from a copy without debug information (`strip --strip-debug`).
If DISPLAY is unset, one Xvfb is started for the whole run (as run.py does).
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402  (the driver's display and environment helpers)

WARMUP = 200


def instructions(command, env):
    """Instructions callgrind counted in the process it started (not in children it forked)."""
    with tempfile.TemporaryDirectory() as scratch:
        out = os.path.join(scratch, "callgrind.out")
        proc = subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", *command], cwd=run.REPO,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, timeout=1800)
        if proc.returncode != 0:
            sys.exit(f"instructions.py: {' '.join(command)} failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
        started = re.search(r"==(\d+)== Command:", proc.stderr)
        totals = dict(re.findall(r"==(\d+)== Collected : (\d+)", proc.stderr))
        if not started or started.group(1) not in totals:
            sys.exit(f"instructions.py: no instruction count for {' '.join(command)}:\n{proc.stderr[-2000:]}")
        return int(totals[started.group(1)])


def per_call(make_command, calls, env):
    base = instructions(make_command(0), env)
    more = instructions(make_command(calls), env)
    return (more - base) / calls


def main():
    parser = argparse.ArgumentParser(description="UI-process instructions per bridge call against the C baselines")
    parser.add_argument("--calls", type=int, default=2000, help="calls added to the 200 of the short run (default 2000)")
    parser.add_argument("builds", nargs="+", help="hybrid-bench executables to measure")
    args = parser.parse_args()
    if shutil.which("valgrind") is None:
        sys.exit("instructions.py: valgrind is not installed (apt install valgrind)")
    for build in args.builds:
        if not os.access(build, os.X_OK):
            sys.exit(f"instructions.py: {build} is not an executable")
    if args.calls <= 0:
        sys.exit("instructions.py: --calls must be positive")
    for program in ("bench/c/build/roundtrip", "bench/c/build/nativecall"):
        if not os.access(os.path.join(run.REPO, program), os.X_OK):
            sys.exit(f"instructions.py: {program} is missing (make -C bench/c)")
    xvfb, display = (None, None) if os.environ.get("DISPLAY") else run.start_xvfb()
    env = run.child_env(display)
    try:
        c_call = per_call(lambda n: ["bench/c/build/roundtrip", f"pages/bench/roundtrip.html?scenarios=serial&n={WARMUP + n}&runs=1"],
                          args.calls, env)
        c_native = per_call(lambda n: ["bench/c/build/nativecall", str(WARMUP + n)], args.calls, env)
        print(f"C: call {c_call:,.0f}, native call {c_native:,.0f} instructions per call (UI process)")
        with tempfile.TemporaryDirectory() as scratch:
            for index, build in enumerate(args.builds):
                copy = os.path.join(scratch, f"hybrid-bench-{index}")
                subprocess.run(["strip", "--strip-debug", "-o", copy, build], check=True)
                call = per_call(lambda n: [copy, "bridge", f"pages/bench/bridge.html?scenarios=call&n={WARMUP + n}&runs=1", "0"],
                                args.calls, env)
                native = per_call(lambda n: [copy, "bridge", "pages/bench/bridge.html?scenarios=tick1000&n=1000&runs=1",
                                             str(WARMUP + n)], args.calls, env)
                print(f"{build}: call {call:,.0f} = {call / c_call:.2f}x, native call {native:,.0f} = {native / c_native:.2f}x")
    finally:
        if xvfb:
            run.stop(xvfb)


if __name__ == "__main__":
    main()
