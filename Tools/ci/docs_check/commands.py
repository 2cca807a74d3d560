"""Command lines through the real parsers; options both ways (sextantd(8), sextantctl(1), panel.md)."""
import json
import os
import re
import shlex
import subprocess

from .common import DOCS_FOUND, code_lines, fail, read, table_rows, ROOT
from .values import value_problem

# A synopsis's placeholders and the sample value each is tried with (any other: "x").
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
    "GROUP": "sextant", "A": "5", "OPTIONS": "", "LAT,LON": "38.7,-9.1", "LAT,LON,ALT": "38.7,-9.1,10",
    "LEVEL": "info", "PORT": "8080", "FD": "3", "PROFILE": "phone",
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
                        if checked[key][0] == 0 and program == "sextantctl":
                            problem = value_problem(bin_dir, list(form))
                            checked[key] = (1, f"the daemon would refuse it: {problem}") if problem else checked[key]
                    status, message = checked[key]
                    if status != 0 and (is_block or not message.startswith(NAMING_ONLY)):
                        fail(f"{path}:{number}", f"`{program}{rest}` is refused by {program}"
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
