#!/usr/bin/env python3
"""Kiosk soak: `hybrid-run kiosk` on a page that allocates and frees memory and navigates every
10 s, with its web process killed (kill -9) every 5 minutes. Reports the memory slope of the
process tree after warm-up and every unexpected exit.

Usage: xvfb-run -a -s "-screen 0 1280x1024x24" python3 bench/soak.py [--minutes 30]
           [--crash-every 300] [--warmup 300] [--sample 10] [--binary .build/release/hybrid-run]
An 8-hour run: --minutes 480 (the same script; the report says the duration). Results go to
bench/results/soak-<minutes>min.json (every sample) and the summary to stdout.

What counts:
  - RSS: VmRSS summed over hybrid-run and all its descendants (web and network processes); PSS
    (/proc/PID/smaps_rollup) is reported too, since RSS counts shared library pages once per process.
  - Slope: least-squares fit of the samples after the warm-up, in MB per hour.
  - Unexpected exits: hybrid-run itself exiting, a web process ending that the script did not kill,
    a hang declared, or a kill that was not followed by the app's onReady (a "recovered" event).
"""

import argparse
import json
import os
import signal
import subprocess
import sys
import threading
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def children(parent):
    table = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue
        table.setdefault(int(fields[1]), []).append(int(entry))
    found, frontier = [], [parent]
    while frontier:
        pid = frontier.pop()
        for child in table.get(pid, []):
            found.append(child)
            frontier.append(child)
    return found


def memory_kib(pid):
    rss = pss = 0
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    rss = int(line.split()[1])
        with open(f"/proc/{pid}/smaps_rollup") as rollup:
            for line in rollup:
                if line.startswith("Pss:"):
                    pss = int(line.split()[1])
    except OSError:
        pass
    return rss, pss


def comm(pid):
    try:
        with open(f"/proc/{pid}/comm") as handle:
            return handle.read().strip()
    except OSError:
        return ""


