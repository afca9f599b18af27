#!/usr/bin/env python3
"""Media figures (issue 34), one run, medians and ratios to the baseline of the same run.

  python3 bench/media.py [--runs 9] [--binary .build/release/hybrid-run]     # needs an X display (xvfb-run -a)

1. first frame: an unmodified page with `<video src="clip.webm" preload="auto" muted autoplay>`
   (a 1080p VP8 WebM made here with gst-launch-1.0) opened headless from a signed package
   (`hybrid-run --package`, the video through the media relay) against the same files over
   `file://` (the player reads the file itself), interleaved; the time is the page's own
   `performance.now()` at `loadeddata` (the first frame is decoded), from the navigation's start
   (the package's first open includes its signature check) and from the element's creation (the
   media path alone). Target: ratio <= 1.2. (`requestVideoFrameCallback` did not fire within 60 s
   in a headless run here, so it is not used.)
2. memory: a 1 GiB file (sparse, in a temporary directory, never committed) mounted with
   `--dir-handler`; while a page of the mount plays the 1080p clip through the relay, the 1 GiB
   file is read whole through the same relay (curl, the relay URL the page's markup holds), and the
   hybrid-run (UI) process's RSS is sampled every 50 ms. Reported: the growth of its peak over its
   RSS before the read. Target: <= 64 MiB.

Prints one JSON line per figure; exits non-zero if a command fails. Needs gstreamer1.0-tools,
gstreamer1.0-plugins-good and curl.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

PAGE = """<!doctype html><meta charset="utf-8"><title>first frame</title>
<script>const created = performance.now();</script>
<video id="video" src="clip.webm" preload="auto" muted autoplay></video>
<script>
  const video = document.getElementById('video');
  const done = what => {
    console.log('first-frame ' + performance.now().toFixed(1) + ' element ' + (performance.now() - created).toFixed(1) + ' ' + what);
    window.close();
  };
  video.addEventListener('loadeddata', () => done('loadeddata'), {once: true});
  video.addEventListener('error', () => { console.log('media error ' + video.error.code); window.close(); });
