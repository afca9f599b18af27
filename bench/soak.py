#!/usr/bin/env python3
"""Kiosk soak: `hybrid-run kiosk` on a page that allocates and frees memory and navigates every
10 s, with its web process killed (kill -9) every 5 minutes. Reports the memory slope of the
process tree after warm-up and every unexpected exit.

Usage: xvfb-run -a -s "-screen 0 1280x1024x24" python3 bench/soak.py [--minutes 30]
           [--crash-every 300] [--warmup 300] [--sample 2] [--window 60] [--settle 60]
           [--binary .build/release/hybrid-run]
An 8-hour run: --minutes 480 (the same script; the report says the duration). 60 minutes resolves a
few MiB/h for the whole tree (the closing figure of issue 6: 1.46 ± 3.03 MiB/h); 30 minutes only
about ±10. Results go to bench/results/soak-<minutes>min.json (summary, events, every sample),
hybrid-run's log to bench/results/soak-<minutes>min.log and the summary to stdout.

What counts:
  - RSS: VmRSS summed over hybrid-run and all its descendants (web and network processes); PSS
    (/proc/PID/smaps_rollup) is reported too, since RSS counts shared library pages once per process.
    Every sample also keeps the split by role (ui = hybrid-run, web, network).
  - Slope (the headline): least-squares fit, in MiB per hour, of the tree's floor after the warm-up:
    the lowest tree RSS in each `--window` (60 s). The page keeps up to ~40 MB of garbage in flight and
    the JavaScript collector runs when it likes, so single samples swing by ±150 MiB; a line through
    them has a standard error of tens of MiB/h over 25 minutes and says nothing about a leak. The
    floor (what is left after a collection) is steady to a few MiB. Samples in the `--settle` seconds
    after a kill (the web process is being replaced) are left out. Each slope is printed with its
    standard error; the raw all-sample slope is reported too.
  - The UI process's own slope (hybrid-run alone, the one process that lives for weeks) is reported
    separately: a leak in our code shows there first.
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


def fit_per_hour(points):
    """Least-squares slope of (seconds, MiB) points and its standard error, both in MiB per hour."""
    n = len(points)
    if n < 3:
        return 0.0, None
    mean_t = sum(t for t, _ in points) / n
    mean_m = sum(m for _, m in points) / n
    var = sum((t - mean_t) ** 2 for t, _ in points)
    if var == 0:
        return 0.0, None
    slope = sum((t - mean_t) * (m - mean_m) for t, m in points) / var
    residual = sum((m - mean_m - slope * (t - mean_t)) ** 2 for t, m in points)
    error = (residual / (n - 2) / var) ** 0.5
    return slope * 3600, error * 3600


def role(pid, kiosk_pid):
    if pid == kiosk_pid:
        return "ui"
    name = comm(pid)
    if name.startswith("WebKitWebProces"):
        return "web"
    if name.startswith("WebKitNetworkPr"):
        return "network"
    return "other"


def floors(samples, key, window, start):
    """(window middle, lowest value) for each full window of samples from `start` on."""
    buckets = {}
    for sample in samples:
        if sample["t"] >= start and not sample.get("settling"):
            buckets.setdefault(int((sample["t"] - start) // window), []).append(sample[key])
    return [(start + (index + 0.5) * window, min(values)) for index, values in sorted(buckets.items())]


def rounded(fit):
    slope, error = fit
    return {"slope": round(slope, 2), "stderr": None if error is None else round(error, 2)}


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--minutes", type=float, default=30)
    parser.add_argument("--crash-every", type=float, default=300, help="seconds between kill -9 of the web process")
    parser.add_argument("--warmup", type=float, default=300, help="seconds of samples left out of the slope")
    parser.add_argument("--sample", type=float, default=2, help="seconds between memory samples")
    parser.add_argument("--window", type=float, default=60, help="seconds per floor (lowest sample) in the slope")
    parser.add_argument("--settle", type=float, default=60, help="seconds after a kill left out of the slope (a new web process takes about a minute to settle)")
    parser.add_argument("--binary", default=os.path.join(REPO, ".build/release/hybrid-run"))
    args = parser.parse_args()
    if not os.environ.get("DISPLAY"):
        sys.exit("soak.py: no DISPLAY; run it under xvfb-run -a -s '-screen 0 1280x1024x24'")
    if not os.path.exists(args.binary):
        sys.exit(f"soak.py: no {args.binary}; build it with: swift build -c release")

    home = os.path.join(REPO, "pages/fixtures/kiosk/soak/index.html")
    env = dict(os.environ, WEBKIT_A11Y_BUS_ADDRESS="", GDK_BACKEND="x11")
    os.makedirs(os.path.join(REPO, "bench/results"), exist_ok=True)
    log_path = os.path.join(REPO, f"bench/results/soak-{args.minutes:g}min.log")
    log = open(log_path, "w")
    start = time.monotonic()
    kiosk = subprocess.Popen([args.binary, "kiosk", "--url", home, "--print-events"],
                             stdout=subprocess.PIPE, stderr=log, text=True, env=env)
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
                    event["t"] = round(time.monotonic() - start, 1)

    threading.Thread(target=read_events, daemon=True).start()
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
                sample = {"t": round(now - start, 1), "rssMiB": 0.0, "pssMiB": 0.0, "processes": len(pids),
                          "settling": bool(kills) and now - kills[-1] < args.settle}
                for pid in pids:
                    r, p = memory_kib(pid)
                    name = role(pid, kiosk.pid)
                    sample["rssMiB"] += r / 1024
                    sample["pssMiB"] += p / 1024
                    sample[name + "RssMiB"] = sample.get(name + "RssMiB", 0.0) + r / 1024
                for key in [k for k in sample if k.endswith("MiB")]:
                    sample[key] = round(sample[key], 1)
                samples.append(sample)
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
    for _, event in ended:
        if not any(kill_time - 0.1 <= event["t"] + start <= kill_time + 5 for kill_time in kills):
            problems.append(f"the web process ended ({event.get('reason')}) at {event['t']:.0f} s without a kill")
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

    after = [s for s in samples if s["t"] >= args.warmup and not s["settling"]]
    tree_floor = floors(samples, "rssMiB", args.window, args.warmup)
    pss_floor = floors(samples, "pssMiB", args.window, args.warmup)
    fits = {
        "treeRssFloor": rounded(fit_per_hour(tree_floor)),
        "treePssFloor": rounded(fit_per_hour(pss_floor)),
        "treeRssAllSamples": rounded(fit_per_hour([(s["t"], s["rssMiB"]) for s in after])),
        "uiRss": rounded(fit_per_hour([(s["t"], s.get("uiRssMiB", 0)) for s in after])),
        "networkRss": rounded(fit_per_hour([(s["t"], s.get("networkRssMiB", 0)) for s in after])),
    }
    report = {
        "minutes": args.minutes, "crashEvery": args.crash_every, "warmup": args.warmup,
        "killCount": len(kills), "recovered": len(recovered), "loads": loads,
        "recoveryMs": {"median": recovery_ms[len(recovery_ms) // 2] if recovery_ms else None,
                       "worst": recovery_ms[-1] if recovery_ms else None},
        "slopesMiBPerHour": fits,
        "treeFloorMiB": {"first": tree_floor[0][1] if tree_floor else None,
                         "last": tree_floor[-1][1] if tree_floor else None},
        "uiRssMiB": {"afterWarmup": after[0].get("uiRssMiB") if after else None,
                     "last": after[-1].get("uiRssMiB") if after else None},
        "treeRssMaxMiB": max((s["rssMiB"] for s in samples), default=None),
        "unexpected": problems,
        "kills": [round(t - start, 1) for t in kills],
        "events": [e for _, e in seen if e.get("event") not in ("loaded", "lifecycle")],
        "samples": samples,
    }
    log.close()
    path = os.path.join(REPO, f"bench/results/soak-{args.minutes:g}min.json")
    with open(path, "w") as handle:
        json.dump(report, handle, indent=1)
    print(f"soak: {args.minutes:g} min, {loads} page loads, {len(kills)} kills, {len(recovered)} recoveries "
          f"(median {report['recoveryMs']['median']} ms, worst {report['recoveryMs']['worst']} ms)")
    def show(name):
        fit = fits[name]
        return f"{fit['slope']} ± {fit['stderr']} MiB/h"
    print(f"soak: tree RSS floor ({args.window:g}-s minima after {args.warmup:g} s warm-up) "
          f"{report['treeFloorMiB']['first']} → {report['treeFloorMiB']['last']} MiB, slope {show('treeRssFloor')} "
          f"(PSS floor {show('treePssFloor')}); target ≤ 5 MB/h")
    print(f"soak: hybrid-run alone {report['uiRssMiB']['afterWarmup']} → {report['uiRssMiB']['last']} MiB, "
          f"slope {show('uiRss')}; network process {show('networkRss')}; "
          f"tree, every sample {show('treeRssAllSamples')} (max {report['treeRssMaxMiB']} MiB)")
    print(f"soak: unexpected exits/events: {len(problems)}" + "".join(f"\n  - {p}" for p in problems))
    print(f"soak: samples and events in {os.path.relpath(path, REPO)}, hybrid-run's log in {os.path.relpath(log_path, REPO)}")
    sys.exit(0 if not problems else 1)


if __name__ == "__main__":
    main()
