#!/usr/bin/env python3
"""The docs checked against the code: every claim a program can check (issue 43.9).

    python3 Tools/ci/check-docs.py BIN     BIN: where sextantd and sextantctl are (swift build's)

Reads README.md, docs/*.md and clients/python/README.md and checks, printing each failed
claim as FILE:LINE: what is wrong:
  commands  every `sextantctl …`/`sextantd …` line of a code block or code span is accepted
            by the real binary's parser (SEXTANT_PARSE_ONLY=1: parsed and validated, nothing
            run). A synopsis is tried with its [optional] parts left out and again put in
            (the first of each a|b), its placeholders (APP, LAT, <file>) given sample values.
  flags     every `--flag` sextantd(8) and sextantctl(1) name is an option of sextantd or
            sextantctl (their --experimental-dump-help trees).
  methods   every `a.b` span whose `a` is a method family of the protocol (ProtocolTable,
            as clients/python/src/sextant/_protocol.py renders it) is a method; every row of
            sextant-protocol(7)'s event tables is an event; every method and event of the
            table has its row in sextant-protocol(7).
  rules     every rule id cited (L12, AN3, Z7, ranges AN20–AN34) is defined (a line
            starting `**ID —` or a table row `| ID |` in docs/); every defined id is cited
            by a test (its name or a comment, under Tests/, clients/python/tests, examples/)
            unless RULES_WITHOUT_TEST says why not.
  tests     every `FooTests` named is a Swift type under Tests/; every `FooTests` `barBaz`
            (or `Tests/…/File.swift` `barBaz`) is a function there; every `test_x` is a
            Python test; every repository path named exists.
  python    every `Class.method(` and `#### \`name(` of the Python client's names exists.
Semantic claims (numbers, defaults, limits) were read by hand against the code: see
docs/testing.md, "What the docs are checked against".
"""
import glob
import json
import os
import re
import shlex
import subprocess
import sys

ROOT = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))
DOCS = ["README.md", "clients/python/README.md"] + sorted(
    os.path.relpath(p, ROOT) for p in glob.glob(os.path.join(ROOT, "docs", "*.md")))

# A rule defined but cited by no test, and why that is right.
RULES_WITHOUT_TEST = {
}

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


# ---- commands ----------------------------------------------------------------------------

PLACEHOLDERS = {
    "APP": "com.example.maps", "APP_ID": "com.example.maps", "ID": "1", "CHOICE": "allowOnce",
    "MODE": "ask", "STATUS": "denied", "LAT": "38.7", "LON": "-9.1", "LATLON": "38.7,-9.1",
    "PATH": "walk.jsonl", "FILE": "walk.jsonl", "TRACE": "walk.jsonl", "IN": "walk.jsonl",
    "OUT": "out.jsonl", "DIR": "/tmp", "RUNTIME-DIR": "/tmp", "N": "2", "S": "1", "SPEC": "urban",
    "DEGREES": "45", "DEG": "45", "ANGLE": "45", "LUX": "100", "HPA": "1013", "X": "1", "Y": "1",
    "Z": "1", "LIST": "coarse", "ZONE": "Europe/Lisbon", "SECONDS": "10", "TIME": "2026-03-01T08:00:00Z",
    "ORIENTATION": "portrait", "PRESET": "urban", "SPEED": "2", "COMMAND": "true", "ARGS": "",
    "ARGS...": "", "ORIGIN": "38.7,-9.1", "DESTINATION": "38.8,-9.2", "WAYPOINT": "38.75,-9.15",
    "HOST:PORT": "127.0.0.1:2947", "ADDRESS": "127.0.0.1:2947", "NAME": "x", "KIND": "authorization",
    "URL": "http://127.0.0.1:9222", "ACTIVITY": "walking", "CHOICES": "allowOnce", "UID": "1000",
    "GROUP": "sextant", "A": "5", "OPTIONS": "", "LAT,LON": "38.7,-9.1", "LAT,LON,ALT": "38.7,-9.1,10", "LEVEL": "info", "PORT": "8080", "FD": "3", "PROFILE": "phone",
}
SHELL_STOPS = {"|", "||", "&&", ";", "&", ">", ">>", "2>", "<", ")", "(", "2>&1", "&>"}
PROGRAM = re.compile(r"(?<![\w-])(?:[\w./$-]*/)?(sextantctl|sextantd)(?=\s|$)")
LEADERS = ("sudo", "exec", "nohup", "time", "env", "--")


