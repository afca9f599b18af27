#!/usr/bin/env python3
"""Checks the shape of Sources/ that the compiler cannot: run by `make test` (and `make structure`).

1. Only Sources/HybridShell/Interop imports the C module CWebKitGTK.
2. The library (Sources/HybridShell) neither prints, exits nor names its CLI: process output, exit codes
   and the CLI's wording live in Sources/hybrid-run.
3. Dependencies between the library's folders point down only (LAYERS below): a file may use the types
   declared in its own folder and in the folders its folder lists. A new folder must be added here.
4. No file in Sources/ is longer than MAX_LINES, except generated ones (GENERATED).

Types are found by their top-level declarations; uses by identifiers outside comments and string
literals. Exit status 1 and one line per problem when something is wrong.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LIBRARY = os.path.join(ROOT, "Sources", "HybridShell")
MAX_LINES = 300
GENERATED = {"Sources/HybridShell/Bridge/BridgeScripts.swift", "Sources/HybridShell/Engine/EngineScripts.swift",
             "Sources/HybridShell/Modules/ModuleScripts.swift"}

# Each folder of the library and the folders whose types it may use. Interop and Engine are one layer
# split at the C boundary: Interop translates WebKit's C callbacks into Engine's domain values
# (PageEvent, NavigationAction, …) and Engine wraps Interop's adapters; nothing below Engine knows the
# bridge, the manager or the applications on top.
BASE = ["Support", "JSON"]
LAYERS = {
    "Support": [],
    "JSON": ["Support"],
    "Interop": BASE + ["Engine", "Schemes"],
    "Engine": BASE + ["Interop", "Schemes"],
    # URL-scheme handlers are registered on the web context, so they belong to the engine's layer.
    "Schemes": BASE + ["Engine", "Interop"],
    "Config": BASE + ["Engine"],
    "Bridge": BASE + ["Engine", "Schemes"],
    "Manager": BASE + ["Engine", "Schemes", "Bridge", "Config"],
    "PageTests": BASE + ["Engine", "Schemes", "Bridge", "Manager", "Config", "Modules"],
    "Automation": BASE + ["Engine", "Schemes", "Bridge", "Manager", "Config"],
    # Signed offline packages: files, signatures and a store on disk; no engine.
    "Packages": BASE + ["Engine"],
    # Serving installed packages on the app: scheme, wired into the shell's configuration.
    "PackageServing": BASE + ["Engine", "Schemes", "Packages", "Manager", "Config"],
    # Native API modules: handlers over the bridge, wired to the page manager's stack.
    "Modules": BASE + ["Engine", "Schemes", "Bridge", "Manager", "Config"],
    "Kiosk": BASE + ["Engine", "Schemes", "Bridge", "Manager", "Config", "Modules"],
}

DECLARATION = re.compile(
    r"^(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|internal|private|fileprivate|package|open|final|nonisolated|indirect)\s+)*"
    r"(?:class|struct|enum|protocol|actor|typealias)\s+([A-Za-z_]\w*)")
IDENTIFIER = re.compile(r"\b[A-Z]\w*\b")
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
        if re.search(r"^\s*(?:@\w+\s+)?(?:\w+\s+)?import\s+CWebKitGTK\b", text, re.M) and \
                not rel(path).startswith("Sources/HybridShell/Interop/"):
            problems.append(f"{rel(path)}: imports CWebKitGTK outside Sources/HybridShell/Interop")

    folders, owner, files = {}, {}, []
    for path in swift_files(LIBRARY):
        parts = os.path.relpath(path, LIBRARY).split(os.sep)
        folder = parts[0] if len(parts) > 1 else "(top level)"
        if folder not in LAYERS:
            problems.append(f"{rel(path)}: folder {folder} is not in Tests/structure-check.py's LAYERS; add it with what it may use")
            continue
        raw = open(path, encoding="utf-8").read()
        code = code_only(raw)
        files.append((path, folder, raw, code))
        for number, line in enumerate(code.split("\n"), 1):
            match = DECLARATION.match(line)
            if match:
                name = match.group(1)
                if name in owner and owner[name] != folder:
                    problems.append(f"{rel(path)}:{number}: {name} is also declared in {owner[name]}")
                owner.setdefault(name, folder)

    for path, folder, raw, code in files:
        for number, (line, raw_line) in enumerate(zip(code.split("\n"), raw.split("\n")), 1):
            if PRINTING.search(line):
                problems.append(f"{rel(path)}:{number}: the library prints or exits; return values and let the CLI do it: {raw_line.strip()}")
            if "hybrid-run" in raw_line and not raw_line.lstrip().startswith("///") and rel(path) not in GENERATED:
                problems.append(f"{rel(path)}:{number}: the library names its CLI (only doc comments may): {raw_line.strip()}")
            for name in set(IDENTIFIER.findall(line)):
                used = owner.get(name)
                if used and used != folder and used not in LAYERS[folder]:
                    problems.append(f"{rel(path)}:{number}: {folder} uses {name} from {used}, which it may not (see LAYERS)")

    for problem in problems:
        print(problem)
    print(f"structure-check: {len(files)} library files, {len(owner)} types; {len(problems)} problem(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
