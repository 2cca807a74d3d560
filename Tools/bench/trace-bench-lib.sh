# What the trace-reading benchmarks (Tools/bench/bench-nmea.sh, Tools/bench/bench-gnsslogger.sh) share:
# their options, the checks of what they need, a work directory, a log of Traces/gpsd's logs
# grown to a size, and the best of a few timed runs. Sourced, not run: its name does not
# start with bench-, so Tools/bench/bench-smoke.sh does not take it for a benchmark.
#
# The script that sources it sets `bench_name` (for messages) and `bench_help_lines` (the
# lines of its header that -h prints), and may define `bench_extra_option OPTION`, which
# returns 0 when it took an option of its own.

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
size_mb=50
bin_dir=""
runs=3

# bench_options "$@": --smoke, --bin-dir DIR, -h and SIZE_MB; sets size_mb, bin_dir, runs.
bench_options() {
    while [ $# -gt 0 ]; do
        if declare -F bench_extra_option > /dev/null && bench_extra_option "$1"; then
            shift
            continue
        fi
        case "$1" in
            --smoke) size_mb=1; runs=1; bin_dir=${bin_dir:-$root/.build/debug} ;;
            --bin-dir) bin_dir=$2; shift ;;
            -h | --help) sed -n "$bench_help_lines" "$0"; exit 0 ;;
            *) size_mb=$1 ;;
        esac
        shift
    done
    bin_dir=${bin_dir:-$root/.build/release}
    case "$size_mb" in
        '' | *[!0-9]*) echo "$bench_name: SIZE_MB must be a whole number of megabytes, not '$size_mb'" >&2; exit 2 ;;
    esac
}

# bench_require TOOL...: each must be on PATH (or an executable path), else the script ends.
bench_require() {
    for tool in "$@"; do
        command -v "$tool" > /dev/null || {
            echo "$bench_name: $tool is missing (Tools/ci/setup.sh installs gpsd-clients, time and bc)" >&2
            exit 1
        }
    done
}

# bench_fresh DIR NAME...: each DIR/NAME must not be older than its build (a stale hard link
# left beside a rebuilt multi-call `sextant`; Tools/bench/fresh_binary.py says why), else the
# script ends.
bench_fresh() {
    python3 "$root/Tools/bench/fresh_binary.py" "$@" || exit 1
}

# bench_workdir: a temporary directory in $work, removed when the script ends.
bench_workdir() {
    work=$(mktemp -d "/tmp/sextant-$bench_name.XXXXXX")
    trap 'rm -rf "$work"' EXIT
}

# bench_gpsd_log FILE BYTES: Traces/gpsd's logs repeated into FILE until it holds BYTES.
bench_gpsd_log() {
    while [ "$(stat -c %s "$1" 2> /dev/null || echo 0)" -lt "$2" ]; do
        cat "$root"/Traces/gpsd/*.log >> "$1"
    done
}

# best_of COMMAND...: runs it $runs times (standard input from $bench_input, default
# /dev/null; output in $work/out); prints "SECONDS PEAK_KB CPU_SECONDS" of the fastest run,
# timed to the millisecond (best-of.py).
best_of() {
    python3 "$(dirname "${BASH_SOURCE[0]}")/best-of.py" "$runs" "$work" "${bench_input:-/dev/null}" "$bench_name" "$@"
}

# bench_printed WHAT: the last run printed something, else the script ends saying WHAT did not.
bench_printed() {
    grep -q . "$work/out" || { echo "$bench_name: $1 printed nothing" >&2; exit 1; }
}

# bench_rate BYTES SECONDS: megabytes a second.
bench_rate() { echo "scale=1; $1 / 1000000 / ($2 + 0.0005)" | bc -l; }

# bench_load: where the figures were taken, for the table's title.
bench_load() { echo "$bin_dir; load average $(cut -d' ' -f1 /proc/loadavg) on $(nproc) CPUs"; }