def starts_a_command(before):
    """Whether a program named after `before` is a command's start: the line's start, after
    an operator, an environment assignment or sudo/exec (not `journalctl -u sextantd`)."""
    before = before.rstrip()
    if before == "" or before.endswith((";", "&", "|", "(", "$", "`")):
        return True
    last = before.split()[-1]
    return last in LEADERS or bool(re.fullmatch(r"[A-Z_][A-Z0-9_]*=\S*", last)) and starts_a_command(before[: -len(last)])


ALTERNATIVES = re.compile(r"\[([^\[\]]*)\]")


def command_texts(text):
    """(program, the rest of the line) of each sextantctl/sextantd command a line shows."""
    text = text.replace("\\|", "|")
    return [(m.group(1), text[m.end():]) for m in PROGRAM.finditer(text) if starts_a_command(text[:m.start()])]


def resolved(rest, keep_optional):
    """A synopsis as one command line: [optional] parts left out, or kept with the first of
    each a | b; each placeholder (APP, LAT, <file>) given a sample value."""
    def choose(match):
        return match.group(1).split(" | ")[0] if keep_optional else ""
    for _ in range(3):
        rest = ALTERNATIVES.sub(choose, rest)
    rest = rest.replace("\\", " ")
    try:
        lexer = shlex.shlex(rest, posix=True, punctuation_chars="|&;<>()")
        lexer.whitespace_split = True
        words = list(lexer)
    except ValueError:
        words = rest.split()
    cut = next((i for i, w in enumerate(words) if w in SHELL_STOPS), len(words))
    out = []
    for word in words[:cut]:
        if word in ("…", "...", "[", "]"):
            continue
        if "|" in word:
            word = word.split("|")[0]
        if word.startswith("$"):
            word = "x"
        if word.startswith("--") and "=" in word:
            flag, value = word.split("=", 1)
            word = flag + "=" + (PLACEHOLDERS.get(value, "x") if is_placeholder(value) else value)
        elif not word.startswith("-") and is_placeholder(word):
            name = word.rstrip(".…").strip("<>").upper()
            if name == "COMMAND":
                value = "true" if "--" in out else "status"
            else:
                value = PLACEHOLDERS.get(name, "x")
            out.extend(value.split())
            continue
        out.append(word.rstrip("…"))
    return out


def is_placeholder(word):
    bare = word.rstrip(".…")
    return bool(re.fullmatch(r"<[^>]+>|[A-Z][A-Z0-9_,:-]*|\[?[A-Z]+:\]?[A-Z]+", bare))


def parse_result(binary, words):
    env = dict(os.environ, SEXTANT_PARSE_ONLY="1")
    result = subprocess.run([binary] + words, env=env, capture_output=True, text=True, timeout=30, cwd=ROOT)
    return result.returncode, (result.stderr.strip() or result.stdout.strip()).split("\n")[0]


# A code span may name a command or an option without its arguments (`sextantctl trace info`,
# `sextantd --replay`): the parser may miss an argument there, never find a wrong one.
NAMING_ONLY = ("Missing expected argument", "Missing value for", "give the command to run after --")


def check_commands(bin_dir, docs):
    checked = {}
    for path in docs:
        for number, text, is_block in code_lines(path):
            for program, rest in command_texts(text):
                for form in sorted({tuple(resolved(rest, False)), tuple(resolved(rest, True))}):
                    key = (program, form)
                    if key not in checked:
                        checked[key] = parse_result(os.path.join(bin_dir, program), list(form))
                    status, message = checked[key]
                    if status != 0 and (is_block or not message.startswith(NAMING_ONLY)):
                        fail(f"{path}:{number}", f"`{program}{rest}` is refused by {program}'s parser"
                             f" (tried as `{program} {' '.join(form)}`): {message}")
    return len(checked)


def option_names(tree):
    names = set()
    for argument in tree.get("arguments", []):
        names.update("--" + n["name"] for n in argument.get("names", []) if n["kind"] == "long")
    for sub in tree.get("subcommands", []):
        names |= option_names(sub)
    return names


# Options of other programs the two pages name, and whose.
FOREIGN_FLAGS = {
    "--now": "systemctl enable --now",
    "--fdname": "systemd-socket-activate",
    "--remote-debugging-port": "Chromium", "--remote-debugging-pipe": "Chromium",
    "--enable-blink-features": "Chromium", "--enable-features": "Chromium",
}


