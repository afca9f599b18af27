#!/usr/bin/env python3
"""Where a UI process's RSS grows during the scheme transfer (python3 standard library only).

Usage: python3 bench/rss-probe.py [--stop-web S] [--every MS] -- CMD...
  CMD is one `scheme blob` run: bench/c/build/scheme blob DIR URL, or
  .build/release/hybrid-bench scheme blob DIR URL [--share]. It needs a display (DISPLAY).

Samples /proc/PID/smaps of CMD's process (the UI process) every MS milliseconds (20), with the
bytes it has read so far (/proc/PID/io rchar: the file WebKit reads through the scheme's
GInputStream) and its web process's VmRSS. When CMD exits it prints, from the sample taken when the
transfer started (its exit time minus the transfer_ms it printed, minus the page's 100 ms delay) to
the peak: RSS growth by kind of mapping (anon: private heap; memfd and SYSV: buffers shared with the
web process and the X server; file: code pages), the anonymous mappings that grew most, the most
threads seen by name, and a timeline every 0.25 s of UI growth / MiB the UI process has read / web
process growth.
--stop-web S: once the UI process has read 20 MiB, stops the web process (SIGSTOP) for S seconds:
shows what the UI process does when the page takes the data slower than the scheme stream gives it.
"""
import argparse
import json
import os
import signal
import subprocess
import sys
import time

ARENA = 64 << 20  # glibc's non-main arena heaps are 64 MiB-aligned reservations


def smaps(pid):
    """{start: [start, end, perms, name, rss_kib]} or None once the process is gone."""
    mappings, current = {}, None
    try:
        with open(f"/proc/{pid}/smaps") as file:
            for line in file:
                parts = line.split()
                if "-" in parts[0] and not parts[0].endswith(":"):
                    start, end = (int(x, 16) for x in parts[0].split("-"))
                    current = [start, end, parts[1], parts[5] if len(parts) > 5 else "", 0]
                    mappings[start] = current
                elif parts[0] == "Rss:" and current is not None:
                    current[4] = int(parts[1])
    except OSError:
        return None
    return mappings


def kind(mapping):
    start, end, _, name, _ = mapping
    if name == "[heap]":
        return "anon: [heap] (brk, glibc main arena)"
    if name.startswith("[stack"):
        return "anon: stacks"
    if "memfd:" in name:
        return "memfd (shared with the web process)"
    if name.startswith("/SYSV") or name == "SYSV00000000":
        return "SYSV (MIT-SHM, shared with X)"
    if name.startswith("/"):
        return "file (code and data pages)"
    if name:
        return name
    if start % ARENA == 0 and end - start <= ARENA:
        return "anon: 64 MiB-aligned (a glibc arena heap, or libpas)"
    return "anon: other mmap (bmalloc/libpas, large malloc)"


def proc_field(pid, name, key):
    """The number after `key` in /proc/PID/NAME (0 when the process or the line is gone)."""
    try:
        with open(f"/proc/{pid}/{name}") as file:
            for line in file:
                if line.startswith(key):
                    return int(line.split()[1])
    except OSError:
        pass
    return 0


def status_field(pid, key):
    return proc_field(pid, "status", key)


def rchar(pid):
    return proc_field(pid, "io", "rchar:")


def cpu_ms(pid):
    """User + system CPU time of the process so far, in ms."""
    try:
        fields = open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()
    except OSError:
        return 0
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


def web_process(pid):
    try:
        children = open(f"/proc/{pid}/task/{pid}/children").read().split()
    except OSError:
        return None
    for child in children:
        try:
            if open(f"/proc/{child}/comm").read().startswith("WebKitWebProc"):
                return int(child)
        except OSError:
            pass
    return None


def threads(pid):
    names = {}
    try:
        for task in os.listdir(f"/proc/{pid}/task"):
            try:
                name = open(f"/proc/{pid}/task/{task}/comm").read().strip()
            except OSError:
                continue
            names[name] = names.get(name, 0) + 1
    except OSError:
        pass
    return names


def send(pid, number):
    """Signals pid; False if it is gone."""
    try:
        os.kill(pid, number)
        return True
    except ProcessLookupError:
        return False


