#!/usr/bin/env python3
"""Benchmark driver for HybridShell and its C baselines (python3 standard library only).

Usage:
  python3 bench/run.py SUITE... [-n RUNS] [--warmup K] [--baseline NAME] [--json]
  python3 bench/run.py all                  every suite in bench/suites.json
  python3 bench/run.py --list               suites, entries, and which binaries exist
  python3 bench/run.py --idle-cpu [--ready TEXT] [--settle S] [--duration S] [--json] -- CMD...
  python3 bench/run.py pagetests            the page test runner against MiniBrowser, and its memory

Suites and their commands live in bench/suites.json. Commands run from the repository root, one
at a time, interleaved (A, B, C, A, B, C, ...) so drift hits all entries alike; a first warm-up
round is discarded. Measures:
  wall      process wall time (time.perf_counter around the child), plus any metrics it prints
  json      the metrics of the one JSON line the command prints on stdout
  idle-cpu  % of one core used by the command's whole process tree over --duration seconds,
            after its ready line (if "ready" is set) and "settle" more seconds
  pagetests `hybrid-run test` on N generated copies of the suite's "template" page (wall time,
            per-page times from its JSON report, process-tree memory every "memory_every"
            finished pages), or with "per_page" one process per page (the MiniBrowser baseline)
A suite's optional "targets" are checked against the medians and printed under its table.
A metric is a number whose JSON key ends in a unit: _ms, _us, _s, _mib, _pct; a suite's optional
"metrics" list keeps only those keys.
Entries whose binary does not exist (e.g. the Swift counterparts before `swift build -c release`)
are skipped with a note. If DISPLAY is unset, one Xvfb is started before anything is measured and
stopped at the end.
"""

import argparse
import json
import os
import platform
import re
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SUITES_FILE = os.path.join(REPO, "bench", "suites.json")
MINIBROWSER_PATHS = [
    "/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser",
    "/usr/lib/aarch64-linux-gnu/webkit2gtk-4.1/MiniBrowser",
    "/usr/libexec/webkit2gtk-4.1/MiniBrowser",
]
UNITS = ("_ms", "_us", "_s", "_mib", "_pct")
CLK_TCK = os.sysconf("SC_CLK_TCK")


def log(message):
    print(message, file=sys.stderr, flush=True)


# --- display -----------------------------------------------------------------------------------