</script>
"""

MEMORY_PAGE = """<!doctype html><meta charset="utf-8"><title>memory</title>
<video id="video" src="clip.webm" preload="auto" muted autoplay loop></video>
<video id="big" src="big.webm" preload="none" muted></video>
<script>console.log('relay ' + document.getElementById('big').outerHTML.match(/src="([^"]+)"/)[1]);</script>
"""


def run(cmd, **kwargs):
    result = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, **kwargs)
    if result.returncode != 0:
        sys.exit(f"media.py: {' '.join(cmd)} exited {result.returncode}: {result.stderr[-2000:]}")
    return result


def first_frame_ms(cmd):
    """(from the navigation's start, from the element's creation) to the first frame, in ms."""
    out = run(cmd + ["--exit-after", "close", "--timeout", "60"]).stdout
    found = re.search(r"first-frame ([0-9.]+) element ([0-9.]+)", out)
    if not found:
        sys.exit(f"media.py: no first frame in {' '.join(cmd)}: {out[-2000:]}")
    return float(found.group(1)), float(found.group(2))


def rss_kib(pid):
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--binary", default=".build/release/hybrid-run")
    parser.add_argument("--figures", default="first-frame,memory")
    args = parser.parse_args()
    binary = os.path.abspath(args.binary)
    figures = set(args.figures.split(","))
    for tool in ["gst-launch-1.0", "curl"]:
        if not shutil.which(tool):
            sys.exit(f"media.py: {tool} not found (apt-get install gstreamer1.0-tools curl)")
    with tempfile.TemporaryDirectory(prefix="hybrid-media-bench-") as work:
        site = os.path.join(work, "site")
        os.makedirs(site)
        clip = os.path.join(site, "clip.webm")
        run(["gst-launch-1.0", "-q", "videotestsrc", "pattern=ball", "num-buffers=60", "!",
             "video/x-raw,width=1920,height=1080,framerate=30/1", "!", "vp8enc", "deadline=1", "cpu-used=16",
             "target-bitrate=4000000", "keyframe-max-dist=30", "!", "webmmux", "!", "filesink", f"location={clip}"])
        with open(os.path.join(site, "index.html"), "w") as page:
            page.write(PAGE)
        if "first-frame" in figures:
            key = os.path.join(work, "release")
            data = os.path.join(work, "data")
            package = os.path.join(work, "media.zip")
            run([binary, "package", "keygen", "--output", key])
            run([binary, "package", "pack", site, "--app-id", "media", "--app-version", "1.0", "--sequence", "1",
                 "--key", key + ".key", "--output", package])
            run([binary, "package", "install", package, "--data-dir", data, "--trust", key + ".pub"])
            # A plain loopback HTTP server of the same files, beside: what any http media URL costs here.
            server = subprocess.Popen([sys.executable, "-m", "http.server", "0", "--bind", "127.0.0.1", "--directory", site],
                                      stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            port = re.search(r"port (\d+)", server.stdout.readline()).group(1)
            packaged, files, plain = [], [], []
            try:
                for _ in range(args.runs):
                    packaged.append(first_frame_ms([binary, "--package", "media", "--data-dir", data, "--trust", key + ".pub"]))
                    files.append(first_frame_ms([binary, "--url", "file://" + os.path.join(site, "index.html")]))
                    plain.append(first_frame_ms([binary, "--url", f"http://127.0.0.1:{port}/index.html"]))
            finally:
                server.terminate()
            for index, what in [(0, "navigation"), (1, "element")]:
                p = [run[index] for run in packaged]
                f = [run[index] for run in files]
                h = [run[index] for run in plain]
                print(json.dumps({"figure": "first-frame", "from": what, "video": "1920x1080 VP8, 2 s", "bytes": os.path.getsize(clip),
                                  "runs": args.runs, "package_ms": round(statistics.median(p), 1), "file_ms": round(statistics.median(f), 1),
                                  "http_ms": round(statistics.median(h), 1),
                                  "ratio": round(statistics.median(p) / statistics.median(f), 2),
                                  "paired_ratio_median": round(statistics.median(a / b for a, b in zip(p, f)), 2),
                                  "http_ratio": round(statistics.median(h) / statistics.median(f), 2)}))
        if "memory" in figures:
            with open(os.path.join(site, "memory.html"), "w") as page:
                page.write(MEMORY_PAGE)
            big = os.path.join(site, "big.webm")
            with open(big, "wb") as sparse:
                sparse.truncate(1 << 30)
            process = subprocess.Popen([binary, "--dir-handler", "media:" + site, "--url", "media:///memory.html",
                                        "--timeout", "300"], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
            relay = None
            for line in process.stdout:
                found = re.search(r"relay (http://127\.0\.0\.1:\d+/\S+)", line)
                if found:
                    relay = found.group(1)
                    break
            if relay is None:
                process.kill()
                sys.exit("media.py: the memory page printed no relay URL")
            threading.Thread(target=lambda: [None for _ in process.stdout], daemon=True).start()
            time.sleep(2)  # the clip plays meanwhile; the baseline is the process with the page playing
            before = rss_kib(process.pid)
            peak = before
            started = time.perf_counter()
            reader = subprocess.Popen(["curl", "-sS", "-o", "/dev/null", "-w", "%{size_download}", relay], stdout=subprocess.PIPE, text=True)
            while reader.poll() is None:
                now = rss_kib(process.pid)
                if now:
                    peak = max(peak, now)
                time.sleep(0.05)
            elapsed = time.perf_counter() - started
            size = int(reader.stdout.read() or 0)
            process.terminate()
            process.wait(timeout=10)
            if size != 1 << 30:
                sys.exit(f"media.py: read {size} bytes of 1 GiB through the relay")
            print(json.dumps({"figure": "memory", "file_bytes": size, "read_s": round(elapsed, 2),
                              "mb_per_s": round(size / elapsed / 1e6, 1), "rss_before_mib": round(before / 1024, 1),
                              "rss_peak_mib": round(peak / 1024, 1), "growth_mib": round((peak - before) / 1024, 1)}))


if __name__ == "__main__":
    main()
