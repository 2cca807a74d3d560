#!/usr/bin/env bash
# NMEA decode, whole process: `sextantctl trace info LOG` beside gpsd's `gpsdecode < LOG`,
# wall time and peak resident set (/usr/bin/time's %M), best of three runs each.
#
#   Tools/bench-nmea.sh [--smoke] [--bin-dir DIR] [--reader] [SIZE_MB]   (default 50 MB, .build/release)
#
# Builds a log by repeating all the logs of Traces/gpsd until it holds SIZE_MB megabytes.
# Both programs read the whole log and decode every sentence: gpsdecode writes a JSON
# report per sentence (to /dev/null), sextantctl prints the trace's summary. --reader also
# builds Benchmarks/ and times the NMEAReader alone, in process (no file reading, no
# process start). gpsdecode is in Debian's gpsd-clients.
#
# --smoke: a 1 MB log, the debug build, one run each: checks the comparison still runs.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
size_mb=50
bin_dir=""
runs=3
reader=no
while [ $# -gt 0 ]; do
    case "$1" in
        --smoke) size_mb=1; runs=1; bin_dir=${bin_dir:-$root/.build/debug} ;;
        --bin-dir) bin_dir=$2; shift ;;
        --reader) reader=yes ;;
        -h | --help) sed -n '2,13p' "$0"; exit 0 ;;
        *) size_mb=$1 ;;
    esac
    shift
done
bin_dir=${bin_dir:-$root/.build/release}
case "$size_mb" in
    '' | *[!0-9]*) echo "bench-nmea.sh: SIZE_MB must be a whole number of megabytes, not '$size_mb'" >&2; exit 2 ;;
esac
for tool in gpsdecode /usr/bin/time "$bin_dir/sextantctl"; do
    command -v "$tool" > /dev/null || { echo "bench-nmea.sh: $tool is missing (Tools/setup.sh installs gpsd-clients and time)" >&2; exit 1; }
done

work=$(mktemp -d /tmp/sextant-bench-nmea.XXXXXX)
trap 'rm -rf "$work"' EXIT
log=$work/bench.log
while [ "$(stat -c %s "$log" 2> /dev/null || echo 0)" -lt $((size_mb * 1000 * 1000)) ]; do
    cat "$root"/Traces/gpsd/*.log >> "$log"
done
bytes=$(stat -c %s "$log")
sentences=$(grep -c '^[$!]' "$log" || true)

# best_of COMMAND...: runs it $runs times; prints "SECONDS PEAK_KB" of the fastest run.
best_of() {
    local best="" peak=""
    for _ in $(seq "$runs"); do
        /usr/bin/time -o "$work/time" -f "%e %M" "$@" > "$work/out" 2> "$work/err" < "$input" || {
            echo "bench-nmea.sh: failed: $*" >&2; cat "$work/err" >&2; exit 1
        }
        read -r elapsed kb < "$work/time"
        if [ -z "$best" ] || [ "$(echo "$elapsed < $best" | bc -l)" = 1 ]; then best=$elapsed; peak=$kb; fi
    done
    echo "$best $peak"
}

input=/dev/null
read -r sx_s sx_kb <<< "$(best_of "$bin_dir/sextantctl" trace info "$log")"
[ -n "$sx_s" ] || exit 1
grep -q . "$work/out" || { echo "bench-nmea.sh: sextantctl trace info printed nothing" >&2; exit 1; }
input=$log
read -r gd_s gd_kb <<< "$(best_of gpsdecode)"
[ -n "$gd_s" ] || exit 1

rate() { echo "scale=1; $bytes / 1000000 / ($1 + 0.0005)" | bc -l; }
echo "NMEA decode, $bytes bytes, $sentences sentences, best of $runs ($bin_dir; load average $(cut -d' ' -f1 /proc/loadavg) on $(nproc) CPUs)"
printf "%-34s %10s %10s %12s\n" "" "seconds" "MB/s" "peak RSS"
printf "%-34s %10.2f %10.1f %9d KB\n" "sextantctl trace info LOG" "$sx_s" "$(rate "$sx_s")" "$sx_kb"
printf "%-34s %10.2f %10.1f %9d KB\n" "gpsdecode < LOG (anchor)" "$gd_s" "$(rate "$gd_s")" "$gd_kb"
printf "sextantctl is %.1f x as fast as gpsdecode (target >= 20 x, peak < 20 MB)\n" "$(echo "($gd_s + 0.0005) / ($sx_s + 0.0005)" | bc -l)"

if [ "$reader" = yes ]; then
    echo
    echo "== Sextant's NMEAReader alone, in process (Benchmarks/, swift build -c release)"
    if ! swift build -c release --package-path "$root/Benchmarks" --product NMEAThroughput > "$work/build.log" 2>&1; then
        cat "$work/build.log"
        exit 1
    fi
    "$root/Benchmarks/.build/release/NMEAThroughput" "$log" 5
fi
