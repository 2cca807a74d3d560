"""Protocol names, rule ids, tests, paths and sections the docs name."""
import glob
import os
import re

from .common import ROOT, code_lines, fail, files_under, read, table_rows

# ---- methods and events ------------------------------------------------------------------

def protocol_table():
    text = read("clients/python/src/sextant/_protocol.py")
    methods = set(re.findall(r'^METHOD_\w+ = "([^"]+)"', text, re.M))
    events = set(re.findall(r'^EVENT_\w+ = "([^"]+)"', text, re.M))
    return methods, events


NOT_METHODS = re.compile(r"\.(sock|sh|py|md|json|jsonl|gpx|nmea|txt|swift|html|js|css|png|service|socket|log|sxtz|deb|conf|xml|toml|ndjson)$")


# Spans of a method's shape that name a member, a file or a D-Bus name, and what they are.
MEMBERS = {
    "heading.magnetic": "a member of status's heading (dbus.md)",
    "location.vAcc": "a member of a location sample (sextant-trace(5))",
    "timeZone.table": "a member of status's timeZone (timezone.md)",
    "permissions.default.geo": "a GeoClue permission-store key (dbus.md)",
}


def check_methods(docs):
    methods, events = protocol_table()
    families = {m.split(".")[0] for m in methods if "." in m}

    count = 0
    for path in docs:
        for number, span, _ in code_lines(path):
            for name in re.findall(r"(?<![\w./-])([a-z][A-Za-z]*(?:\.[a-z][A-Za-z]*)+)(?![\w/(-])", span):
                if name.split(".")[0] in families and name not in MEMBERS and not NOT_METHODS.search(name):
                    count += 1
                    if name not in methods:
                        fail(f"{path}:{number}", f"`{name}` is no method of the protocol (ProtocolTable.methods)")
            for name in re.findall(r'"method"\s*:\s*"([^"]+)"', span):
                count += 1
                if name not in methods | events | {"...", "…"} and not name.startswith(("Target.", "Page.", "Runtime.", "Emulation.", "Browser.")):
                    fail(f"{path}:{number}", f'"method":"{name}" is no method or event of the protocol')
    protocol = "docs/sextant-protocol.7.md"
    documented_methods = {n for _, names in table_rows(protocol, "method") for n in names}
    documented_events = set()
    for number, names in table_rows(protocol, "event"):
        for name in names:
            count += 1
            documented_events.add(name)
            if name not in events:
                fail(f"{protocol}:{number}", f"`{name}` in an event table is no event of the protocol (ProtocolTable.events)")
    for name in sorted(methods - documented_methods):
        fail(protocol, f"method `{name}` of ProtocolTable.methods has no row in the method tables")
    for name in sorted(events - documented_events):
        fail(protocol, f"event `{name}` of ProtocolTable.events has no row in the event tables")
    for name in sorted(documented_methods - methods):
        fail(protocol, f"`{name}` in a method table is no method of the protocol")
    return count + len(methods) + len(events)


# ---- rule ids ----------------------------------------------------------------------------

RULE = r"(?:AN|PF|[LOPHNZADICSVRMEBTG])\d{1,2}[a-z]?"
DEFINITION = re.compile(r"^(?:\*\*(" + RULE + r") —|\| (" + RULE + r") \|)")
RANGE = re.compile(r"\b(AN|PF|[LOPHNZADICSVRMEBTG])(\d{1,2})[–-](?:\1)?(\d{1,2})\b")
CITED = re.compile(r"(?<![\w.-])(" + RULE + r")(?![\w.-]\w)")


# Words of the rules' shape that are no rule.
NOT_RULES = {"C0": "the C0 control characters (security.md)", "N0": "C/N0, a signal-to-noise density"}


def cited_ids(text):
    ids = set()
    for family, low, high in RANGE.findall(text):
        ids |= {f"{family}{n}" for n in range(int(low), int(high) + 1)}
    ids |= set(CITED.findall(RANGE.sub(" ", text)))
    return ids - NOT_RULES.keys()


