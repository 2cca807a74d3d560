#!/usr/bin/env bash
# Installs the web test framework from PyPI that the Chromium bridge is tested with
# (docs/compatibility.md), pinned, in a virtual environment of its own under .build. Only
# the Python package: no browser is downloaded (`playwright install` is never run), the
# tests give it Debian's Chromium. Safe to run again. ChromiumContextTests' Playwright test
# skips when this has not run.
#   playwright 1.65.2: browser.new_context() over chromium.connect_over_cdp.
set -euo pipefail
cd "$(dirname "$0")/../.."

venv=.build/pypi-web-clients
if "$venv/bin/python" -c 'import playwright' 2>/dev/null; then
    echo "setup: Playwright is installed ($venv)"
    exit 0
fi
python3 -m venv --clear "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check playwright==1.65.2
echo "setup: installed playwright 1.65.2 from PyPI in $venv"
