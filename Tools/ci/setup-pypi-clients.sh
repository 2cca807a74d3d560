#!/usr/bin/env bash
# Installs the gpsd client libraries from PyPI that the gpsd face is tested with
# (docs/compatibility.md), pinned, in a virtual environment of their own under .build, so
# that the system's Python stays Debian's. Safe to run again: it does nothing when they
# are there. GPSDPyPIClientTests skips when this has not run.
#   gps3 0.33.3: sends ?WATCH={"enable":true,"json":true} with no ; and no newline.
#   gpsdclient 1.3.2: another author's; a newline and no ;, and it parses TPV's time with
#   fractional seconds or leaves it a string.
set -euo pipefail
cd "$(dirname "$0")/../.."

venv=.build/pypi-gpsd-clients
if "$venv/bin/python" -c 'import gps3, gpsdclient' 2>/dev/null; then
    echo "setup: the PyPI gpsd clients are installed ($venv)"
    exit 0
fi
python3 -m venv --clear "$venv"
"$venv/bin/pip" install --quiet --disable-pip-version-check gps3==0.33.3 gpsdclient==1.3.2
echo "setup: installed gps3 0.33.3 and gpsdclient 1.3.2 from PyPI in $venv"
