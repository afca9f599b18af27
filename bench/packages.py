#!/usr/bin/env python3
"""Offline-package figures (issue 14), one run, medians and ratios to the baseline of the same run.

  python3 bench/packages.py [--runs 7] [--binary .build/release/hybrid-run]

1. install: `hybrid-run package install` of a 20 MB, 2 000-file package (signature, manifest,
   per-file SHA-256 while extracting, syncfs, atomic switch) into a fresh data dir, against
   `unzip -q` of the same zip into a fresh directory. Target: ratio <= 1.5.
2. update check with nothing new: `hybrid-run package update` against a local `python3 -m
   http.server` whose signed index offers the installed sequence. Target: <= 50 ms. The process
   start of hybrid-run is included; `startup` (`hybrid-run package --help`) is printed beside it.

3. cold start: `hybrid-run --package app --data-dir D --exit-after load` (the page and its 40
   subresources served from the installed package on app://app/) against `hybrid-run --url
   file:///…/index.html` of the same files, interleaved; the time is the "loaded … in N ms" the run
   prints (process start to the load's end), with `--dir-handler` of the same files beside them (the
   custom-scheme path without the store). Target: ratio <= 1.05. Needs an X display (xvfb-run -a).

  python3 bench/packages.py --figures cold-start     # only this one

Prints one JSON line per figure; exits non-zero if a command fails. Needs unzip (Debian: unzip).
"""
import argparse
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time


def run(cmd, **kwargs):
    started = time.perf_counter()
    result = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, **kwargs)
    elapsed = (time.perf_counter() - started) * 1000
    if result.returncode != 0:
        sys.exit(f"packages.py: {' '.join(cmd)} failed ({result.returncode}): {result.stderr.decode()}")
    return elapsed


