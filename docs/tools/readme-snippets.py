#!/usr/bin/env python3
"""Keeps README.md's Swift in step with code that compiles: each ```swift block is either a copy of
a snippet of an example app (`Examples/*/main.swift`, between `// snippet: NAME` and
`// endsnippet`), announced by `<!-- snippet: PATH#NAME -->` on the line before it, or says why it
is not compiled (`<!-- not-compiled: reason -->`, e.g. it calls the reader's own functions).

`python3 docs/tools/readme-snippets.py --check` (make test) fails on a block that differs from its
snippet, names a snippet that does not exist, or has neither marker; without --check it rewrites
the blocks from the snippets.
"""
import os
import re
import sys
import textwrap

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
README = os.path.join(ROOT, "README.md")
MARKER = re.compile(r"^<!-- (snippet|not-compiled): (.+?) -->$")


def snippet(path, name):
    """The dedented lines between `// snippet: name` and the next `// endsnippet` in path."""
    try:
        lines = open(os.path.join(ROOT, path), encoding="utf-8").read().split("\n")
    except OSError as error:
        raise LookupError(f"{path}: {error.strerror}")
    starts = [i for i, line in enumerate(lines) if line.strip() == f"// snippet: {name}"]
    if len(starts) != 1:
        raise LookupError(f"{path} has {len(starts)} snippets named {name!r} (one expected)")
    body = []
    for line in lines[starts[0] + 1:]:
        if line.strip() == "// endsnippet":
            return textwrap.dedent("\n".join(body)).strip("\n")
        body.append(line)
    raise LookupError(f"{path}: snippet {name!r} has no // endsnippet")


def main():
    check = "--check" in sys.argv[1:]
    lines = open(README, encoding="utf-8").read().split("\n")
    problems, out, i = [], [], 0
    while i < len(lines):
        line = lines[i]
        out.append(line)
        if line.strip() != "```swift":
            i += 1
            continue
        end = next((j for j in range(i + 1, len(lines)) if lines[j].strip() == "```"), len(lines))
        block = "\n".join(lines[i + 1:end])
        previous = next((lines[j] for j in range(i - 1, -1, -1) if lines[j].strip()), "")
        marker = MARKER.match(previous.strip())
        if not marker:
            problems.append(f"README.md:{i + 1}: a swift block without <!-- snippet: PATH#NAME --> or <!-- not-compiled: reason -->")
        elif marker.group(1) == "snippet":
            path, _, name = marker.group(2).partition("#")
            try:
                wanted = snippet(path, name)
                if block != wanted:
                    problems.append(f"README.md:{i + 1}: differs from {path}#{name}" +
                                    ("" if check else " (rewritten)"))
                    block = wanted
            except LookupError as error:
                problems.append(f"README.md:{i + 1}: {error}")
        out.extend(block.split("\n"))
        out.append(lines[end] if end < len(lines) else "```")
        i = end + 1
    if not check:
        open(README, "w", encoding="utf-8").write("\n".join(out))
        problems = [p for p in problems if not p.endswith("(rewritten)")]
    for problem in problems:
        print(problem)
    print(f"readme-snippets: {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
