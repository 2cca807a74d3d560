#!/usr/bin/env bash
# Fuzzes Sextant's parsers of outside input with libFuzzer (Fuzz/, one target per parser).
#
#   Tools/ci/fuzz.sh [SECONDS_EACH] [TARGET...]     (default 60 s; every target)
#
# Targets: every folder Fuzz/Sources/fuzz-* (a parser of outside input each: JSON-RPC lines,
# the trace formats, gpsd's lines, a gpsd client's requests, D-Bus messages, the time-zone table). Builds Fuzz/ in release with
# -sanitize=fuzzer,address (into .build-fuzz/, apart from the root's .build), then runs
# each target for SECONDS_EACH from hand-made seeds (Fuzz/Corpus/<target>), seeds taken
# from Traces/, and the corpus earlier runs grew (.build-fuzz/corpus/<target>). A crash, leak, trap or timeout is kept
# as Fuzz/crashes/<target>/crash-… (replay it with `.build-fuzz/release/<target> FILE`);
# the script exits 1 if any target found one. CI runs `Tools/ci/fuzz.sh 10`.
set -euo pipefail

root=$(cd "$(dirname "$0")/../.." && pwd)
seconds=${1:-60}
shift || true
all=()
for folder in "$root"/Fuzz/Sources/fuzz-*/; do all+=("$(basename "$folder")"); done
targets=("$@")
if [ $# -eq 0 ]; then targets=("${all[@]}"); fi
scratch="$root/.build-fuzz"

for target in "${targets[@]}"; do
    [ -d "$root/Fuzz/Sources/$target" ] || { echo "fuzz.sh: no target $target (targets: ${all[*]})" >&2; exit 64; }
done

start=$(date +%s)
# lld: gold fails on the sanitizers' objects ("internal error in format_file_lineno").
swift build -c release --package-path "$root/Fuzz" --scratch-path "$scratch" \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -use-ld=lld
echo "fuzz.sh: built in $(($(date +%s) - start)) s"

# libFuzzer reports a Swift trap (SIGILL) with its own stack trace; Swift's backtracer
# would fight ASan over the crashed process and can outlive it, holding the log open.
export SWIFT_BACKTRACE=enable=no
# Leaks inside the toolchain's Foundation are not Sextant's (Fuzz/lsan.supp says which).
export LSAN_OPTIONS="suppressions=$root/Fuzz/lsan.supp${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
# Seeds from Traces/: the start of every gpsd test log (NMEA), three TPV reports of each
# gpsd answer file, the start of the demo walk (JSONL); the hand-made ones are in Fuzz/Corpus.
seeds="$scratch/seeds"
rm -rf "$seeds"
mkdir -p "$seeds"/{fuzz-nmea,fuzz-gpsd-report,fuzz-jsonl-trace}
for log in "$root"/Traces/gpsd/*.log; do head -c 4096 "$log" > "$seeds/fuzz-nmea/$(basename "$log")"; done
for chk in "$root"/Traces/gpsd/*.chk; do
    grep -m3 '"class":"TPV"' "$chk" | awk -v out="$seeds/fuzz-gpsd-report/$(basename "$chk" .log.chk)" '{ print > (out "-" NR) }'
done
head -40 "$root/Traces/demo-walk.jsonl" > "$seeds/fuzz-jsonl-trace/demo-walk.jsonl"
mkdir -p "$seeds/fuzz-zone-table"
cp "$root/Traces/tz/test-regions.sxtz" "$seeds/fuzz-zone-table/"
mkdir -p "$seeds/fuzz-gnsslogger"
for log in "$root"/Traces/gnsslogger/*.txt; do head -c 8192 "$log" > "$seeds/fuzz-gnsslogger/$(basename "$log")"; done

failed=()
for target in "${targets[@]}"; do
    corpus="$scratch/corpus/$target"
    crashes="$root/Fuzz/crashes/$target"
    mkdir -p "$corpus" "$crashes" "$seeds/$target"
    echo "fuzz.sh: $target for $seconds s"
    # -max_len: every parser works a line or a few at a time; 8 KiB reaches all of it
    # quickly, but for the zone table, a file whose smallest real one (the tests') is 30 KB.
    # -timeout: an input that takes 10 s is a hang. -rss_limit_mb: a leak.
    max_len=8192
    [ "$target" = fuzz-zone-table ] && max_len=65536
    if ! "$scratch/release/$target" "$corpus" "$root/Fuzz/Corpus/$target" "$seeds/$target" \
        -max_total_time="$seconds" -max_len="$max_len" -timeout=10 -rss_limit_mb=2048 \
        -artifact_prefix="$crashes/" -print_final_stats=1 2> "$scratch/$target.log"; then
        failed+=("$target")
        grep -E "ERROR|Fatal error|SUMMARY|artifact" "$scratch/$target.log" >&2 || tail -20 "$scratch/$target.log" >&2
    fi
    grep -E "^stat::(number_of_executed_units|peak_rss_mb|new_units_added)" "$scratch/$target.log" | tr '\n' ' '
    echo
done

if [ ${#failed[@]} -gt 0 ]; then
    echo "fuzz.sh: crashes in ${failed[*]}: see Fuzz/crashes/" >&2
    exit 1
fi
echo "fuzz.sh: no crash in ${targets[*]} ($seconds s each)"
