#!/usr/bin/env bash
# Checks that the committed test table and border points are what the generator makes now
# (byte for byte): a change to the generator or to tzfpy shows here, not as a silent drift.
# With --world, the world table too (Traces/tz/zones.sxtz): ~40 s of CPU, so CI checks only
# the test table and the points (~10 s); run --world by hand after changing the generator.
# Usage: Tools/dev/tz/check-table.sh [--world]   (from the repository's root; makes .build/tz-venv)
set -euo pipefail
python="$(Tools/dev/tz/setup-venv.sh)"
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
"$python" Tools/dev/tz/make-tz-table.py --quiet --test-regions --out "$out/test-regions.sxtz"
"$python" Tools/dev/tz/make-tz-table.py --points "$out/border-points.tsv"
cmp "$out/test-regions.sxtz" Traces/tz/test-regions.sxtz
cmp "$out/border-points.tsv" Traces/tz/border-points.tsv
if [ "${1:-}" = "--world" ]; then
    "$python" Tools/dev/tz/make-tz-table.py --quiet --out "$out/zones.sxtz"
    cmp "$out/zones.sxtz" Traces/tz/zones.sxtz
    echo "check-table: Traces/tz/zones.sxtz matches too"
fi
echo "check-table: Traces/tz matches Tools/dev/tz/make-tz-table.py"
