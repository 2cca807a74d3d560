#!/usr/bin/env bash
# NMEA decode, whole process: `sextantctl trace info LOG` beside gpsd's `gpsdecode < LOG`,
# wall time and peak resident set (/usr/bin/time's %M), best of three runs each.
#
#   Tools/bench/bench-nmea.sh [--smoke] [--bin-dir DIR] [--baseline=DIR] [--reader] [SIZE_MB]   (default 50 MB, .build/release)
#
# Builds a log by repeating all the logs of Traces/gpsd until it holds SIZE_MB megabytes.
# Both programs read the whole log and decode every sentence: gpsdecode writes a JSON
# report per sentence (to /dev/null), sextantctl prints the trace's summary. --reader also
# builds Benchmarks/ and times the NMEAReader alone, in process (no file reading, no
# process start). --baseline=DIR also times DIR/sextantctl (another build: main's, a
# commit's) on the same log in the same run, and checks it prints the same summary.
# gpsdecode is in Debian's gpsd-clients.
#
# --smoke: a 1 MB log, the debug build, one run each: checks the comparison still runs.
set -euo pipefail

bench_name=bench-nmea.sh
bench_help_lines=2,15p
reader=no
baseline=""
bench_extra_option() {
    case "$1" in
        --reader) reader=yes ;;
        --baseline=*) baseline=${1#--baseline=} ;;
        *) return 1 ;;
    esac
}
source "$(dirname "$0")/trace-bench-lib.sh"
bench_options "$@"
bench_require gpsdecode /usr/bin/time bc "$bin_dir/sextantctl"
bench_fresh "$bin_dir" sextantctl
bench_workdir
log=$work/bench.log
bench_gpsd_log "$log" $((size_mb * 1000 * 1000))
bytes=$(stat -c %s "$log")
sentences=$(grep -c '^[$!]' "$log" || true)

if [ -n "$baseline" ]; then
    bench_require "$baseline/sextantctl"
    bench_fresh "$baseline" sextantctl
    read -r bl_s bl_kb bl_cpu <<< "$(best_of "$baseline/sextantctl" trace info "$log")"
    [ -n "$bl_s" ] || exit 1
    cp "$work/out" "$work/baseline.out"
fi
read -r sx_s sx_kb sx_cpu <<< "$(best_of "$bin_dir/sextantctl" trace info "$log")"
[ -n "$sx_s" ] || exit 1
bench_printed "sextantctl trace info"
if [ -n "$baseline" ] && ! cmp -s "$work/out" "$work/baseline.out"; then
    echo "$bench_name: $bin_dir/sextantctl and $baseline/sextantctl summarize the log differently:" >&2
    diff "$work/baseline.out" "$work/out" >&2
    exit 1
fi
read -r gd_s gd_kb gd_cpu <<< "$(bench_input=$log best_of gpsdecode)"
[ -n "$gd_s" ] || exit 1

echo "NMEA decode, $bytes bytes, $sentences sentences, best of $runs ($(bench_load))"
printf "%-34s %10s %10s %10s %12s\n" "" "seconds" "CPU s" "MB/s" "peak RSS"
row() { printf "%-34s %10.3f %10.2f %10.1f %9d KB\n" "$1" "$2" "$3" "$(bench_rate "$bytes" "$2")" "$4"; }
row "sextantctl trace info LOG" "$sx_s" "$sx_cpu" "$sx_kb"
[ -z "$baseline" ] || row "baseline's sextantctl trace info" "$bl_s" "$bl_cpu" "$bl_kb"
row "gpsdecode < LOG (anchor)" "$gd_s" "$gd_cpu" "$gd_kb"
printf "sextantctl is %.1f x as fast as gpsdecode (target >= 25 x, peak < 20 MB)\n" "$(echo "$gd_s / $sx_s" | bc -l)"
[ -z "$baseline" ] || printf "the baseline ($baseline) is %.1f x as fast as gpsdecode; both print the same summary\n" \
    "$(echo "$gd_s / $bl_s" | bc -l)"

if [ "$reader" = yes ]; then
    echo
    echo "== Sextant's NMEAReader alone, in process (Benchmarks/, swift build -c release)"
    if ! swift build -c release --package-path "$root/Benchmarks" --product NMEAThroughput > "$work/build.log" 2>&1; then
        cat "$work/build.log"
        exit 1
    fi
    "$root/Benchmarks/.build/release/NMEAThroughput" "$log" 5
fi
