#!/usr/bin/env python3
"""Checks the shape of Sources/ that the compiler cannot: run by `make test` (and `make structure`).

1. C stays at the edges: only Sources/HybridShellCore/GLib imports CGLib (GLib, GIO, libsoup) and
   only Sources/HybridShellWebKit/Interop imports CWebKitGTK.
2. The library (HybridShellCore, HybridShellWebKit, HybridShell) neither prints, exits nor names its
   CLI: process output, exit codes and the CLI's wording live in Sources/hybrid-run.
3. No file in Sources/ is longer than MAX_LINES, except generated ones (GENERATED).

The layers themselves are SwiftPM targets (Package.swift): the compiler refuses an arrow pointing up.
Exit status 1 and one line per problem when something is wrong.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIBRARIES = [os.path.join(ROOT, "Sources", name) for name in ("HybridShellCore", "HybridShellWebKit", "HybridShell")]
MAX_LINES = 300
GENERATED = {"Sources/HybridShellCore/Bridge/BridgeScripts.swift", "Sources/HybridShellCore/Engine/EngineScripts.swift",
             "Sources/HybridShellCore/Modules/ModuleScripts.swift", "Sources/HybridShellCore/App/AppTemplates.swift"}
# Each C module and the one folder that may import it.
C_MODULES = {"CGLib": "Sources/HybridShellCore/GLib/", "CWebKitGTK": "Sources/HybridShellWebKit/Interop/"}

DECLARATION = re.compile(
    r"^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|internal|private|fileprivate|package|open|final|nonisolated|indirect)\s+)*"
    r"(?:class|struct|enum|protocol|actor|typealias)\s+([A-Za-z_]\w*)")
PRINTING = re.compile(r"\bprint\(|\bexit\(|\b_exit\(|FileHandle\.standard|\bfputs\(|\bstdout\b|\bstderr\b|"
                      r"STDOUT_FILENO|STDERR_FILENO|\bputs\(")


def code_only(text):
    """The text with comments and string literals blanked out (newlines kept, for line numbers);
    the code inside string interpolations `\\(…)` is kept."""
    out, i, n = [], 0, len(text)
    blank = lambda part: re.sub(r"[^\n]", " ", part)
    while i < n:
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i)); i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(blank(text[i:j])); i = j
        elif text[i] == '"' or (text[i] == "#" and re.match(r'#+"', text[i:])):
            hashes = len(re.match(r"#*", text[i:]).group(0))
            start = i + hashes
            multiline = text.startswith('"""', start)
            close = ('"""' if multiline else '"') + "#" * hashes
            escape = "\\" + "#" * hashes
            j = start + (3 if multiline else 1)
            out.append(blank(text[i:j]))
            while j < n and not text.startswith(close, j):
                if text.startswith(escape + "(", j):
                    depth, k = 1, j + len(escape) + 1
                    while k < n and depth:
                        depth += {"(": 1, ")": -1}.get(text[k], 0)
                        k += 1
                    out.append(" " * (len(escape) + 1) + code_only(text[j + len(escape) + 1:k - 1]) + " ")
                    j = k
                elif text.startswith(escape, j):
                    out.append(blank(text[j:j + len(escape) + 1])); j += len(escape) + 1
                elif text[j] == "\n" and not multiline:
                    break
                else:
                    out.append(blank(text[j])); j += 1
            out.append(blank(text[j:j + len(close)])); i = min(n, j + len(close))
        else:
            out.append(text[i]); i += 1
    return "".join(out)


def swift_files(top):
    for directory, _, names in sorted(os.walk(top)):
        for name in sorted(names):
            if name.endswith(".swift"):
                yield os.path.join(directory, name)


def main():
    problems = []
    rel = lambda path: os.path.relpath(path, ROOT)

    for path in swift_files(os.path.join(ROOT, "Sources")):
        text = open(path, encoding="utf-8").read()
        lines = text.count("\n")
        if lines > MAX_LINES and rel(path) not in GENERATED:
            problems.append(f"{rel(path)}: {lines} lines; split it (at most {MAX_LINES} outside generated files)")
        for module, folder in C_MODULES.items():
            if re.search(r"^\s*(?:@\w+\s+)?(?:\w+\s+)?import\s+" + module + r"\b", text, re.M) and \
                    not rel(path).startswith(folder):
                problems.append(f"{rel(path)}: imports {module} outside {folder}")

    files = 0
    for library in LIBRARIES:
        for path in swift_files(library):
            files += 1
            raw = open(path, encoding="utf-8").read()
            code = code_only(raw)
            for number, (line, raw_line) in enumerate(zip(code.split("\n"), raw.split("\n")), 1):
                if PRINTING.search(line):
                    problems.append(f"{rel(path)}:{number}: the library prints or exits; return values and let the CLI do it: {raw_line.strip()}")
                if "hybrid-run" in raw_line and not raw_line.lstrip().startswith("///") and rel(path) not in GENERATED:
                    problems.append(f"{rel(path)}:{number}: the library names its CLI (only doc comments may): {raw_line.strip()}")

    for problem in problems:
        print(problem)
    print(f"structure-check: {files} library files; {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
