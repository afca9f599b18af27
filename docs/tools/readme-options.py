#!/usr/bin/env python3
"""Regenerates the flag tables in README.md (and docs/*.md) from `hybrid-run … --help`'s own source,
ArgumentParser's `--experimental-dump-help` JSON, so the tables and `--help` cannot disagree.

A table sits between two marker lines naming the subcommand:

    <!-- options: test -->
    …generated…
    <!-- end options -->

    python3 docs/tools/readme-options.py           # rewrite the tables
    python3 docs/tools/readme-options.py --check   # exit 1 if a table is out of date (make test)
"""
import json
import os
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FILES = ["README.md", "docs/kiosk.md", "docs/webdriver.md", "docs/desktop-apps.md"]
BLOCK = re.compile(r"(<!-- options: ([a-z ]+) -->\n)(.*?)(<!-- end options -->)", re.S)
BUILTIN = {"help", "version", "experimental-dump-help", "generate-completion-script"}
BINARY = os.path.join(ROOT, ".build", "debug", "hybrid-run")


def dump(command):
    output = subprocess.run([BINARY] + command.split() + ["--experimental-dump-help"], capture_output=True,
                            text=True, check=True, timeout=30).stdout
    return json.loads(output)["command"]


def cell(text):
    return text.replace("|", "\\|")


def row(argument):
    names = [n for n in argument.get("names", []) if n["kind"] == "long"]
    value = argument.get("valueName")
    if argument["kind"] == "positional":
        flag = f"<{value}>" + (" …" if argument.get("isRepeating") else "")
    else:
        flag = "--" + names[0]["name"] + (f" <{value}>" if argument["kind"] == "option" else "")
    abstract = argument.get("abstract", "")
    meaning, _, example = abstract.partition(" Example: ")
    default = argument.get("defaultValue")
    if default and argument["kind"] == "option" and "default" not in meaning.lower():
        meaning = meaning.rstrip(".") + f" (default: {default})."
    text = cell(meaning) + (f" Example: `{cell(example)}`" if example else "")
    return f"| `{cell(flag)}` | {text} |"


def table(command):
    info = dump(command)
    rows = [row(a) for a in info.get("arguments", [])
            if a.get("shouldDisplay", True)
            and not any(n["name"] in BUILTIN for n in a.get("names", []) or [])]
    if not rows:
        raise SystemExit(f"readme-options: hybrid-run {command} has no flags to list")
    header = f"<!-- generated from `hybrid-run {command} --help` by docs/tools/readme-options.py: edit the help, not this table -->\n"
    return header + "| flag | meaning |\n|---|---|\n" + "\n".join(rows) + "\n"


def main(argv):
    if not os.access(BINARY, os.X_OK):
        print("readme-options: build first (swift build)", file=sys.stderr)
        return 1
    check = "--check" in argv
    stale, count = [], 0
    for name in FILES:
        path = os.path.join(ROOT, name)
        text = open(path, encoding="utf-8").read()

        def replace(match):
            nonlocal count
            count += 1
            return match.group(1) + table(match.group(2)) + match.group(4)

        updated = BLOCK.sub(replace, text)
        if updated != text:
            stale.append(name)
            if not check:
                with open(path + ".tmp", "w", encoding="utf-8") as out:
                    out.write(updated)
                os.replace(path + ".tmp", path)
    if count == 0:
        print("readme-options: no <!-- options: … --> tables found", file=sys.stderr)
        return 1
    if check and stale:
        print(f"readme-options: the flag tables in {', '.join(stale)} differ from --help; "
              "run `python3 docs/tools/readme-options.py` (after swift build) and commit the result", file=sys.stderr)
        return 1
    print(f"readme-options: {count} tables " + ("up to date" if check else f"written ({', '.join(stale) or 'no changes'})"))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