def start_xvfb():
    """Starts Xvfb on a free display number; returns (process, ":N")."""
    if not shutil.which("Xvfb"):
        sys.exit("run.py: DISPLAY is unset and Xvfb is missing (apt-get install xvfb xauth)")
    for number in range(90, 200):
        socket_path = f"/tmp/.X11-unix/X{number}"
        if os.path.exists(f"/tmp/.X{number}-lock") or os.path.exists(socket_path):
            continue
        process = subprocess.Popen(
            ["Xvfb", f":{number}", "-screen", "0", "1280x1024x24", "-nolisten", "tcp"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and process.poll() is None:
            if accepts_connections(socket_path):
                return process, f":{number}"
            time.sleep(0.05)
        stop(process)  # lost a race for this number, or too slow: try the next one
    sys.exit("run.py: could not start Xvfb")


def accepts_connections(socket_path):
    with socket.socket(socket.AF_UNIX) as probe:
        try:
            probe.connect(socket_path)
            return True
        except OSError:
            return False


def stop(process):
    """Stops a process started in its own session, and whatever is left in its group."""
    for sig, grace in ((signal.SIGTERM, 5), (signal.SIGKILL, 5)):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:
            pass
        try:
            process.wait(timeout=grace)
            break
        except subprocess.TimeoutExpired:
            continue
    try:  # the leader may be gone while children of its group live on
        os.killpg(process.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass


def child_env(display):
    env = dict(os.environ)
    if display:
        env["DISPLAY"] = display
    env["WEBKIT_A11Y_BUS_ADDRESS"] = ""
    env.setdefault("GDK_BACKEND", "x11")
    return env


# --- suites ------------------------------------------------------------------------------------

def load_suites():
    with open(SUITES_FILE) as file:
        return json.load(file)


class Placeholders(dict):
    """Format values that leave unknown {names} in place, for a measure to fill in later."""
    def __missing__(self, key):
        return "{" + key + "}"


def expand(cmd, **values):
    minibrowser = next((p for p in MINIBROWSER_PATHS if os.access(p, os.X_OK)), "MiniBrowser")
    values = Placeholders(repo=REPO, repo_uri="file://" + REPO, minibrowser=minibrowser, **values)
    return [arg.format_map(values) for arg in cmd]


def missing_binary(cmd, note=None):
    """None if cmd[0] can run, else a note saying why not."""
    exe = cmd[0]
    if "/" in exe:
        path = exe if os.path.isabs(exe) else os.path.join(REPO, exe)
        if os.access(path, os.X_OK):
            return None
    elif shutil.which(exe):
        return None
    hint = "run `make -C bench/c`" if exe.startswith("bench/c/") else "not built or not installed"
    return f"{exe} not found ({note or hint})"


def metrics_of(stdout):
    """The unit-suffixed numbers of the last JSON object line in stdout."""
    for line in reversed(stdout.splitlines()):
        line = line.strip()
        if line.startswith("{"):
            data = json.loads(line)
            return {k: v for k, v in data.items()
                    if k.endswith(UNITS) and isinstance(v, (int, float)) and not isinstance(v, bool)}
    return {}


# --- measures ----------------------------------------------------------------------------------

class Failure(Exception):
    pass


def run_once(cmd, env, timeout):
    """Runs cmd to completion; returns (wall seconds, stdout)."""
    start = time.perf_counter()
    process = subprocess.Popen(cmd, cwd=REPO, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        stdout, stderr = process.communicate(timeout=timeout)
    except BaseException:
        stop(process)
        raise
    wall = time.perf_counter() - start
    if process.returncode != 0:
        raise Failure(f"exit {process.returncode}: {stderr.strip()[-600:]}")
    return wall, stdout


def measure_wall(entry, env, timeout):
    wall, stdout = run_once(entry["argv"], env, timeout)
    return {"wall_ms": wall * 1000, **metrics_of(stdout)}


def measure_json(entry, env, timeout):
    _, stdout = run_once(entry["argv"], env, timeout)
    metrics = metrics_of(stdout)
    if not metrics:
        raise Failure(f"no JSON metrics on stdout: {stdout.strip()[-300:]!r}")
    return metrics


def process_table():
    """{pid: (ppid, utime+stime ticks, comm)} for every process."""
    table = {}
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as file:
                text = file.read()
        except OSError:
            continue
        comm = text[text.index("(") + 1:text.rindex(")")]
        fields = text[text.rindex(")") + 2:].split()  # after the comm, which may hold spaces
        table[int(name)] = (int(fields[1]), int(fields[11]) + int(fields[12]), comm)
    return table


def process_tree(root, table):
    """root and all its descendants found in table, root first."""
    tree, queue = [], [root]
    while queue:
        pid = queue.pop(0)
        if pid in table:
            tree.append(pid)
            queue.extend(child for child, (ppid, _, _) in table.items() if ppid == pid)
    return tree


def process_tree_ticks(root):
    """{pid: utime+stime ticks} for root and all its descendants."""
    table = process_table()
    return {pid: table[pid][1] for pid in process_tree(root, table)}


def idle_cpu(argv, env, ready=None, settle=0.0, duration=10.0, timeout=120):
    """% of one core the process tree of argv uses over duration, once ready and settled."""
    with tempfile.TemporaryFile("w+") as stderr:
        process = subprocess.Popen(argv, cwd=REPO, env=env, stdout=subprocess.PIPE,
                                   stderr=stderr, text=True, start_new_session=True)
        is_ready = threading.Event()

        def drain():
            for line in process.stdout:
                if ready is not None and ready in line:
                    is_ready.set()
        threading.Thread(target=drain, daemon=True).start()
        try:
            if ready is not None:
                deadline = time.monotonic() + timeout
                while not is_ready.wait(0.05):
                    if process.poll() is not None or time.monotonic() > deadline:
                        stderr.seek(0)
                        raise Failure(f"no line containing {ready!r} (exit {process.poll()}): "
                                      f"{stderr.read().strip()[-600:]}")
            time.sleep(settle)
            first = process_tree_ticks(process.pid)
            last = dict(first)
            start = time.perf_counter()
            # Sample twice a second so processes that come and go are still counted.
            while (elapsed := time.perf_counter() - start) < duration:
                time.sleep(min(0.5, duration - elapsed))
                last.update(process_tree_ticks(process.pid))
            elapsed = time.perf_counter() - start
            if process.poll() is not None:
                raise Failure(f"exited during the measurement (exit {process.returncode})")
        finally:
            stop(process)
    used = sum(ticks - first.get(pid, 0) for pid, ticks in last.items())
    return {"cpu_pct": 100.0 * used / CLK_TCK / elapsed, "processes": len(last)}


def measure_idle(entry, env, timeout, duration=10.0):
    metrics = idle_cpu(entry["argv"], env, entry.get("ready"), entry.get("settle", 0),
                       duration, timeout)
    return {"cpu_pct": metrics["cpu_pct"]}


# --- page tests --------------------------------------------------------------------------------

PROGRESS_LINE = re.compile(r"^hybrid-run: \[(\d+)/(\d+)\] ")


def generated_pages(entry):
    """A directory of the entry's "pages" copies of the suite's template (made once per suite)."""
    count = entry["_spec"]["pages"]
    directory = os.path.join(entry["_workdir"], f"pages-{count}")
    if not os.path.isdir(directory):
        os.mkdir(directory)
        template = os.path.join(REPO, entry["_suite"]["template"])
        digits = len(str(count))
        for index in range(1, count + 1):  # zero-padded, so sorting by name keeps this order
            shutil.copyfile(template, os.path.join(directory, f"page-{index:0{digits}d}.html"))
    return directory


def process_kind(comm, is_root):
    if is_root:
        return "ui"
    if comm.startswith("WebKitWebProces"):  # comm is cut to 15 characters
        return "web"
    if comm.startswith("WebKitNetworkPr"):
        return "network"
    return "other"


MEMORY_FIELDS = {"pss": ("smaps_rollup", "Pss:"), "rss": ("status", "VmRSS:")}


def read_memory_kib(pid, kind):
    """PSS or RSS of pid in KiB, None if it is gone; PermissionError if unreadable."""
    name, key = MEMORY_FIELDS[kind]
    try:
        with open(f"/proc/{pid}/{name}") as file:
            return next((int(line.split()[1]) for line in file if line.startswith(key)), None)
    except (FileNotFoundError, ProcessLookupError):
        return None


def memory_snapshot(root):
    """PSS (RSS if any smaps_rollup is unreadable) of root's process tree, per process kind; the
    tree is stopped (SIGSTOP) while it is read so the sum describes one moment."""
    table = process_table()
    stopped = []
    try:
        for pid in process_tree(root, table):
            try:
                os.kill(pid, signal.SIGSTOP)
                stopped.append(pid)
            except ProcessLookupError:
                pass
        try:
            kind, readings = "pss", {pid: read_memory_kib(pid, "pss") for pid in stopped}
        except PermissionError:
            kind, readings = "rss", {pid: read_memory_kib(pid, "rss") for pid in stopped}
    finally:
        for pid in stopped:
            try:
                os.kill(pid, signal.SIGCONT)
            except ProcessLookupError:
                pass
    snapshot = {"memory": kind, "processes": 0,
                "ui_mib": 0.0, "web_mib": 0.0, "network_mib": 0.0, "other_mib": 0.0}
    for pid, kib in readings.items():
        if kib is not None:
            snapshot["processes"] += 1
            snapshot[process_kind(table[pid][2], pid == root) + "_mib"] += kib / 1024
    snapshot["total_mib"] = sum(snapshot[k + "_mib"] for k in ("ui", "web", "network", "other"))
    return snapshot


def run_page_tests(argv, env, timeout, total, sample_every):
    """Runs `hybrid-run test` to its end, counting the per-page progress lines on stderr and
    sampling memory at every sample_every-th one and at the last; returns
    (wall seconds, exit code, progress line count, samples, other stderr lines)."""
    progress, samples, other, timed_out = 0, [], [], threading.Event()
    start = time.perf_counter()
    process = subprocess.Popen(argv, cwd=REPO, env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)

    def expire():
        timed_out.set()
        stop(process)
    timer = threading.Timer(timeout, expire)
    timer.start()
    try:
        for line in process.stderr:
            match = PROGRESS_LINE.match(line)
            if not match:
                other.append(line.rstrip())
                continue
            progress += 1
            done = int(match.group(1))
            if sample_every and (done % sample_every == 0 or done == total):
                samples.append({"pages": done, **memory_snapshot(process.pid)})
        process.wait()
    finally:
        timer.cancel()
        if process.poll() is None:
            stop(process)
    wall = time.perf_counter() - start
    if timed_out.is_set():
        raise Failure(f"timed out after {timeout:g} s ({progress} pages finished)")
    return wall, process.returncode, progress, samples, other


def first_pages(pages):
    """The first page each worker ran: workers take pages in name order, so its lowest name."""
    firsts = {}
    for page in sorted(pages, key=lambda p: p["page"]):
        firsts.setdefault(page["worker"], page)
    return list(firsts.values())


def memory_metrics(samples, report_at):
    """{pss_at_N_mib: ..., pss_growth_per_100_pages_mib: ...} from the samples; the growth is
    the least-squares slope over the samples from the first report_at point on."""
    kind = samples[0]["memory"]
    by_pages = {s["pages"]: s["total_mib"] for s in samples}
    metrics = {f"{kind}_at_{n}_mib": by_pages[n] for n in report_at if n in by_pages}
    tail = [s for s in samples if s["pages"] >= min(report_at)]
    if len(tail) >= 2:
        slope = statistics.linear_regression([s["pages"] for s in tail],
                                             [s["total_mib"] for s in tail]).slope
        metrics[f"{kind}_growth_per_100_pages_mib"] = slope * 100
    return metrics


def measure_pagetests(entry, env, timeout):
    spec = entry["_spec"]
    count = spec["pages"]
    directory = generated_pages(entry)
    if spec.get("per_page"):
        return measure_per_page(entry, env, timeout, directory, count)

    report = os.path.join(entry["_workdir"], f"{entry['name']}-report.json")
    if os.path.exists(report):
        os.remove(report)
    argv = expand(entry["argv"], pages_dir=directory, report=report)
    wall, code, progress, samples, other = run_page_tests(
        argv, env, timeout, count, spec.get("memory_every"))
    if code != 0:
        raise Failure(f"exit {code}: {' | '.join(other)[-600:]}")
    if progress != count:
        raise Failure(f"{progress} progress lines on stderr for {count} pages: {other[-3:]}")
    with open(report) as file:
        data = json.load(file)
    pages = data["pages"]
    bad = [p["page"] for p in pages if p["outcome"] != "completed"]
    if len(pages) != count or bad or data["summary"]["failed"]:
        raise Failure(f"report: {len(pages)} pages, {data['summary']['failed']} failed, "
                      f"not completed: {bad[:3]}")
    firsts = first_pages(pages)
    warm = [p["duration"] for p in pages if not any(p is f for f in firsts)]
    metrics = {
        "wall_ms": wall * 1000,
        "run_ms": data["summary"]["duration"],
        "per_page_ms": wall * 1000 / count,
        "page_median_ms": statistics.median(p["duration"] for p in pages),
        "page_median_warm_ms": statistics.median(warm),
        "first_page_ms": statistics.median(p["duration"] for p in firsts),
    }
    if samples:
        metrics.update(memory_metrics(samples, spec.get("memory_at", [count])))
    entry.setdefault("details", []).append({
        "progress_lines": progress, "memory_samples": samples,
        "pages": [{"page": os.path.basename(p["page"]), "worker": p["worker"],
                   "duration_ms": round(p["duration"], 1)} for p in pages]})
    return metrics


def measure_per_page(entry, env, timeout, directory, count):
    """One process per page, one after another (the MiniBrowser baseline)."""
    each = []
    start = time.perf_counter()
    for name in sorted(os.listdir(directory)):
        path = os.path.join(directory, name)
        wall, _ = run_once(expand(entry["argv"], page=path, page_uri="file://" + path), env, timeout)
        each.append(wall * 1000)
    total = time.perf_counter() - start
    return {"wall_ms": total * 1000, "per_page_ms": total * 1000 / count,
            "page_median_ms": statistics.median(each)}


MEASURES = {"wall": measure_wall, "json": measure_json, "idle-cpu": measure_idle,
            "pagetests": measure_pagetests}


# --- running suites ----------------------------------------------------------------------------

def run_suite(name, suite, runs, warmup, baseline, env, timeout):
    entries = []
    for spec in suite["entries"]:
        argv = expand(spec["cmd"])
        entry = {"name": spec["name"], "argv": argv, "ready": spec.get("ready"),
                 "settle": spec.get("settle", 0), "samples": {}, "status": "ok",
                 "baseline": spec.get("baseline", baseline), "compare": spec.get("compare", {}),
                 "_spec": spec, "_suite": suite}  # keys starting with _ stay out of --json
        missing = missing_binary(argv, spec.get("note"))
        if missing:
            entry.update(status="skipped", note=missing)
        entries.append(entry)

    active = [e for e in entries if e["status"] == "ok"]
    if active and "prepare" in suite:  # e.g. generated fixture files, made once, outside any timing
        subprocess.run(expand(suite["prepare"]), cwd=REPO, check=True)
    log(f"== {name}: {suite['description']}")
    log(f"   {len(active)} entries x {runs} runs, interleaved, after {warmup} warm-up round(s)")
    with tempfile.TemporaryDirectory(prefix="hybrid-bench-") as workdir:  # for generated pages
        for entry in active:
            entry["_workdir"] = workdir
        run_rounds(suite, active, runs, warmup, env, timeout)

    by_name = {e["name"]: e for e in entries}
    for entry in entries:
        entry["median"] = {k: statistics.median(v) for k, v in entry["samples"].items()}
    for entry in entries:
        entry["ratio"], entry["ratio_to"] = {}, {}
        for key, value in entry["median"].items():
            # "compare" maps a metric onto another entry's metric: {"call_us": "c-roundtrip:serial_us"}.
            target = entry["compare"].get(key, key)
            base_name, _, base_key = target.rpartition(":")
            base = by_name.get(base_name or entry["baseline"])
            base_value = base.get("median", {}).get(base_key) if base else None
            if base_value:
                entry["ratio"][key] = value / base_value
                entry["ratio_to"][key] = f"{base['name']}:{base_key}"
    return {"description": suite["description"], "measure": suite["measure"], "runs": runs,
            "warmup_rounds": warmup, "baseline": baseline, "entries": entries,
            "targets": [check_target(t, by_name) for t in suite.get("targets", [])]}


def run_rounds(suite, active, runs, warmup, env, timeout):
    measure = MEASURES[suite["measure"]]
    for round_index in range(-warmup, runs):
        for entry in active:
            if entry["status"] != "ok":
                continue
            label = "warm-up" if round_index < 0 else f"run {round_index + 1}/{runs}"
            try:
                metrics = measure(entry, env, timeout)
            except (Failure, subprocess.TimeoutExpired, json.JSONDecodeError) as error:
                entry.update(status="failed", note=str(error))
                log(f"   {entry['name']}: FAILED: {error}")
                continue
            log(f"   {label} {entry['name']}: "
                + ", ".join(f"{k}={v:.1f}" for k, v in metrics.items()))
            if round_index < 0:
                entry.pop("details", None)  # what a measure kept about a warm-up run
                continue
            for key, value in metrics.items():
                if "metrics" in suite and key not in suite["metrics"]:
                    continue
                entry["samples"].setdefault(key, []).append(value)


def median_of(reference, by_name):
    """The median of "entry:metric", or None."""
    name, _, key = reference.partition(":")
    return by_name.get(name, {}).get("median", {}).get(key)


def check_target(target, by_name):
    """A suite target, e.g. {"label": ..., "value": "a:wall_ms", "over": "b:wall_ms",
    "at_least": 20, "unit": "x"} (value / over >= 20), evaluated on the medians."""
    value = median_of(target["value"], by_name)
    if value is not None and "over" in target:
        over = median_of(target["over"], by_name)
        value = value / over if over else None
    result = {**target, "measured": value, "met": None}
    if value is not None:
        result["met"] = (value >= target["at_least"] if "at_least" in target
                         else value <= target["at_most"])
    return result


def print_table(name, result):
    print(f"\n{name}: {result['description']}")
    print(f"  medians of {result['runs']} runs each, interleaved; ratio = median / baseline's median")
    width = max([18] + [len(k) + 2 for e in result["entries"] for k in e.get("median", {})])
    print(f"  {'entry':<18}{'metric':<{width}}{'median':>10}{'min':>10}{'max':>10}{'n':>4}  ratio")
    for entry in result["entries"]:
        if entry["status"] == "skipped":
            print(f"  {entry['name']:<18}skipped: {entry['note']}")
            continue
        for key, median in entry["median"].items():
            samples = entry["samples"][key]
            ratio = entry["ratio"].get(key)
            ratio_text = f"{ratio:.2f}x {entry['ratio_to'][key]}" if ratio is not None else ""
            print(f"  {entry['name']:<18}{key:<{width}}{median:>10.1f}{min(samples):>10.1f}"
                  f"{max(samples):>10.1f}{len(samples):>4}  {ratio_text}")
        print_memory_trace(entry)
        if entry["status"] == "failed":
            print(f"  {entry['name']:<18}FAILED: {entry['note']}")
    for target in result.get("targets", []):
        bound = (f">= {target['at_least']:g}" if "at_least" in target else f"<= {target['at_most']:g}")
        unit = target.get("unit", "")
        if target["measured"] is None:
            print(f"  target: {target['label']}: not measured (target {bound}{unit})")
        else:
            print(f"  target: {target['label']}: {target['measured']:.1f}{unit} (target {bound}{unit}): "
                  + ("met" if target["met"] else "NOT met"))


def print_memory_trace(entry):
    """One line of memory by pages finished (median over runs), if the measure sampled it."""
    runs = [d["memory_samples"] for d in entry.get("details", []) if d.get("memory_samples")]
    if not runs:
        return
    points = sorted({s["pages"] for run in runs for s in run})
    trace = []
    for pages in points:
        values = [s for run in runs for s in run if s["pages"] == pages]
        trace.append(f"{pages}: {statistics.median(s['total_mib'] for s in values):.0f}"
                     f" ({statistics.median(s['processes'] for s in values):.0f}p)")
    print(f"  {'':<18}{runs[0][0]['memory']} MiB by pages done, median of {len(runs)} runs"
          f" (processes): {', '.join(trace)}")


def environment():
    info = {"python": platform.python_version(), "machine": platform.machine(),
            "kernel": platform.release(), "cpus": os.cpu_count(),
            "date": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "loadavg_at_end": os.getloadavg()}
    try:
        info["webkit2gtk"] = subprocess.run(["pkg-config", "--modversion", "webkit2gtk-4.1"],
                                            capture_output=True, text=True).stdout.strip()
    except OSError:
        pass
    return info


# --- command line ------------------------------------------------------------------------------

def with_display(body):
    """Runs body(display) with a display: DISPLAY if set, else an Xvfb started for the run."""
    def on_sigterm(signum, frame):
        sys.exit(128 + signum)
    signal.signal(signal.SIGTERM, on_sigterm)
    if os.environ.get("DISPLAY"):
        return body(None)
    xvfb, display = start_xvfb()
    log(f"run.py: started Xvfb on {display} (pid {xvfb.pid})")
    try:
        return body(display)
    finally:
        stop(xvfb)


def main_suites(argv):
    suites = load_suites()
    parser = argparse.ArgumentParser(description="Run benchmark suites from bench/suites.json.")
    parser.add_argument("suites", nargs="*", metavar="SUITE", help=f"all, or: {', '.join(suites)}")
    parser.add_argument("-n", "--runs", type=int, help="runs per entry (default: per suite)")
    parser.add_argument("--warmup", type=int, default=1, help="discarded warm-up rounds (default 1)")
    parser.add_argument("--baseline", help="entry to compare against (default: per suite)")
    parser.add_argument("--timeout", type=float, default=900, help="seconds per command")
    parser.add_argument("--json", action="store_true", help="print results as JSON on stdout")
    parser.add_argument("--list", action="store_true", help="list suites and entries")
    args = parser.parse_args(argv)

    if args.list:
        for name, suite in suites.items():
            print(f"{name} ({suite['measure']}, baseline {suite['baseline']}): {suite['description']}")
            for spec in suite["entries"]:
                argv = expand(spec["cmd"])
                state = missing_binary(argv, spec.get("note")) or "ready"
                print(f"  {spec['name']:<18}{' '.join(argv)}\n  {'':<18}-> {state}")
        return 0
    names = list(suites) if args.suites == ["all"] else args.suites
    if not names:
        parser.error("name at least one suite (or all); see --list")
    unknown = [n for n in names if n not in suites]
    if unknown:
        parser.error(f"unknown suite(s) {', '.join(unknown)}; known: {', '.join(suites)}")

    def body(display):
        env = child_env(display)
        return {n: run_suite(n, suites[n], args.runs or suites[n]["runs"], args.warmup,
                             args.baseline or suites[n]["baseline"], env, args.timeout)
                for n in names}
    results = with_display(body)
    if args.json:
        for result in results.values():
            for entry in result["entries"]:
                entry["cmd"] = entry.pop("argv")
                for key in [k for k in entry if k.startswith("_")]:
                    del entry[key]
        json.dump({"environment": environment(), "suites": results}, sys.stdout, indent=2)
        print()
    else:
        for name, result in results.items():
            print_table(name, result)
    failed = any(e["status"] == "failed" for r in results.values() for e in r["entries"])
    return 1 if failed else 0


def main_idle(argv):
    parser = argparse.ArgumentParser(
        prog="run.py --idle-cpu",
        description="CPU use of a command's process tree while it sits idle.")
    parser.add_argument("--ready", help="start after a stdout line containing this text")
    parser.add_argument("--settle", type=float, default=None,
                        help="seconds to wait after the ready line, or after start (default 2, or 5 without --ready)")
    parser.add_argument("--duration", type=float, default=10.0, help="seconds measured (default 10)")
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    parser.add_argument("cmd", nargs=argparse.REMAINDER, help="-- CMD ARGS...")
    args = parser.parse_args(argv)
    cmd = args.cmd[1:] if args.cmd[:1] == ["--"] else args.cmd
    if not cmd:
        parser.error("give the command after --")
    settle = args.settle if args.settle is not None else (2.0 if args.ready else 5.0)

    def body(display):
        return idle_cpu(cmd, child_env(display), args.ready, settle, args.duration)
    try:
        result = with_display(body)
    except Failure as error:
        log(f"run.py: {error}")
        return 1
    result.update(duration_s=args.duration, settle_s=settle)
    if args.json:
        print(json.dumps(result))
    else:
        print(f"{result['cpu_pct']:.2f} % of one core over {args.duration:g} s "
              f"({result['processes']} processes): {' '.join(cmd)}")
    return 0


if __name__ == "__main__":
    arguments = sys.argv[1:]
    options = arguments[:arguments.index("--")] if "--" in arguments else arguments
    if "--idle-cpu" in options:
        arguments.remove("--idle-cpu")
        sys.exit(main_idle(arguments))
    sys.exit(main_suites(arguments))
