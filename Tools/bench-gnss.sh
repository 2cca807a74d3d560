#!/usr/bin/env bash
# The GNSS profile's cost per fix (sextant-rules(7) N1-N6), each preset, printed beside the
# decision a fix goes through for an app (authorization and location stream) in the same
# run: Benchmarks' gnss-figures, built in release. Target: under 1 µs a fix.
#
#   Tools/bench-gnss.sh [--smoke] [--bin-dir DIR] [FIXES]   (default 200000)
#
# --smoke: 2000 fixes, a debug build of Benchmarks' gnss-figures alone: checks it still runs.
# --bin-dir is accepted for Tools/bench-smoke.sh and not used (the figures are in process).
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
fixes=200000
configuration=release
while [ $# -gt 0 ]; do
    case "$1" in
        --smoke) fixes=2000; configuration=debug ;;
        --bin-dir) shift ;;
        -h | --help) sed -n '2,9p' "$0"; exit 0 ;;
        *) fixes=$1 ;;
    esac
    shift
done
case "$fixes" in
    '' | *[!0-9]*) echo "bench-gnss.sh: FIXES must be a whole number, not '$fixes'" >&2; exit 2 ;;
esac
swift build --package-path "$root/Benchmarks" -c "$configuration" --product gnss-figures > /dev/null
"$(swift build --package-path "$root/Benchmarks" -c "$configuration" --show-bin-path)/gnss-figures" "$fixes"
