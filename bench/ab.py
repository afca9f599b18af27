#!/usr/bin/env python3
"""A/B rounds of `hybrid-bench bridge` builds against the C baselines (python3 standard library only).

Usage:
  python3 bench/ab.py [-n ROUNDS] [--calls N] BUILD...     e.g. bench/ab.py -n 5 /tmp/before/hybrid-bench .build/release/hybrid-bench

Each round runs, one after the other: c/roundtrip (serial, 1 MB and 10 MB echoes), c/nativecall,
then every BUILD on pages/bench/bridge.html (call, echo1mb, echo10mb) with N native calls. A first
round is a discarded warm-up. It prints each build's medians and its ratios to the C medians of the
same rounds, then the median (and range) of each round's own ratio to the C run just before it:
the machine's drift hits every program alike, so two builds compare where two separate
`run.py bridge` sessions cannot (the C programs alone move by 10-30 % between sessions).
If DISPLAY is unset, one Xvfb is started for the whole run (as run.py does).
"""

import argparse
import json
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import run  # noqa: E402  (the driver's display and environment helpers)


def main():
    parser = argparse.ArgumentParser(description="A/B rounds of hybrid-bench builds against the C baselines")
    parser.add_argument("-n", "--rounds", type=int, default=5)
    parser.add_argument("--calls", type=int, default=3000, help="serial calls per scenario (default 3000)")
    parser.add_argument("builds", nargs="+", help="hybrid-bench executables to compare")
    args = parser.parse_args()
    for build in args.builds:
        if not os.access(build, os.X_OK):
            sys.exit(f"ab.py: {build} is not an executable")
    n = args.calls
    programs = {
        "c-roundtrip": ["bench/c/build/roundtrip", f"pages/bench/roundtrip.html?scenarios=serial,echo1mb,echo10mb&n={n}&runs=5"],
        "c-nativecall": ["bench/c/build/nativecall", str(n)],
    }
    for name, cmd in programs.items():
        if run.missing_binary(cmd):
            sys.exit(f"ab.py: {run.missing_binary(cmd)}")
    for build in args.builds:
        programs[build] = [build, "bridge", f"pages/bench/bridge.html?scenarios=call,echo1mb,echo10mb&n={n}&runs=5", str(n)]

    xvfb, display = (None, None) if os.environ.get("DISPLAY") else run.start_xvfb()
    results = {name: [] for name in programs}
    try:
        for round_number in range(args.rounds + 1):
            for name, cmd in programs.items():
                done = subprocess.run(cmd, cwd=run.REPO, env=run.child_env(display), capture_output=True, text=True, timeout=900)
                lines = done.stdout.strip().splitlines()
                if done.returncode != 0 or not lines:
                    sys.exit(f"ab.py: {name} failed (exit {done.returncode}): {done.stderr.strip()[-500:]}")
                if round_number > 0:
                    results[name].append(json.loads(lines[-1]))
                run.log(f"   {'warm-up' if round_number == 0 else f'round {round_number}'} {name}: {lines[-1]}")
    finally:
        if xvfb:
            run.stop(xvfb)

    def median(name, key):
        return statistics.median(result[key] for result in results[name])

    c = {key: median("c-roundtrip", key) for key in ("serial_us", "echo1mb_ms", "echo10mb_ms")}
    c["nativeCall_us"] = median("c-nativecall", "nativeCall_us")
    print(f"C: call {c['serial_us']} us, 1 MB {c['echo1mb_ms']} ms, 10 MB {c['echo10mb_ms']} ms, native call {c['nativeCall_us']} us "
          f"(medians of {args.rounds} rounds)")
    pairs = (("call_us", "serial_us"), ("echo1mb_ms", "echo1mb_ms"), ("echo10mb_ms", "echo10mb_ms"), ("nativeCall_us", "nativeCall_us"))
    def per_round(build, key, base):
        # Each round's ratio to the C run just before it: the machine drifts less within a round
        # than across the run, so these spread less than the medians' ratio suggests it moves.
        source = "c-nativecall" if base == "nativeCall_us" else "c-roundtrip"
        ratios = sorted(mine[key] / theirs[base] for mine, theirs in zip(results[build], results[source]))
        return f"{statistics.median(ratios):.2f}x ({ratios[0]:.2f}-{ratios[-1]:.2f})"

    for build in args.builds:
        cells = [f"{key} {median(build, key)} = {median(build, key) / c[base]:.2f}x" for key, base in pairs]
        print(f"{build}: " + ", ".join(cells))
        print(f"  per-round ratios, median (min-max): " + ", ".join(f"{key} {per_round(build, key, base)}" for key, base in pairs))


if __name__ == "__main__":
    main()
