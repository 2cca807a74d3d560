"""The client libraries' names the docs' examples use: Python's and Swift's."""
import os
import re
import sys

from .common import ROOT, code_lines, fail, files_under, read

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
        try:
            names |= set(dir(importlib.import_module("sextant." + module.name)))
        except ImportError:  # pytest_plugin without pytest: its fixtures are no API the docs call
            continue
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


def check_keywords(where, name, function, arguments):
    """Each `keyword=` a doc passes to `function` is one of its parameters."""
    import inspect
    try:
        parameters = inspect.signature(function).parameters
    except (TypeError, ValueError):
        return 0
    if any(p.kind == p.VAR_KEYWORD for p in parameters.values()):
        return 0
    count = 0
    for keyword in re.findall(r"(?<![\w=])([a-z_]\w*)=(?!=)", arguments):
        count += 1
        if keyword not in parameters:
            fail(where, f"the Python client's {name} takes no `{keyword}=` (it takes {', '.join(parameters)})")
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
            for owner, member, arguments in re.findall(r"(?<![\w.])([A-Za-z_]\w*)\.(\w+)\(([^()]*)", span):
                owner = RECEIVERS.get(owner, owner)
                if owner in public and isinstance(public[owner], type):
                    count += 1
                    if not hasattr(public[owner], member):
                        fail(f"{path}:{number}", f"the Python client's {owner} has no `{member}`")
                    else:
                        count += check_keywords(f"{path}:{number}", f"{owner}.{member}", getattr(public[owner], member), arguments)
            # The marker's keywords are Daemon's (the plugin calls Daemon(**marker.kwargs)).
            for arguments in re.findall(r"pytest\.mark\.sextant\(([^()]*)", span):
                count += check_keywords(f"{path}:{number}", "sextant marker (Daemon)", public["Daemon"], arguments)
            for owner, arguments in re.findall(r"(?<![\w.])([A-Z]\w*)\(([^()]*)", span):
                if owner in public and isinstance(public[owner], type) and block is False:
                    count += check_keywords(f"{path}:{number}", owner, public[owner], arguments)
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


# ---- the developer docs' Swift names ------------------------------------------------------

DEVELOPER_DOCS = ("docs/architecture.md", "docs/dbus-core.md")
# Names of SwiftPM, of the packages Sextant uses and of D-Bus, which Sources/ does not declare.
LIBRARY_NAMES = {"systemLibrary", "Mutex", "Atomic", "Synchronization", "NIOLoopBoundBox", "NIOAsyncTestingEventLoop", "Service",
                 "ServiceGroup", "NameOwnerChanged", "InvalidArgs", "Peer", "Failed", "Package.swift"}


def swift_names():
    declared, members, files = set(), set(), set()
    for path in files_under("Sources", "Tests", exts=(".swift",)):
        files.add(os.path.basename(path))
        with open(path, encoding="utf-8") as f:
            text = f.read()
        declared |= set(re.findall(r"\b(?:struct|class|enum|protocol|actor|typealias|extension)\s+(\w+)", text))
        members |= set(re.findall(r"\b(?:func|var|let|case)\s+(\w+)", text))
    modules = {d for d in os.listdir(os.path.join(ROOT, "Sources"))} | set(re.findall(r'name: "(\w+)"', read("Package.swift")))
    return declared | modules | LIBRARY_NAMES, members, files


def check_developer_docs(events_and_methods):
    declared, members, files = swift_names()
    count = 0
    for path in DEVELOPER_DOCS:
        for number, span, _ in code_lines(path):
            where = f"{path}:{number}"
            if re.fullmatch(r"[\w+-]+\.swift", span):
                count += 1
                if span not in files and span not in LIBRARY_NAMES:
                    fail(where, f"no file {span} under Sources/ or Tests/")
                continue
            typed = re.fullmatch(r"([A-Z]\w+)((?:\.\w+)*)(?:\(.*\))?", span)
            if typed:
                count += 1
                parts = [p for p in typed.group(2).split(".") if p]
                if typed.group(1) not in declared or any(p not in members | declared for p in parts):
                    fail(where, f"`{span}`: no such Swift type or member in Sources/ or Tests/")
            elif re.fullmatch(r"[a-z]+[A-Z]\w*(?:\(.*\))?", span):
                count += 1
                if span.split("(")[0] not in members | events_and_methods | LIBRARY_NAMES:
                    fail(where, f"`{span}`: no such Swift member in Sources/ or Tests/ (nor a method or event)")
    return count
