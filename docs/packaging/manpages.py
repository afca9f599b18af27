#!/usr/bin/env python3
"""Writes one man page per hybrid-run command (hybrid-run.1, hybrid-run-test.1, hybrid-run-package-install.1, …)
from the program's own help (`hybrid-run --experimental-dump-help`, swift-argument-parser's JSON of every
command, flag and abstract), so the pages say what --help says.

Usage: manpages.py HYBRID-RUN OUTPUT-DIR [--date YYYY-MM-DD]
"""
import json
import os
import re
import subprocess
import sys


def roff(text):
    """Text safe in a roff paragraph: backslashes escaped, minus signs marked, no line read as a request."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return "\n".join(("\\&" + line) if line.startswith((".", "'")) else line for line in text.split("\n"))


def flag_names(argument):
    names = []
    for name in argument.get("names", []):
        prefix = "--" if name["kind"] == "long" else "-"
        names.append(prefix + name["name"])
    return names


def option_entry(argument):
    value = argument.get("valueName")
    if argument["kind"] == "positional":
        head = "\\fI" + roff(value or "argument") + "\\fR"
    else:
        head = ", ".join("\\fB" + roff(name) + "\\fR" for name in flag_names(argument))
        if argument["kind"] == "option" and value:
            head += " \\fI" + roff(value) + "\\fR"
    body = argument.get("abstract", "")
    if argument.get("discussion"):
        body += "\n" + argument["discussion"]
    if argument.get("defaultValue") not in (None, "") and argument["kind"] == "option":
        body += " (default: %s)" % argument["defaultValue"]
    return ".TP\n%s\n%s\n" % (head, roff(body.strip()))


def page(command, path, date, version):
    name = "-".join(path)
    title = name.upper()
    lines = ['.TH "%s" "1" "%s" "hybrid-run %s" "User Commands"' % (roff(title), date, version),
             ".SH NAME", "%s \\- %s" % (roff(name), roff(command.get("abstract", "").rstrip("."))),
             ".SH SYNOPSIS", "\\fB%s\\fR [\\fIoptions\\fR]" % roff(" ".join(path))]
    subcommands = [sub for sub in command.get("subcommands", []) if sub.get("shouldDisplay", True)]
    if subcommands:
        lines[-1] = "\\fB%s\\fR \\fIcommand\\fR [\\fIoptions\\fR]" % roff(" ".join(path))
    discussion = command.get("discussion", "")
    if discussion:
        lines.append(".SH DESCRIPTION")
        for paragraph in re.split(r"\n\s*\n", discussion.strip()):
            lines.append(".PP")
            if re.search(r"^\s{2,}\S", paragraph, re.M):
                lines += [".nf", roff(paragraph), ".fi"]
            else:
                lines.append(roff(paragraph))
    arguments = [a for a in command.get("arguments", []) if a.get("shouldDisplay", True)
                 and not set(flag_names(a)) & {"--help", "-h", "--version"}]
    if arguments:
        lines.append(".SH OPTIONS")
        lines += [option_entry(a).rstrip("\n") for a in arguments]
    if subcommands:
        lines.append(".SH COMMANDS")
        for sub in subcommands:
            lines += [".TP", "\\fB%s\\fR" % roff(sub["commandName"]), roff(sub.get("abstract", ""))]
    lines += [".SH SEE ALSO"]
    others = ["\\fB%s\\fR(1)" % roff("-".join(path + [sub["commandName"]])) for sub in subcommands]
    if len(path) > 1:
        others.insert(0, "\\fB%s\\fR(1)" % roff("-".join(path[:-1])))
    lines.append(", ".join(others + ["/usr/share/doc/hybrid\\-run/"]))
    return "\n".join(lines) + "\n"


def walk(command, path, out, date, version):
    pages = [("-".join(path), page(command, path, date, version))]
    for sub in command.get("subcommands", []):
        if sub.get("shouldDisplay", True) and sub["commandName"] != "help":
            pages += walk(sub, path + [sub["commandName"]], out, date, version)
    return pages


def main():
    args = sys.argv[1:]
    date = "1970-01-01"
    if "--date" in args:
        index = args.index("--date")
        date = args[index + 1]
        del args[index:index + 2]
    if len(args) != 2:
        sys.exit(__doc__)
    program, out = args
    dump = json.loads(subprocess.run([program, "--experimental-dump-help"], check=True, capture_output=True, text=True).stdout)
    version = subprocess.run([program, "--version"], check=True, capture_output=True, text=True).stdout.split()[1]
    root = dump["command"]
    # `run` is the default command: the root page documents its flags too (hybrid-run --url …).
    run = next((sub for sub in root.get("subcommands", []) if sub["commandName"] == "run"), None)
    if run:
        root = dict(root, arguments=run.get("arguments", []))
    os.makedirs(out, exist_ok=True)
    for name, text in walk(root, [root["commandName"]], out, date, version):
        with open(os.path.join(out, name + ".1"), "w") as f:
            f.write(text)
        print(name + ".1")


if __name__ == "__main__":
    main()
