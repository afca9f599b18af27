#!/usr/bin/env python3
"""hybrid-run app figures (docs/desktop-apps.md), standard library only:

  python3 bench/desktop-app.py [--rounds N] [--build .build/debug]

Under Xvfb (xvfb-run -a) with dbus-daemon, on a private session bus and XDG_DATA_HOME:
- launch: wall time of `hybrid-run app APP --exit-after load` against `hybrid-run --url
  APP/web/index.html --window --exit-after load` (the same page; the baseline), interleaved;
  median of each and the ratio (issue 33: <= 1.1).
- deep link: a running app; time from starting `hybrid-run app APP shop://bench/i` to the page's
  `open` event (its Date.now(), logged), and the second process's own wall time. Medians.
Prints one JSON line.
"""
import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

PAGE = """<!doctype html><meta charset="utf-8"><title>bench</title><h1>Shop</h1><p>A small page.</p>
<script>hybrid.on('open', e => console.log('open ' + e.urls[0] + ' ' + Date.now()));
addEventListener('load', () => console.log('loaded'));</script>
"""


def timed(command, env):
    started = time.monotonic()
    result = subprocess.run(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, timeout=120)
    if result.returncode != 0:
        sys.exit(f"desktop-app: {' '.join(command)} failed ({result.returncode}): {result.stderr.strip()}")
    return (time.monotonic() - started) * 1000


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--build", default=".build/debug")
    options = parser.parse_args()
    binary = os.path.abspath(os.path.join(options.build, "hybrid-run"))
    work = tempfile.mkdtemp(prefix="desktop-app-bench-")
    bus = subprocess.run(["dbus-daemon", "--session", "--fork", "--print-address=1", "--print-pid=1"],
                         capture_output=True, text=True, check=True).stdout.split("\n")
    try:
        app = os.path.join(work, "app")
        os.makedirs(os.path.join(app, "web"))
        with open(os.path.join(app, "app.toml"), "w") as f:
            f.write('id = "org.example.Bench"\nname = "Bench"\nversion = "1.0.0"\nschemes = ["shop"]\n[window]\nwidth = 800\nheight = 600\n')
        with open(os.path.join(app, "web", "index.html"), "w") as f:
            f.write(PAGE)
        env = dict(os.environ, DBUS_SESSION_BUS_ADDRESS=bus[0], XDG_DATA_HOME=os.path.join(work, "data"),
                   WEBKIT_A11Y_BUS_ADDRESS="", GDK_BACKEND="x11")
        launch, baseline = [], []
        for _ in range(options.rounds):
            baseline.append(timed([binary, "--url", os.path.join(app, "web", "index.html"), "--window", "--size", "800x600",
                                   "--exit-after", "load"], env))
            launch.append(timed([binary, "app", app, "--exit-after", "load"], env))

        primary = subprocess.Popen([binary, "app", app], env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        links, seconds = [], []
        try:
            # A launch before the primary owns the id on the bus would be a primary itself.
            while "loaded" not in (primary.stdout.readline() or "loaded"):
                pass
            for i in range(options.rounds):
                sent = time.time() * 1000
                seconds.append(timed([binary, "app", app, f"shop://bench/{i}"], env))
                while True:
                    line = primary.stdout.readline()
                    if not line:
                        sys.exit("desktop-app: the running app ended")
                    if f"open shop://bench/{i} " in line:
                        links.append(float(line.split()[-1]) - sent)
                        break
        finally:
            primary.terminate()
            primary.wait(timeout=30)
        result = {
            "rounds": options.rounds,
            "launch_ms": round(statistics.median(launch), 1),
            "url_ms": round(statistics.median(baseline), 1),
            "launch_vs_url": round(statistics.median(launch) / statistics.median(baseline), 3),
            "deep_link_to_page_ms": round(statistics.median(links), 1),
            "second_launch_ms": round(statistics.median(seconds), 1),
        }
        print(json.dumps(result))
    finally:
        subprocess.run(["kill", bus[1]], check=False)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
