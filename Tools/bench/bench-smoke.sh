#!/usr/bin/env bash
# Runs every benchmark script Tools/bench/bench-*.py and Tools/bench/bench-*.sh with --smoke: tiny
# sizes against the debug build, a few seconds each, so that the benchmarks keep working
# as the code changes (their figures mean nothing at these sizes). Fails if any fails.
#
#   Tools/bench/bench-smoke.sh [BIN_DIR]     (default: swift build --show-bin-path, the debug build)
#
# Tools/ci/test.sh calls it after the tests. A new Tools/bench/bench-* is picked up here by its
# name, so it must accept --smoke (and --bin-dir).
set -uo pipefail
cd "$(dirname "$0")/../.."
bin_dir=${1:-$(swift build --show-bin-path)}
per_script_seconds=180

# Options a script is also run with, each a run of its own: "SCRIPT OPTIONS".
variants=("Tools/bench/bench-fanout.py --heading" "Tools/bench/bench-fanout.py --rounds 2")

failed=()
ran=0
smoke() {
    local script=$1
    shift
    ran=$((ran + 1))
    log=$(mktemp /tmp/sextant-bench-smoke.XXXXXX)
    start=$SECONDS
    case "$script" in
        *.py) runner=(/usr/bin/python3) ;;
        *.sh) runner=(bash) ;;
    esac
    if timeout "$per_script_seconds" "${runner[@]}" "$script" --smoke --bin-dir "$bin_dir" "$@" > "$log" 2>&1; then
        echo "bench-smoke: ok    $script $* ($((SECONDS - start)) s)"
    else
        echo "bench-smoke: FAIL  $script $* (exit $?, $((SECONDS - start)) s):"
        sed 's/^/    /' "$log" | tail -20
        failed+=("$script $*")
    fi
    rm -f "$log"
}
for script in Tools/bench/bench-*.py Tools/bench/bench-*.sh; do
    [ -e "$script" ] || continue
    [ "$script" = Tools/bench/bench-smoke.sh ] && continue
    smoke "$script"
done
for variant in "${variants[@]}"; do
    # shellcheck disable=SC2086 # a variant is a script and its options, split on spaces
    smoke $variant
done
if [ "$ran" -eq 0 ]; then
    echo "bench-smoke: no Tools/bench/bench-* found" >&2
    exit 1
fi
if [ ${#failed[@]} -gt 0 ]; then
    echo "bench-smoke: ${#failed[@]} of $ran failed: ${failed[*]}" >&2
    exit 1
fi
echo "bench-smoke: all $ran benchmarks run"
