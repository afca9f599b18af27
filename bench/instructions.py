#!/usr/bin/env python3
"""UI-process instructions per bridge call, against the C baselines (python3 standard library only).

Usage:
  python3 bench/instructions.py [--calls N] [--cache-sim] BUILD...     e.g. bench/instructions.py .build/release/hybrid-bench

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

With --cache-sim it runs cachegrind's cache simulation instead (slower) and also prints the level-1
instruction and data cache misses per call (I1, D1: valgrind's model of this machine's caches,
the UI process alone, so without the web process evicting its lines between calls, as it does on
two cores): a call's cost follows the code and data it touches, not only its instruction count.

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


def counts(command, env, cache_sim):
    """What valgrind counted in the process it started (not in children it forked): instructions
    (`Ir`), and with cache_sim the I1 and D1 misses (`I1`, `D1`: reads and writes)."""
    with tempfile.TemporaryDirectory() as scratch:
        out = os.path.join(scratch, "valgrind.out")
        tool = ["--tool=cachegrind", "--cache-sim=yes", f"--cachegrind-out-file={out}"] if cache_sim else \
            ["--tool=callgrind", f"--callgrind-out-file={out}"]
        proc = subprocess.run(["valgrind", *tool, *command], cwd=run.REPO,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env, timeout=1800)
        if proc.returncode != 0:
            sys.exit(f"instructions.py: {' '.join(command)} failed ({proc.returncode}):\n{proc.stderr[-2000:]}")
        if cache_sim:
            with open(out) as file:
                lines = file.read().splitlines()
            events = next((line.split()[1:] for line in lines if line.startswith("events:")), None)
            summary = next((line.split()[1:] for line in lines if line.startswith("summary:")), None)
            if not events or not summary:
                sys.exit(f"instructions.py: no cachegrind summary for {' '.join(command)}")
            values = dict(zip(events, map(int, summary)))
            return {"Ir": values["Ir"], "I1": values["I1mr"], "D1": values["D1mr"] + values["D1mw"]}
        started = re.search(r"==(\d+)== Command:", proc.stderr)
        totals = dict(re.findall(r"==(\d+)== Collected : (\d+)", proc.stderr))
        if not started or started.group(1) not in totals:
            sys.exit(f"instructions.py: no instruction count for {' '.join(command)}:\n{proc.stderr[-2000:]}")
        return {"Ir": int(totals[started.group(1)])}


def per_call(make_command, calls, env, cache_sim):
    base = counts(make_command(0), env, cache_sim)
    more = counts(make_command(calls), env, cache_sim)
    return {event: (more[event] - base[event]) / calls for event in base}


def describe(figures, baseline=None):
    text = f"{figures['Ir']:,.0f}" + (f" = {figures['Ir'] / baseline['Ir']:.2f}x" if baseline else "")
    if "I1" in figures:
        misses = [f"{event} misses {figures[event]:,.0f}" + (f" = {figures[event] / baseline[event]:.2f}x" if baseline else "")
                  for event in ("I1", "D1")]
        text += f" ({', '.join(misses)})"
    return text


def main():
    parser = argparse.ArgumentParser(description="UI-process instructions per bridge call against the C baselines")
    parser.add_argument("--calls", type=int, default=2000, help="calls added to the 200 of the short run (default 2000)")
    parser.add_argument("--cache-sim", action="store_true", help="also count I1 and D1 cache misses (cachegrind, slower)")
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
                          args.calls, env, args.cache_sim)
        c_native = per_call(lambda n: ["bench/c/build/nativecall", str(WARMUP + n)], args.calls, env, args.cache_sim)
        print(f"C: call {describe(c_call)}, native call {describe(c_native)} instructions per call (UI process)")
        with tempfile.TemporaryDirectory() as scratch:
            for index, build in enumerate(args.builds):
                copy = os.path.join(scratch, f"hybrid-bench-{index}")
                subprocess.run(["strip", "--strip-debug", "-o", copy, build], check=True)
                call = per_call(lambda n: [copy, "bridge", f"pages/bench/bridge.html?scenarios=call&n={WARMUP + n}&runs=1", "0"],
                                args.calls, env, args.cache_sim)
                native = per_call(lambda n: [copy, "bridge", "pages/bench/bridge.html?scenarios=tick1000&n=1000&runs=1",
                                             str(WARMUP + n)], args.calls, env, args.cache_sim)
                print(f"{build}: call {describe(call, c_call)}, native call {describe(native, c_native)}")
    finally:
        if xvfb:
            run.stop(xvfb)


if __name__ == "__main__":
    main()