def make_site(root, files=2000, total=20 * 1024 * 1024):
    """2 000 files, 20 MB in all, half text-like (compressible), half random-ish (not)."""
    rng = random.Random(14)
    size = total // files
    words = [b"function", b"return", b"const", b"let", b"div", b"class", b"style", b"window", b"0", b"1"]
    for i in range(files):
        path = os.path.join(root, f"assets/{i // 100:02d}/file{i:04d}.{'js' if i % 2 else 'bin'}")
        os.makedirs(os.path.dirname(path), exist_ok=True)
        if i % 2:
            data = b" ".join(rng.choice(words) for _ in range(size // 5))[:size]
        else:
            data = rng.randbytes(size)
        with open(path, "wb") as out:
            out.write(data)
    with open(os.path.join(root, "index.html"), "w") as out:
        out.write("<h1>bench</h1>")


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--binary", default=".build/debug/hybrid-run")
    parser.add_argument("--figures", default="install,update-check,cold-start")
    args = parser.parse_args()
    figures = set(args.figures.split(","))
    binary = os.path.abspath(args.binary)
    if not os.path.exists(binary):
        sys.exit(f"packages.py: {binary} not found (swift build first)")
    if not shutil.which("unzip"):
        sys.exit("packages.py: unzip not found (apt-get install unzip)")
    work = tempfile.mkdtemp(prefix="pkgbench-")
    server = None
    try:
        site = os.path.join(work, "site")
        make_site(site)
        key = os.path.join(work, "bench")
        run([binary, "package", "keygen", "--output", key])
        served = os.path.join(work, "served")
        os.makedirs(served)
        package = os.path.join(served, "bench-1.zip")
        run([binary, "package", "pack", site, "--app-id", "bench", "--app-version", "1.0", "--sequence", "1",
             "--key", key + ".key", "--output", package])
        if "cold-start" in figures:
            cold_start(binary, work, key, args.runs)
        if not figures & {"install", "update-check"}:
            return
        installs, unzips = [], []
        for i in range(args.runs):
            # Interleaved so machine load hits both alike.
            target = os.path.join(work, f"unzip{i}")
            unzips.append(run(["unzip", "-q", package, "-d", target]))
            data = os.path.join(work, f"data{i}")
            installs.append(run([binary, "package", "install", package, "--data-dir", data, "--trust", key + ".pub"]))
            shutil.rmtree(target)
            if i:
                shutil.rmtree(data)
        size = os.path.getsize(package)
        print(json.dumps({"figure": "install", "files": 2001, "zip_bytes": size, "runs": args.runs,
                          "install_ms": round(statistics.median(installs), 1),
                          "unzip_ms": round(statistics.median(unzips), 1),
                          "ratio": round(statistics.median(installs) / statistics.median(unzips), 2)}))

        run([binary, "package", "index", package, "--key", key + ".key", "--output-dir", served])
        port = free_port()
        server = subprocess.Popen([sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1", "-d", served],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        for _ in range(100):
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.1).close()
                break
            except OSError:
                time.sleep(0.05)
        data = os.path.join(work, "data0")
        checks, startups = [], []
        for _ in range(args.runs):
            startups.append(run([binary, "package", "--help"]))
            checks.append(run([binary, "package", "update", "--from", f"http://127.0.0.1:{port}/", "--data-dir", data,
                               "--trust", key + ".pub"]))
        print(json.dumps({"figure": "update-check-nothing-new", "runs": args.runs,
                          "check_ms": round(statistics.median(checks), 1),
                          "startup_ms": round(statistics.median(startups), 1),
                          "check_minus_startup_ms": round(statistics.median(checks) - statistics.median(startups), 1)}))
    finally:
        if server:
            server.terminate()
            server.wait()
        shutil.rmtree(work, ignore_errors=True)


def loaded_ms(cmd):
    """Runs a page to its load and returns the "loaded URL in N ms" figure it prints."""
    result = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, timeout=120)
    text = result.stderr.decode()
    if result.returncode != 0 or " in " not in text:
        sys.exit(f"packages.py: {' '.join(cmd)} failed ({result.returncode}): {text}")
    line = next(l for l in text.splitlines() if l.startswith("hybrid-run: loaded "))
    return float(line.rsplit(" in ", 1)[1].split()[0].replace("ms", ""))


def cold_start(binary, work, key, runs):
    site = os.path.join(work, "coldsite")
    os.makedirs(os.path.join(site, "js"))
    os.makedirs(os.path.join(site, "css"))
    tags = []
    for i in range(20):
        with open(os.path.join(site, f"js/m{i:02d}.js"), "w") as out:
            out.write(f"window.m{i} = " + json.dumps(["x" * 64] * 200) + ";\n")
        with open(os.path.join(site, f"css/s{i:02d}.css"), "w") as out:
            out.write("".join(f".c{i}-{j} {{ color: #{j:06x}; margin: {j}px; }}\n" for j in range(200)))
        tags.append(f'<script src="js/m{i:02d}.js"></script><link rel="stylesheet" href="css/s{i:02d}.css">')
    with open(os.path.join(site, "index.html"), "w") as out:
        out.write("<!doctype html><meta charset=utf-8><title>cold</title>" + "".join(tags) + "<h1>cold start</h1>")
    package = os.path.join(work, "cold.zip")
    run([binary, "package", "pack", site, "--app-id", "cold", "--app-version", "1.0", "--sequence", "1",
         "--key", key + ".key", "--output", package])
    data = os.path.join(work, "colddata")
    run([binary, "package", "install", package, "--data-dir", data, "--trust", key + ".pub"])
    plain = os.path.join(work, "plaindata")
    page = "file://" + os.path.join(site, "index.html")
    commands = {
        "file": [binary, "--url", page, "--data-dir", plain, "--exit-after", "load"],
        "package": [binary, "--package", "cold", "--data-dir", data, "--exit-after", "load"],
        # The same files through the directory handler: the custom-scheme path without the store.
        "dir_handler": [binary, "--dir-handler", "site:" + site, "--url", "site:///index.html", "--data-dir", plain,
                        "--exit-after", "load"],
    }
    times = {name: [] for name in commands}
    order = list(commands)
    rng = random.Random(3)
    for _ in range(runs):
        # Interleaved in a shuffled order, all with a data directory, so machine load and caches hit all alike.
        rng.shuffle(order)
        for name in order:
            times[name].append(loaded_ms(commands[name]))
    medians = {name: statistics.median(values) for name, values in times.items()}
    paired = statistics.median(p / f for p, f in zip(times["package"], times["file"]))
    print(json.dumps({"figure": "cold-start", "files": 41, "runs": runs,
                      "package_ms": round(medians["package"], 1), "file_ms": round(medians["file"], 1),
                      "dir_handler_ms": round(medians["dir_handler"], 1),
                      "ratio": round(medians["package"] / medians["file"], 3),
                      "paired_ratio_median": round(paired, 3)}))


if __name__ == "__main__":
    main()
