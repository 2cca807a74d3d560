#!/usr/bin/env python3
"""Checks the shape rules of docs/architecture.md on Sources/: no file over 400 lines, no
function over 60 lines unless a comment right above it says why
(`// shape: long because ...`); and every `CommandConfiguration(` names its command
(`commandName:`): without it ArgumentParser makes the name from the type's with
`String(describing:)`, a run-time search of the whole static binary's protocol
conformances for each command, most of a short `sextantctl`'s start (16 against 27 ms a
`sextantctl --version`). Exits 1 and lists the offenders otherwise.

A rough reader, not a Swift parser: a function starts at a line with `func `, `init(` or
`init?(` and ends where its braces balance again (braces inside strings are rare here)."""
import pathlib
import re
import sys

MAX_FILE = 400
MAX_FUNCTION = 60
START = re.compile(r"^\s*(?:@\w+(?:\([^)]*\))?\s+)*(?:(?:public|private|fileprivate|internal|static|override|mutating|nonisolated|final|required|convenience)\s+)*(?:func\s+\w+|init[?!]?\s*[(<])")


def functions(lines):
    i = 0
    while i < len(lines):
        if START.match(lines[i]):
            depth, opened, j = 0, False, i
            while j < len(lines):
                code = re.sub(r'"(?:[^"\\]|\\.)*"', '""', lines[j].split("//")[0])
                depth += code.count("{") - code.count("}")
                opened = opened or "{" in code
                if opened and depth <= 0:
                    break
                j += 1
            if opened:
                yield i, j
                i = j
        i += 1


def comments_above(lines, index):
    """The comment lines (and attributes) right above a declaration."""
    j = index - 1
    while j >= 0 and (lines[j].strip().startswith("//") or lines[j].strip().startswith("@")):
        yield lines[j]
        j -= 1


def unnamed_commands(lines):
    """The lines where a `CommandConfiguration(` call begins without a `commandName:`."""
    for i, line in enumerate(lines):
        if line.strip().startswith("//") or "CommandConfiguration(" not in line:
            continue
        text, depth, j = "", 0, i
        while j < len(lines):
            text += lines[j] + "\n"
            depth += lines[j].count("(") - lines[j].count(")")
            if depth <= 0:
                break
            j += 1
        if "commandName:" not in text:
            yield i


def main(root):
    problems = []
    for path in sorted(pathlib.Path(root).rglob("*.swift")):
        lines = path.read_text(encoding="utf-8").splitlines()
        for i in unnamed_commands(lines):
            problems.append(f"{path}:{i + 1}: a CommandConfiguration without commandName: (ArgumentParser would search the binary's conformances for it at every start)")
        if len(lines) > MAX_FILE:
            problems.append(f"{path}: {len(lines)} lines (at most {MAX_FILE})")
        for start, end in functions(lines):
            length = end - start + 1
            excused = any("shape:" in line for line in comments_above(lines, start))
            if length > MAX_FUNCTION and not excused:
                problems.append(f"{path}:{start + 1}: a function of {length} lines (at most {MAX_FUNCTION}): {lines[start].strip()[:70]}")
    for problem in problems:
        print(problem)
    print(f"check-code-shape: {len(problems)} problem(s) in {root}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "Sources"))
