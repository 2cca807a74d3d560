#!/usr/bin/env bash
# Makes the venv the time-zone table's generator runs in: tzfpy, pinned (its data version
# decides the table's contents). Usage: Tools/dev/tz/setup-venv.sh [venv dir, .build/tz-venv]
set -euo pipefail
venv="${1:-.build/tz-venv}"
[ -x "$venv/bin/python" ] || python3 -m venv "$venv"
"$venv/bin/pip" install --quiet "tzfpy==2.1.1"
echo "$venv/bin/python"
