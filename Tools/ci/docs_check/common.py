"""What the docs checks share: the repository, the docs, the failures, the docs' code."""
import glob
import os
import re

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", ".."))
DOCS = ["README.md", "clients/python/README.md"] + sorted(
    os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "docs", "*.md")))

DOCS_FOUND = [d for d in DOCS if os.path.exists(os.path.join(ROOT, d))]
failures = []


def fail(where, message):
    failures.append(f"{where}: {message}")


def read(path):
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return f.read()


# ---- the docs' code: blocks and spans, each with its line --------------------------------

def code_lines(path):
    """(line number, text, block) of every code block line and code span of a doc, block being
    the block's language ("text" when it names none) or False for a span. A block
    that shows a session (`$ ` lines) gives only its commands, not their output."""
    out, block = [], []
    lines = read(path).split("\n")

    def flush():
        prompted = any(text.startswith("$ ") for _, text in block)
        for number, text in block:
            if prompted and not text.startswith("$ "):
                continue
            if language != "swift":
                text = re.sub(r"(^|\s)#\s.*$", "", text[2:] if prompted else text)
            out.append((number, text.strip(), language or "text"))
        block.clear()

    fenced, language = False, ""
    for number, line in enumerate(lines, 1):
        indented = line.startswith("    ") and not line.lstrip().startswith(("-", "*", "|")) and (
            block or number == 1 or lines[number - 2].strip() == "")
        if line.lstrip().startswith("```"):
            flush()
            fenced = not fenced
            language = line.strip()[3:].strip() if fenced else ""
        elif fenced or indented:
            block.append((number, line.strip()))
        else:
            flush()
            for span in re.findall(r"`([^`]+)`", line.replace("``", "")):
                out.append((number, span, False))
    flush()
    return out


def table_rows(path, heading_word):
    """(line, first-column names) of each row of the tables whose header's first cell is heading_word."""
    rows, inside = [], False
    for number, line in enumerate(read(path).split("\n"), 1):
        if line.startswith("| " + heading_word + " |"):
            inside = True
            continue
        if inside and line.startswith("|"):
            first = line.split("|")[1]
            if not first.strip().startswith("---"):
                rows.append((number, re.findall(r"`([^`]+)`", first)))
        elif inside:
            inside = False
    return rows


def files_under(*roots, exts=(".swift", ".py")):
    for root in roots:
        for directory, _, names in os.walk(os.path.join(ROOT, root)):
            for name in names:
                if name.endswith(exts):
                    yield os.path.join(directory, name)
