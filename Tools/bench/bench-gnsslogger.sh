#!/usr/bin/env bash
# GnssLogger reading beside NMEA reading, whole process, in the same run: `sextantctl trace
# info` on a GnssLogger recording and on an NMEA log of the same size, wall time, rate and
# peak resident set (/usr/bin/time's %M), best of three runs each.
#
#   Tools/bench/bench-gnsslogger.sh [--smoke] [--bin-dir DIR] [SIZE_MB]   (default 50 MB, .build/release)
#
# The recording is Traces/gnsslogger/pixel7-2023-stanford.txt's rows repeated, each lap
# 600 s after the one before (its rows span 565 s), until it holds SIZE_MB megabytes; the
# log is Traces/gpsd's logs repeated likewise. Peak memory must not grow with the size
# (both readers stream): compare two sizes.
#
# --smoke: 1 MB files, the debug build, one run each: checks the comparison still runs.
set -euo pipefail

bench_name=bench-gnsslogger.sh
bench_help_lines=2,14p
source "$(dirname "$0")/trace-bench-lib.sh"
bench_options "$@"
bench_require /usr/bin/time bc "$bin_dir/sextantctl"
bench_fresh "$bin_dir" sextantctl
bench_workdir
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
bench_gpsd_log "$log" "$target"

read -r gl_s gl_kb _ <<< "$(best_of "$bin_dir/sextantctl" trace info "$recording")"
[ -n "$gl_s" ] || exit 1
bench_printed "sextantctl trace info on the recording"
read -r nm_s nm_kb _ <<< "$(best_of "$bin_dir/sextantctl" trace info "$log")"
[ -n "$nm_s" ] || exit 1
bench_printed "sextantctl trace info on the log"
gl_bytes=$(stat -c %s "$recording")
nm_bytes=$(stat -c %s "$log")
echo "Trace reading, whole process, best of $runs ($(bench_load))"
printf "%-44s %12s %10s %10s %12s\n" "" "bytes" "seconds" "MB/s" "peak RSS"
printf "%-44s %12d %10.2f %10.1f %9d KB\n" "sextantctl trace info GnssLogger recording" "$gl_bytes" "$gl_s" "$(bench_rate "$gl_bytes" "$gl_s")" "$gl_kb"
printf "%-44s %12d %10.2f %10.1f %9d KB\n" "sextantctl trace info NMEA log" "$nm_bytes" "$nm_s" "$(bench_rate "$nm_bytes" "$nm_s")" "$nm_kb"