# A rule defined but cited by no test, and why that is right.
RULES_WITHOUT_TEST = {
}


def check_rules(docs):
    defined = {}
    for path in docs:
        for number, line in enumerate(read(path).split("\n"), 1):
            match = DEFINITION.match(line)
            if match:
                defined[match.group(1) or match.group(2)] = f"{path}:{number}"
    families = {re.match(r"[A-Z]+", rule).group(0) for rule in defined}
    count = 0
    for path in docs:
        for number, line in enumerate(read(path).split("\n"), 1):
            if "rule id" in line.lower():
                continue
            for rule in sorted(cited_ids(line)):
                if re.match(r"[A-Z]+", rule).group(0) not in families:
                    continue
                count += 1
                if rule not in defined:
                    fail(f"{path}:{number}", f"rule {rule} is cited but defined nowhere in docs/")
    tested = set()
    for path in files_under("Tests", "clients/python/tests", "examples"):
        with open(path, encoding="utf-8") as f:
            tested |= cited_ids(f.read())
    for rule, where in sorted(defined.items()):
        if rule not in tested and rule not in RULES_WITHOUT_TEST:
            fail(where, f"rule {rule} is cited by no test (name or comment under Tests/, clients/python/tests, examples/)")
    return count + len(defined)


# ---- tests and paths ---------------------------------------------------------------------

def swift_tests():
    """{type name: [files]} and {file: {function names}} of the Swift tests."""
    types, functions = {}, {}
    for path in files_under("Tests", exts=(".swift",)):
        with open(path, encoding="utf-8") as f:
            text = f.read()
        relative = os.path.relpath(path, ROOT)
        functions[relative] = set(re.findall(r"\bfunc\s+(\w+)", text))
        for name in set(re.findall(r"\b(?:struct|class|enum|extension|actor)\s+(\w+)", text)):
            types.setdefault(name, []).append(relative)
    return types, functions


def test_titles(path):
    """The @Test titles of a Swift test file, joined (a title a doc quotes is a part of one)."""
    with open(os.path.join(ROOT, path), encoding="utf-8") as f:
        return "\n".join(re.findall(r'@Test\("((?:[^"\\]|\\.)*)"', f.read()))


def python_tests():
    names = set()
    for path in files_under("clients/python/tests", "examples", exts=(".py",)):
        with open(path, encoding="utf-8") as f:
            names |= set(re.findall(r"^\s*def (test_\w+)", f.read(), re.M))
    return names


PATH_ROOTS = ["Traces", "examples", "docs", "Tools", "clients", "Sources", "Tests", "Benchmarks", "Fuzz", "deploy", "web"]
PATH = re.compile(r"(?<![A-Za-z0-9_./~-])(?:" + "|".join(PATH_ROOTS) + r")/[A-Za-z0-9_./@*+-]*[A-Za-z0-9_/*-]")
# Paths the docs name that a checkout does not hold, and why.
PATHS_NOT_IN_A_CHECKOUT = {
}


