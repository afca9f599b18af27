#!/usr/bin/env python3
"""Runs every command of the README's ```sh blocks, as a reader would (issue 12, item 13).

Each block runs as one bash script (so `cd`, `&` and files made by an earlier line work) in a fresh
temporary directory that links the repository's `pages/`, with the debug `hybrid-run` first on PATH.
A block passes when every command exits 0 within the deadline. A block that cannot run headless or
offline is preceded by `<!-- not-tested: REASON -->`; keep those few.

    python3 docs/tools/readme-examples.py [--list] [README.md]
"""
import os
import re
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
DEADLINE = 60  # seconds per block
SKIP = re.compile(r"<!--\s*not-tested:\s*(.+?)\s*-->")


def blocks(text):
    """(line number, code, skip reason or None) of every ```sh block."""
    lines = text.split("\n")
    found, index = [], 0
    while index < len(lines):
        if lines[index].strip() == "```sh":
            start = index
            previous = next((l for l in reversed(lines[:start]) if l.strip()), "")
            skip = SKIP.search(previous)
            index += 1
            body = []
            while index < len(lines) and lines[index].strip() != "```":
                body.append(lines[index])
                index += 1
            found.append((start + 1, "\n".join(body), skip.group(1) if skip else None))
        index += 1
    return found


def run(code, line, name):
    with tempfile.TemporaryDirectory(prefix="readme-example-") as work:
        os.symlink(os.path.join(ROOT, "pages"), os.path.join(work, "pages"))
        env = dict(os.environ)
        env["PATH"] = os.path.join(ROOT, ".build", "debug") + os.pathsep + env.get("PATH", "")
        # -e: the first failing command fails the block; the trap names it. Background jobs (a
        # loopback server) end with the block.
        script = ("set -eo pipefail\ntrap 'echo \"failed: $BASH_COMMAND\" >&2' ERR\n"
                  "trap 'kill $(jobs -p) 2>/dev/null || true' EXIT\n" + code + "\n")
        started = time.monotonic()
        try:
            done = subprocess.run(["bash", "-c", script], cwd=work, env=env, capture_output=True, text=True,
                                  timeout=DEADLINE, start_new_session=True)
        except subprocess.TimeoutExpired as timeout:
            return False, f"{name}:{line}: the block did not finish within {DEADLINE} s\n{timeout.stderr or ''}"
        elapsed = time.monotonic() - started
        if done.returncode != 0:
            return False, f"{name}:{line}: exit {done.returncode}\n{done.stdout[-2000:]}{done.stderr[-2000:]}"
        return True, f"{name}:{line}: ok ({elapsed:.1f} s)"


def main(argv):
    path = next((a for a in argv if not a.startswith("-")), os.path.join(ROOT, "README.md"))
    found = blocks(open(path, encoding="utf-8").read())
    if not found:
        print(f"readme-examples: no ```sh blocks in {path}", file=sys.stderr)
        return 1
    if not os.access(os.path.join(ROOT, ".build", "debug", "hybrid-run"), os.X_OK):
        print("readme-examples: build first (swift build)", file=sys.stderr)
        return 1
    failures, name = 0, os.path.basename(path)
    for line, code, skip in found:
        if skip:
            print(f"{name}:{line}: skipped ({skip})")
            continue
        if "--list" in argv:
            print(f"{name}:{line}:\n{code}")
            continue
        ok, message = run(code, line, name)
        print(message)
        failures += not ok
    tested = sum(1 for _, _, skip in found if not skip)
    if failures:
        print(f"readme-examples: {failures} of {tested} example blocks in {name} failed", file=sys.stderr)
        return 1
    print(f"readme-examples: {tested} blocks ran, {len(found) - tested} skipped")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