def command_paths(tree, prefix=()):
    """Every shown subcommand's path (`trace info`), with its own long options."""
    for sub in tree.get("subcommands", []):
        if sub.get("shouldDisplay", True) and sub["commandName"] != "help":
            path = prefix + (sub["commandName"],)
            # The dump names some defaults (time's show) and not others (time zone's show).
            default = path[-1] == tree.get("defaultSubcommand") or path[-1] == "show"
            names = [["-" * (1 if n["kind"] == "short" else 2) + n["name"] for n in a.get("names", [])]
                     for a in sub.get("arguments", []) if a.get("shouldDisplay", True) and a.get("names")]
            yield (path[:-1] if default else path), names
            yield from command_paths(sub, path)


def check_pages_cover(trees):
    """The other way: each sextantctl command and its options in sextantctl(1), each sextantd
    option in sextantd(8)."""
    count = 0
    page = read("docs/sextantctl.1.md")
    spans = re.findall(r"`([^`]+)`", page)
    for path, options in command_paths(trees["sextantctl"]):
        count += 1
        words = " ".join(path)
        if not path:
            continue
        if not any(re.match(re.escape(words) + r"\b", span) or re.match(r"sextantctl " + re.escape(words) + r"\b", span) for span in spans):
            fail("docs/sextantctl.1.md", f"`sextantctl {words}` is not described (no code span starting with it)")
        for names in options:
            if set(names) & {"--runtime-dir", "--json", "--help", "--version"}:
                continue
            count += 1
            if not any(re.search(re.escape(name) + r"(?![\w-])", page) for name in names):
                fail("docs/sextantctl.1.md", f"`sextantctl {words} {names[0]}` is not described")
    # The panel's options: docs/panel.md's table, both ways.
    rows = {re.match(r"--[\w-]+", names[0]).group(0) for _, names in table_rows("docs/panel.md", "option") if names}
    for option in sorted(option_names(trees["sextant-panel"]) - {"--runtime-dir", "--help", "--version"}):
        count += 1
        if option not in rows:
            fail("docs/panel.md", f"sextant-panel's {option} has no row in the option table")
    for option in sorted(rows - option_names(trees["sextant-panel"])):
        fail("docs/panel.md", f"{option} in the option table is no option of sextant-panel")
    page = read("docs/sextantd.8.md")
    for option in sorted(option_names(trees["sextantd"])):
        count += 1
        if option not in page:
            fail("docs/sextantd.8.md", f"sextantd's {option} is not described")
    return count


def check_other_programs(trees):
    """sextant-panel and sextant-browser lines (no parse-only mode): each option exists."""
    count = 0
    for path in DOCS_FOUND:
        for number, text, _ in code_lines(path):
            for match in re.finditer(r"(?<![\w-])(sextant-panel|sextant-browser)(?=\s)(.*)", text):
                if not starts_a_command(text[:match.start()]):
                    continue
                known = option_names(trees[match.group(1)]) | {"--help", "--version"}
                for flag in re.findall(r"(?<![\w-])--[a-z][\w-]*", match.group(2).split(" -- ")[0]):
                    count += 1
                    if flag not in known:
                        fail(f"{path}:{number}", f"{flag} is no option of {match.group(1)}")
    return count


def check_flags(bin_dir):
    known = {"--help", "--version", "--generate-completion-script", "--experimental-dump-help"}
    trees = {}
    # `sextantctl panel` and `sextantctl browser` pass their options to these two.
    for program in ("sextantd", "sextantctl", "sextant-panel", "sextant-browser"):
        dump = subprocess.run([os.path.join(bin_dir, program), "--experimental-dump-help"],
                              capture_output=True, text=True, check=True).stdout
        trees[program] = json.loads(dump)["command"]
        known |= option_names(trees[program])
    count = check_pages_cover(trees)
    count += check_other_programs(trees)
    for path in ("docs/sextantd.8.md", "docs/sextantctl.1.md"):
        for number, line in enumerate(read(path).split("\n"), 1):
            for flag in re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", line):
                count += 1
                if flag not in known and flag not in FOREIGN_FLAGS:
                    fail(f"{path}:{number}", f"{flag} is no option of sextantd, sextantctl, sextant-panel or sextant-browser")
    return count


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


def files_under(*roots, exts=(".swift", ".py")):
    for root in roots:
        for directory, _, names in os.walk(os.path.join(ROOT, root)):
            for name in names:
                if name.endswith(exts):
                    yield os.path.join(directory, name)


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
            pairs = [p for p in re.findall(r"`(\w+Tests)(?:`\s*`|\.)([a-z]\w*)`", line) if p[1] != "swift"]
            pairs += [(f, n) for f, n in re.findall(r"`(Tests/[\w/]+\.swift)`\s*`([a-z]\w*)`", line)]
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


