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
  kinds     every sample kind of sextant-trace(5)'s table is one the trace readers know
            (SensorKinds, RecordKinds, location, gps), and each of those has its row.
  values    what sextantctl passes on unchecked (a status, a prompt choice, a GNSS profile,
            a zone) is what the daemon accepts.
  rules     every rule id cited (L12, AN3, Z7, ranges AN20–AN34) is defined (a line
            starting `**ID —` or a table row `| ID |` in docs/); every defined id is cited
            by a test (its name or a comment, under Tests/, clients/python/tests, examples/)
            unless RULES_WITHOUT_TEST says why not.
  tests     every `FooTests` named is a Swift type or file under Tests/; every `FooTests`
            `barBaz` (or `Tests/…/File.swift` `barBaz`) is a function there, every
            `FooTests` "title" a test's title; every `test_x` is a Python test; every
            repository path named exists.
            The other way: every sextantctl command and option is in sextantctl(1), every
            sextantd option in sextantd(8), every sextant-panel option in panel.md's table.
  sections  every section named (`sextant-trace(5) FILES`, `docs/security.md, "…"`) exists.
  clients   every `Class.method(` (or `control.x(`, `app.x(`…) and `#### \`name(` of the
            Python client, and every name of a ```swift example, exists.
  swift     every Swift type, member and file architecture.md and dbus-core.md name exists
            under Sources/ or Tests/ (or is a package's or D-Bus's, listed).
The checks are in Tools/ci/docs_check/ (commands.py, claims.py, clients.py).
Semantic claims (numbers, defaults, limits) were read by hand against the code: see
docs/testing.md, "What the docs are checked against".
"""

import os
import sys

sys.dont_write_bytecode = True  # no __pycache__ left in the checkout
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from docs_check.common import DOCS_FOUND, failures  # noqa: E402
from docs_check.commands import check_commands, check_flags  # noqa: E402
from docs_check.claims import check_methods, check_rules, check_sample_kinds, check_sections, check_tests_and_paths  # noqa: E402
from docs_check.clients import check_developer_docs, check_python  # noqa: E402
from docs_check.claims import protocol_table  # noqa: E402


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: check-docs.py BIN (where sextantd and sextantctl are)")
    bin_dir = os.path.abspath(sys.argv[1])
    docs = DOCS_FOUND
    counts = {
        "command lines": check_commands(bin_dir, docs),
        "flags": check_flags(bin_dir),
        "methods and events": check_methods(docs),
        "trace sample kinds": check_sample_kinds(),
        "rule ids": check_rules(docs),
        "tests and paths": check_tests_and_paths(docs),
        "sections named": check_sections(docs),
        "client names (Python, Swift)": check_python(docs),
        "Swift names (architecture, dbus-core)": check_developer_docs(set().union(*protocol_table())),
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
