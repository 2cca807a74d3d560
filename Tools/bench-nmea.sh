#!/usr/bin/env bash
# NMEA decode throughput: Sextant's NMEAReader (release build) beside gpsd's gpsdecode.
#
#   Tools/bench-nmea.sh [SIZE_MB]     (default 50)
#
# Builds /tmp/sextant-nmea-bench.log by repeating all the logs of Traces/gpsd until it
# holds SIZE_MB megabytes, then times both decoders on it. gpsdecode is in Debian's
# gpsd-clients. Nothing here is built or run by CI.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
size_mb=${1:-50}
log=/tmp/sextant-nmea-bench.log

: > "$log"
while [ "$(stat -c %s "$log")" -lt $((size_mb * 1000 * 1000)) ]; do
    cat "$root"/Traces/gpsd/*.log >> "$log"
done
bytes=$(stat -c %s "$log")
sentences=$(grep -c '^[$!]' "$log" || true)
echo "Input: $log, $bytes bytes, $sentences sentences"
echo

echo "== Sextant NMEAReader (swift build -c release)"
if ! swift build -c release --package-path "$root/Benchmarks" --product NMEAThroughput > /tmp/sextant-bench-build.log 2>&1; then
    cat /tmp/sextant-bench-build.log
    exit 1
fi
"$root/Benchmarks/.build/release/NMEAThroughput" "$log" 5
echo

echo "== gpsdecode < LOG > /dev/null ($(gpsdecode -V 2>&1 | head -1))"
best=""
for _ in 1 2 3; do
    start=$(date +%s.%N)
    gpsdecode < "$log" > /dev/null
    end=$(date +%s.%N)
    elapsed=$(echo "$end - $start" | bc -l)
    if [ -z "$best" ] || [ "$(echo "$elapsed < $best" | bc -l)" = 1 ]; then best=$elapsed; fi
done
printf "best   %6.3f s  %7.1f MB/s  %10.0f sentences/s  (3 runs)\n" "$best" \
    "$(echo "$bytes / 1000000 / $best" | bc -l)" "$(echo "$sentences / $best" | bc -l)"
