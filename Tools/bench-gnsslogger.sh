#!/usr/bin/env bash
# GnssLogger reading beside NMEA reading, whole process, in the same run: `sextantctl trace
# info` on a GnssLogger recording and on an NMEA log of the same size, wall time, rate and
# peak resident set (/usr/bin/time's %M), best of three runs each.
#
#   Tools/bench-gnsslogger.sh [--smoke] [--bin-dir DIR] [SIZE_MB]   (default 50 MB, .build/release)
#
# The recording is Traces/gnsslogger/pixel7-2023-stanford.txt's rows repeated, each lap
# 600 s after the one before (its rows span 565 s), until it holds SIZE_MB megabytes; the
# log is Traces/gpsd's logs repeated likewise. Peak memory must not grow with the size
# (both readers stream): compare two sizes.
#
# --smoke: 1 MB files, the debug build, one run each: checks the comparison still runs.
set -euo pipefail

root=$(cd "$(dirname "$0")/.." && pwd)
size_mb=50
bin_dir=""
runs=3
while [ $# -gt 0 ]; do
    case "$1" in
        --smoke) size_mb=1; runs=1; bin_dir=${bin_dir:-$root/.build/debug} ;;
        --bin-dir) bin_dir=$2; shift ;;
        -h | --help) sed -n '2,14p' "$0"; exit 0 ;;
        *) size_mb=$1 ;;
    esac
    shift
done
bin_dir=${bin_dir:-$root/.build/release}
case "$size_mb" in
    '' | *[!0-9]*) echo "bench-gnsslogger.sh: SIZE_MB must be a whole number of megabytes, not '$size_mb'" >&2; exit 2 ;;
esac
for tool in /usr/bin/time "$bin_dir/sextantctl"; do
    command -v "$tool" > /dev/null || { echo "bench-gnsslogger.sh: $tool is missing" >&2; exit 1; }
done

work=$(mktemp -d /tmp/sextant-bench-gnsslogger.XXXXXX)
trap 'rm -rf "$work"' EXIT
target=$((size_mb * 1000 * 1000))
recording=$work/gnss_log.txt
awk -v target="$target" '
    { sub(/\r$/, "") }
    /^#/ { if (!started) header = header $0 "\n"; next }
    NF { rows[++n] = $0 }
    END {
        printf "%s", header; bytes = length(header)
        for (lap = 0; bytes < target; lap++) {
            shift = lap * 600000
            for (k = 1; k <= n; k++) {
                nf = split(rows[k], f, ",")
                line = rows[k]
                column = (f[1] == "Fix") ? 9 : 2
                if (f[column] ~ /^[0-9]+$/) {
                    f[column] = sprintf("%.0f", f[column] + shift)
                    line = f[1]; for (c = 2; c <= nf; c++) line = line "," f[c]
                }
                print line; bytes += length(line) + 1
            }
        }
    }' "$root/Traces/gnsslogger/pixel7-2023-stanford.txt" > "$recording"
log=$work/bench.log
while [ "$(stat -c %s "$log" 2> /dev/null || echo 0)" -lt "$target" ]; do
    cat "$root"/Traces/gpsd/*.log >> "$log"
done

# best_of FILE: runs `sextantctl trace info FILE` $runs times; prints "SECONDS PEAK_KB" of the fastest.
best_of() {
    local best="" peak=""
    for _ in $(seq "$runs"); do
        /usr/bin/time -o "$work/time" -f "%e %M" "$bin_dir/sextantctl" trace info "$1" > "$work/out" 2> "$work/err" || {
            echo "bench-gnsslogger.sh: failed: sextantctl trace info $1" >&2; cat "$work/err" >&2; exit 1
        }
        grep -q . "$work/out" || { echo "bench-gnsslogger.sh: sextantctl trace info printed nothing" >&2; exit 1; }
        read -r elapsed kb < "$work/time"
        if [ -z "$best" ] || [ "$(echo "$elapsed < $best" | bc -l)" = 1 ]; then best=$elapsed; peak=$kb; fi
    done
    echo "$best $peak"
}

read -r gl_s gl_kb <<< "$(best_of "$recording")"
[ -n "$gl_s" ] || exit 1
read -r nm_s nm_kb <<< "$(best_of "$log")"
[ -n "$nm_s" ] || exit 1
gl_bytes=$(stat -c %s "$recording")
nm_bytes=$(stat -c %s "$log")
rate() { echo "scale=1; $1 / 1000000 / ($2 + 0.0005)" | bc -l; }
echo "Trace reading, whole process, best of $runs ($bin_dir; load average $(cut -d' ' -f1 /proc/loadavg) on $(nproc) CPUs)"
printf "%-44s %12s %10s %10s %12s\n" "" "bytes" "seconds" "MB/s" "peak RSS"
printf "%-44s %12d %10.2f %10.1f %9d KB\n" "sextantctl trace info GnssLogger recording" "$gl_bytes" "$gl_s" "$(rate "$gl_bytes" "$gl_s")" "$gl_kb"
printf "%-44s %12d %10.2f %10.1f %9d KB\n" "sextantctl trace info NMEA log" "$nm_bytes" "$nm_s" "$(rate "$nm_bytes" "$nm_s")" "$nm_kb"