def slope_per_hour(points):
    """Least-squares slope of (seconds, MiB) points, in MiB per hour."""
    if len(points) < 2:
        return 0.0
    n = len(points)
    mean_t = sum(t for t, _ in points) / n
    mean_m = sum(m for _, m in points) / n
    var = sum((t - mean_t) ** 2 for t, _ in points)
    if var == 0:
        return 0.0
    return sum((t - mean_t) * (m - mean_m) for t, m in points) / var * 3600


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--crash-every", type=float, default=300, help="seconds between kill -9 of the web process")
    parser.add_argument("--warmup", type=float, default=300, help="seconds of samples left out of the slope")
    parser.add_argument("--sample", type=float, default=10, help="seconds between memory samples")
    parser.add_argument("--binary", default=os.path.join(REPO, ".build/release/hybrid-run"))
    args = parser.parse_args()
    if not os.environ.get("DISPLAY"):
        sys.exit("soak.py: no DISPLAY; run it under xvfb-run -a -s '-screen 0 1280x1024x24'")
    if not os.path.exists(args.binary):
        sys.exit(f"soak.py: no {args.binary}; build it with: swift build -c release")

    home = os.path.join(REPO, "pages/fixtures/kiosk/soak/index.html")
    env = dict(os.environ, WEBKIT_A11Y_BUS_ADDRESS="", GDK_BACKEND="x11")
    kiosk = subprocess.Popen([args.binary, "kiosk", "--url", home, "--print-events"],
                             stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    events, lock = [], threading.Lock()

    def read_events():
        for line in kiosk.stdout:
            try:
                event = json.loads(line)
            except ValueError:
                continue
            if event.get("event") != "console":
                with lock:
                    events.append((time.monotonic(), event))

    threading.Thread(target=read_events, daemon=True).start()
    start = time.monotonic()
    end = start + args.minutes * 60
    next_sample, next_crash = start, start + args.crash_every
    samples, kills, problems = [], [], []
    try:
        while time.monotonic() < end:
            if kiosk.poll() is not None:
                problems.append(f"hybrid-run exited with {kiosk.returncode} at {time.monotonic() - start:.0f} s")
                break
            now = time.monotonic()
            if now >= next_crash:
                web = [pid for pid in children(kiosk.pid) if comm(pid).startswith("WebKitWebProces")]
                if web:
                    os.kill(web[0], signal.SIGKILL)
                    kills.append(now)
                next_crash += args.crash_every
            if now >= next_sample:
                pids = [kiosk.pid] + children(kiosk.pid)
                rss = pss = 0
                for pid in pids:
                    r, p = memory_kib(pid)
                    rss, pss = rss + r, pss + p
                samples.append({"t": round(now - start, 1), "rssMiB": round(rss / 1024, 1), "pssMiB": round(pss / 1024, 1),
                                "processes": len(pids)})
                next_sample += args.sample
            time.sleep(min(1.0, max(0.05, min(next_sample, next_crash, end) - time.monotonic())))
    finally:
        alive = kiosk.poll() is None
        if alive:
            kiosk.send_signal(signal.SIGTERM)
            try:
                code = kiosk.wait(timeout=15)
                if code != 0:
                    problems.append(f"hybrid-run exited with {code} on SIGTERM")
            except subprocess.TimeoutExpired:
                kiosk.kill()
                problems.append("hybrid-run did not stop within 15 s of SIGTERM")

    with lock:
        seen = list(events)
    ended = [(t, e) for t, e in seen if e.get("event") == "webProcessEnded"]
    recovered = [(t, e) for t, e in seen if e.get("event") == "recovered"]
    hangs = [e for _, e in seen if e.get("event") == "hung"]
    gave_up = [e for _, e in seen if e.get("event") == "gaveUp"]
    if len(ended) != len(kills):
        problems.append(f"{len(ended)} web process ends for {len(kills)} kills")
    for kill_time in kills:
        if not any(kill_time <= t <= kill_time + 10 for t, _ in recovered):
            problems.append(f"no recovery within 10 s of the kill at {kill_time - start:.0f} s")
    if hangs:
        problems.append(f"{len(hangs)} hangs declared")
    if gave_up:
        problems.append(f"{len(gave_up)} give-ups (crash cap reached)")
    loads = sum(1 for _, e in seen if e.get("event") == "loaded")
    recovery_ms = sorted(e["ms"] for _, e in recovered)

    after = [(s["t"], s["rssMiB"]) for s in samples if s["t"] >= args.warmup]
    after_pss = [(s["t"], s["pssMiB"]) for s in samples if s["t"] >= args.warmup]
    report = {
        "minutes": args.minutes, "crashEvery": args.crash_every, "warmup": args.warmup,
        "kills": len(kills), "recovered": len(recovered), "loads": loads,
        "recoveryMs": {"median": recovery_ms[len(recovery_ms) // 2] if recovery_ms else None,
                       "worst": recovery_ms[-1] if recovery_ms else None},
        "rssSlopeMiBPerHour": round(slope_per_hour(after), 2),
        "pssSlopeMiBPerHour": round(slope_per_hour(after_pss), 2),
        "rssMiB": {"first": samples[0]["rssMiB"] if samples else None, "afterWarmup": after[0][1] if after else None,
                   "last": samples[-1]["rssMiB"] if samples else None,
                   "max": max((s["rssMiB"] for s in samples), default=None)},
        "unexpected": problems,
        "samples": samples,
    }
    os.makedirs(os.path.join(REPO, "bench/results"), exist_ok=True)
    path = os.path.join(REPO, f"bench/results/soak-{args.minutes:g}min.json")
    with open(path, "w") as handle:
        json.dump(report, handle, indent=1)
    print(f"soak: {args.minutes:g} min, {loads} page loads, {len(kills)} kills, {len(recovered)} recoveries "
          f"(median {report['recoveryMs']['median']} ms, worst {report['recoveryMs']['worst']} ms)")
    print(f"soak: tree RSS {report['rssMiB']['afterWarmup']} → {report['rssMiB']['last']} MiB after warm-up; "
          f"slope {report['rssSlopeMiBPerHour']} MiB/h (PSS {report['pssSlopeMiBPerHour']} MiB/h); target ≤ 5 MB/h")
    print(f"soak: unexpected exits/events: {len(problems)}" + "".join(f"\n  - {p}" for p in problems))
    print(f"soak: samples in {os.path.relpath(path, REPO)}")
    sys.exit(0 if not problems else 1)


if __name__ == "__main__":
    main()
