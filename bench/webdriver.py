#!/usr/bin/python3
"""WebDriver figures: hybrid-run --automation against MiniBrowser, both under WebKitWebDriver.

Usage: /usr/bin/python3 bench/webdriver.py [--sessions N] [--roundtrips N] [--hybrid-run PATH] [--json]

Measures, interleaved (MiniBrowser, hybrid-run, MiniBrowser, …) after one discarded warm-up round:
  session_to_load_ms  new session request → first page loaded (driver.get of a small local page
                      returned), median of N sessions (default 11);
  roundtrips_ms       N execute_script('return 1') round trips in one session (default 100),
                      median over the sessions.
Prints one JSON line per entry and the ratios hybrid-run / MiniBrowser. Needs Debian's
/usr/bin/python3 with python3-selenium, webkit2gtk-driver and an X display (starts its own Xvfb
when DISPLAY is unset). The default hybrid-run is the release build (.build/release/hybrid-run).
"""
import argparse
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import time

from selenium import webdriver
from selenium.webdriver.webkitgtk.service import Service

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), ".."))
MINIBROWSER = "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser"
PAGE = "file://" + os.path.join(ROOT, "pages", "bench", "small.html")


def start_xvfb():
    if os.environ.get("DISPLAY"):
        return None
    for number in range(90, 140):
        if not os.path.exists("/tmp/.X%d-lock" % number):
            server = subprocess.Popen(["Xvfb", ":%d" % number, "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
                                      stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            deadline = time.monotonic() + 10
            while time.monotonic() < deadline and not os.path.exists("/tmp/.X11-unix/X%d" % number):
                time.sleep(0.05)
            os.environ["DISPLAY"] = ":%d" % number
            return server
    raise SystemExit("bench/webdriver.py: no free X display number")


def one_session(binary, browser_name, roundtrips):
    service = Service("/usr/bin/WebKitWebDriver", service_args=["--host=127.0.0.1"], log_path=os.devnull)
    service.start()
    # Wait until the driver answers so its start-up is not measured.
    host, port = "127.0.0.1", service.port
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        try:
            socket.create_connection((host, port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.01)
    options = webdriver.WebKitGTKOptions()
    options.binary_location = binary
    options.add_argument("--automation")
    options.set_capability("browserName", browser_name)
    try:
        started = time.perf_counter()
        driver = webdriver.Remote(command_executor=service.service_url, options=options)
        driver.get(PAGE)
        loaded = (time.perf_counter() - started) * 1000
        driver.execute_script("return 1")  # the first call compiles WebKit's automation atoms
        started = time.perf_counter()
        for _ in range(roundtrips):
            driver.execute_script("return 1")
        trips = (time.perf_counter() - started) * 1000
        driver.quit()
    finally:
        service.stop()
    return loaded, trips


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sessions", type=int, default=11)
    parser.add_argument("--roundtrips", type=int, default=100)
    parser.add_argument("--hybrid-run", default=os.path.join(ROOT, ".build", "release", "hybrid-run"))
    parser.add_argument("--json", action="store_true", help="only the JSON lines")
    arguments = parser.parse_args()
    for path in (MINIBROWSER, arguments.hybrid_run, "/usr/bin/WebKitWebDriver"):
        if not os.path.exists(path):
            raise SystemExit("bench/webdriver.py: %s is missing" % path)
    os.environ["WEBKIT_A11Y_BUS_ADDRESS"] = ""
    os.environ["GDK_BACKEND"] = "x11"
    xvfb = start_xvfb()
    entries = [("minibrowser", MINIBROWSER, "MiniBrowser"), ("hybrid-run", os.path.abspath(arguments.hybrid_run), "hybrid-run")]
    results = {name: {"load": [], "trips": []} for name, _, _ in entries}
    try:
        for round_number in range(arguments.sessions + 1):
            for name, binary, browser_name in entries:
                loaded, trips = one_session(binary, browser_name, arguments.roundtrips)
                if round_number > 0:  # round 0 warms caches and is discarded
                    results[name]["load"].append(loaded)
                    results[name]["trips"].append(trips)
    finally:
        if xvfb:
            xvfb.terminate()
            xvfb.wait()
    lines = {}
    for name, _, _ in entries:
        lines[name] = {
            "entry": name, "sessions": arguments.sessions, "roundtrips": arguments.roundtrips,
            "session_to_load_ms": round(statistics.median(results[name]["load"]), 1),
            "roundtrips_ms": round(statistics.median(results[name]["trips"]), 1),
        }
        print(json.dumps(lines[name]))
    base, ours = lines["minibrowser"], lines["hybrid-run"]
    ratios = {
        "entry": "ratio hybrid-run/minibrowser",
        "session_to_load": round(ours["session_to_load_ms"] / base["session_to_load_ms"], 2),
        "roundtrips": round(ours["roundtrips_ms"] / base["roundtrips_ms"], 2),
    }
    print(json.dumps(ratios))
    if not arguments.json:
        print("targets: session_to_load <= 1.2, roundtrips <= 1.1", file=sys.stderr)


if __name__ == "__main__":
    main()