def check_tests_and_paths(docs):
    types, functions = swift_tests()
    python = python_tests()
    count = 0
    for path in docs:
        for number, line in enumerate(read(path).split("\n"), 1):
            where = f"{path}:{number}"
            for name in re.findall(r"`(\w+Tests)\b", line):
                count += 1
                if name not in types and not glob.glob(os.path.join(ROOT, "Tests", "*", name + ".swift")):
                    fail(where, f"test suite `{name}` exists nowhere under Tests/")
            # `Suite` `a`, `b` and `c`; `Suite.a`; `Tests/…/File.swift` `a`.
            pairs = [(suite, name) for suite, names in re.findall(r"`(\w+Tests|Tests/[\w/]+\.swift)`((?:(?:,| and)?\s*`[a-z]\w*`)+)", line)
                     for name in re.findall(r"`([a-z]\w*)`", names)]
            pairs += [p for p in re.findall(r"`(\w+Tests)\.([a-z]\w*)`", line) if p[1] != "swift"]
            for suite, function in pairs:
                count += 1
                files = [suite] if suite.endswith(".swift") else types.get(suite, []) + [
                    os.path.relpath(f, ROOT) for f in glob.glob(os.path.join(ROOT, "Tests", "*", suite + ".swift"))]
                if not any(function in functions.get(f, ()) for f in files):
                    fail(where, f"`{suite}` has no test function `{function}`")
            for suite, title in re.findall(r"`(\w+Tests)`,? \"([^\"]+)\"", line):
                count += 1
                files = types.get(suite, []) + [os.path.relpath(f, ROOT) for f in glob.glob(os.path.join(ROOT, "Tests", "*", suite + ".swift"))]
                if not any(title.rstrip(" …") in test_titles(f) for f in files):
                    fail(where, f"`{suite}` has no test titled \"{title}\"")
            for name in re.findall(r"`(test_\w+)", line):
                count += 1
                if name not in python and not glob.glob(os.path.join(ROOT, "**", name + ".py"), recursive=True):
                    fail(where, f"Python test `{name}` exists nowhere under clients/python/tests or examples/")
            for named in PATH.findall(line):
                count += 1
                named = named.rstrip(".")
                if named not in PATHS_NOT_IN_A_CHECKOUT and not glob.glob(os.path.join(ROOT, named)):
                    fail(where, f"path {named} does not exist in the repository")
    return count


# ---- sections named: sextant-trace(5) CONTROL LINES, docs/security.md, "Paths a client names"

PAGES = {"sextantd(8)": "docs/sextantd.8.md", "sextantctl(1)": "docs/sextantctl.1.md",
         "sextant-protocol(7)": "docs/sextant-protocol.7.md", "sextant-rules(7)": "docs/sextant-rules.7.md",
         "sextant-trace(5)": "docs/sextant-trace.5.md", "sextant-gpsd(7)": "docs/gpsd.md"}
SECTION = re.compile(r"(sextant[a-z-]*\(\d\)|docs/[\w.-]+\.md),? (?:\"([^\"]+)\"|([A-Z]{2,}(?: [A-Z]{2,})*)\b)")


def check_sections(docs):
    count = 0
    for path in docs:
        for number, line in enumerate(read(path).split("\n"), 1):
            for page, quoted, capitals in SECTION.findall(line):
                target = PAGES.get(page, page)
                name = quoted or capitals
                if not os.path.exists(os.path.join(ROOT, target)) or (capitals and re.fullmatch(RULE, capitals)):
                    continue
                count += 1
                text = read(target)
                # A heading, or a paragraph's bold lead (gpsd.md's **Slow clients.**).
                headings = [h.lower() for h in re.findall(r"^#+ (.*)$", text, re.M) + re.findall(r"^\*\*([^*]+)\*\*", text, re.M)]
                if not any(h.startswith(name.lower()) for h in headings):
                    fail(f"{path}:{number}", f"{page} has no section \"{name}\"")
    return count


# ---- trace sample kinds: sextant-trace(5)'s table against the kinds the readers know ----

# The kinds the sample reader knows of itself, not from a kind table (Samples.swift).
READER_KINDS = {"location", "gps"}


def check_sample_kinds():
    text = ""
    for path in files_under("Sources/SextantCore", exts=(".swift",)):
        with open(path, encoding="utf-8") as f:
            text += f.read()
    known = set(re.findall(r'name: "(\w+)", noun:', text)) | set(re.findall(r'RecordKind\(name: "(\w+)"', text)) | READER_KINDS
    page = "docs/sextant-trace.5.md"
    listed = {}
    for number, names in table_rows(page, "sample"):
        for name in names[:1]:
            listed[name] = number
    for name, number in sorted(listed.items()):
        if name not in known:
            fail(f"{page}:{number}", f"sample kind `{name}` is no kind the trace readers know")
    for name in sorted(known - listed.keys()):
        fail(page, f"sample kind `{name}` (SensorKinds/RecordKinds) has no row in the sample table")
    return len(known | listed.keys())