# ---- the Python client's names -----------------------------------------------------------

# `sextant.conf`, `sextant.sqlite3`: files, not the Python package's names.
NOT_PYTHON = {"conf", "sqlite3", "sysusers", "dev", "service", "socket", "json", "toml", "target"}


# The names the docs' Python examples give the client's objects (the pytest fixtures').
RECEIVERS = {"control": "Control", "sextant_control": "Control", "app": "App", "daemon": "Daemon",
             "sextant_daemon": "Daemon", "watch": "Watch"}


def python_names(sextant):
    """Every name the package and its modules define (the API reference lists module functions)."""
    import importlib
    import pkgutil
    names = set(dir(sextant))
    for module in pkgutil.iter_modules(sextant.__path__):
        names |= set(dir(importlib.import_module("sextant." + module.name)))
    return names


def swift_declarations():
    text = ""
    for path in files_under("Sources/SextantClient", "Sources/SextantProtocol", exts=(".swift",)):
        with open(path, encoding="utf-8") as f:
            text += f.read()
    return (set(re.findall(r"static let (\w+)", text)), set(re.findall(r"\bfunc (\w+)", text)),
            set(re.findall(r"\b(?:struct|enum|class) (\w+)", text)))


def check_swift_line(where, line):
    """A Swift example's names: `Method.x`/`Event.x`, `.call(`, `Type(` of SextantClient/Protocol."""
    if not hasattr(check_swift_line, "known"):
        check_swift_line.known = swift_declarations()
    constants, functions, types = check_swift_line.known
    count = 0
    for owner, name in re.findall(r"\b(Method|Event)\.(\w+)", line):
        count += 1
        if name not in constants:
            fail(where, f"SextantProtocol has no `{owner}.{name}`")
    for name in re.findall(r"\.([a-z]\w*)\(", line):
        count += 1
        if name not in functions:
            fail(where, f"SextantClient and SextantProtocol have no function `{name}`")
    for name in re.findall(r"(?<![\w.])([A-Z]\w*)\(", line):
        count += 1
        if name not in types:
            fail(where, f"SextantClient and SextantProtocol have no type `{name}`")
    return count


def check_python(docs):
    sys.path.insert(0, os.path.join(ROOT, "clients", "python", "src"))
    import sextant
    public = {name: getattr(sextant, name) for name in dir(sextant) if not name.startswith("_")}
    everything = python_names(sextant)
    count = 0
    for path in docs:
        for number, span, block in code_lines(path):
            if block == "swift":
                count += check_swift_line(f"{path}:{number}", span)
                continue
            for owner, member in re.findall(r"(?<![\w.])([A-Za-z_]\w*)\.(\w+)\(", span):
                owner = RECEIVERS.get(owner, owner)
                if owner in public and isinstance(public[owner], type):
                    count += 1
                    if not hasattr(public[owner], member):
                        fail(f"{path}:{number}", f"the Python client's {owner} has no `{member}`")
            for member in re.findall(r"(?<![\w./-])sextant\.([A-Za-z_]\w*)(?![\w.-])", span):
                if member in NOT_PYTHON:
                    continue
                count += 1
                if member not in everything and not os.path.exists(os.path.join(ROOT, "clients/python/src/sextant", member + ".py")):
                    fail(f"{path}:{number}", f"the Python client has no `sextant.{member}`")
        for number, line in enumerate(read(path).split("\n"), 1):
            match = re.match(r"#### `(\w+)\(", line)
            if match:
                count += 1
                if match.group(1) not in everything:
                    fail(f"{path}:{number}", f"the Python client exports no `{match.group(1)}`")
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


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: check-docs.py BIN (where sextantd and sextantctl are)")
    bin_dir = os.path.abspath(sys.argv[1])
    docs = DOCS_FOUND
    counts = {
        "command lines": check_commands(bin_dir, docs),
        "flags": check_flags(bin_dir),
        "methods and events": check_methods(docs),
        "rule ids": check_rules(docs),
        "tests and paths": check_tests_and_paths(docs),
        "sections named": check_sections(docs),
        "client names (Python, Swift)": check_python(docs),
    }
    summary = ", ".join(f"{n} {kind}" for kind, n in counts.items())
    for failure in failures:
        print(failure, file=sys.stderr)
    if failures:
        print(f"check-docs: {len(failures)} claim(s) of {len(docs)} docs are wrong ({summary} checked)", file=sys.stderr)
        sys.exit(1)
    print(f"check-docs: {len(docs)} docs, {summary} checked, none wrong")


if __name__ == "__main__":
    main()