def by_kind(mappings):
    totals = {}
    for mapping in mappings.values():
        totals[kind(mapping)] = totals.get(kind(mapping), 0) + mapping[4]
    return totals


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--stop-web", type=float, default=0)
    parser.add_argument("--every", type=float, default=20)
    parser.add_argument("cmd", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    cmd = args.cmd[1:] if args.cmd[:1] == ["--"] else args.cmd
    if not cmd:
        sys.exit("usage: rss-probe.py [--stop-web S] [--every MS] -- CMD...")

    process = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    started = time.monotonic()
    samples, most_threads, web, stopped_at, resumed = [], {}, None, None, False
    try:
        while process.poll() is None:
            mappings = smaps(process.pid)
            if mappings:
                web = web or web_process(process.pid)
                now = time.monotonic()
                read = rchar(process.pid)
                samples.append((now - started, mappings, read, status_field(web, "VmRSS:") if web else 0,
                                cpu_ms(process.pid), cpu_ms(web) if web else 0))
                names = threads(process.pid)
                if sum(names.values()) > sum(most_threads.values()):
                    most_threads = names
                if args.stop_web and web and stopped_at is None and read - samples[0][2] > (20 << 20):
                    send(web, signal.SIGSTOP)
                    stopped_at = now
                    print(f"stopped the web process {web} at {now - started:.2f} s", flush=True)
                if stopped_at is not None and not resumed and now - stopped_at >= args.stop_web:
                    send(web, signal.SIGCONT)
                    resumed = True
                    print(f"resumed it at {now - started:.2f} s", flush=True)
            time.sleep(args.every / 1000)
    finally:
        if stopped_at is not None and not resumed:
            send(web, signal.SIGCONT)
        if process.poll() is None:  # interrupted: do not leave the benchmark running
            send(process.pid, signal.SIGTERM)
    ended = time.monotonic() - started
    stdout, stderr = process.communicate()
    lines = [line for line in stdout.splitlines() if line.startswith("{")]
    if process.returncode != 0 or not lines or not samples:
        sys.exit(f"rss-probe: the command failed (exit {process.returncode}): {stderr.strip()[-400:]}")
    result = json.loads(lines[-1])
    transfer_start = ended - result.get("transfer_ms", 0) / 1000 - 0.1
    base = max((s for s in samples if s[0] <= transfer_start), key=lambda s: s[0], default=samples[0])
    during = [s for s in samples if s[0] > base[0]] or [base]
    peak = max(during, key=lambda s: sum(m[4] for m in s[1].values()))
    total = lambda sample: sum(m[4] for m in sample[1].values()) / 1024

    print(f"reported: {json.dumps(result)}")
    print(f"transfer from {base[0]:.2f} s: RSS {total(base):.1f} MiB; peak at {peak[0]:.2f} s "
          f"{total(peak):.1f} MiB (+{total(peak) - total(base):.1f}); end {ended:.2f} s")
    base_kinds, peak_kinds = by_kind(base[1]), by_kind(peak[1])
    for name in sorted(set(base_kinds) | set(peak_kinds), key=lambda k: base_kinds.get(k, 0) - peak_kinds.get(k, 0)):
        delta = (peak_kinds.get(name, 0) - base_kinds.get(name, 0)) / 1024
        if abs(delta) >= 0.25:
            print(f"  {name:52s} {delta:+7.1f} MiB")
    grown = []
    for start, mapping in peak[1].items():
        before = base[1].get(start)
        delta = mapping[4] - (before[4] if before else 0)
        if delta >= 1024 and not mapping[3].startswith("/"):
            grown.append((delta, mapping, before is None))
    for delta, mapping, new in sorted(grown, key=lambda g: g[0], reverse=True)[:6]:
        print(f"  mapping {mapping[0]:x} {(mapping[1] - mapping[0]) / 2**20:.0f} MiB {mapping[2]} {mapping[3] or 'anon'}"
              f"{' (new)' if new else ''}: +{delta / 1024:.1f} MiB")
    last = samples[-1]
    print(f"  CPU from the transfer's start to the last sample: UI process {last[4] - base[4]:.0f} ms, "
          f"web process {last[5] - base[5]:.0f} ms")
    print(f"  threads (most seen): {sum(most_threads.values())} {dict(sorted(most_threads.items()))}")
    timeline, last = [], None
    for sample in samples:
        if sample[0] >= base[0] and (last is None or sample[0] - last >= 0.25):
            last = sample[0]
            timeline.append(f"{total(sample) - total(base):.0f}/{(sample[2] - base[2]) / 2**20:.0f}/"
                            f"{(sample[3] - base[3]) / 1024:.0f}")
    print("  every 0.25 s, MiB: UI growth / read by the UI process / web process growth")
    print("  " + " ".join(timeline))


if __name__ == "__main__":
    main()
