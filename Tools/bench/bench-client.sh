#!/bin/bash
# What a client of the daemon's sockets costs, in the figures issue 37 asks for:
#   - `sextantctl status`, wall time of N runs (median and 90th percentile, ms);
#   - `sextantctl watch` left idle for S seconds: the CPU time it used (ms, from /proc);
#   - `sextant-browser --launch` (the bridge, an app on app.sock) idle for S seconds: its
#     own CPU time, Chromium's not counted.
# Usage: Tools/bench/bench-client.sh BIN_DIR [RUNS] [SECONDS]
#        Tools/bench/bench-client.sh --smoke   (the debug build, 3 runs, 2 s idle, no browser)
# BIN_DIR holds sextantd, sextantctl and sextant-browser (e.g. .build/debug).
set -euo pipefail
browser=yes
if [ "${1:-}" = --smoke ]; then
    set -- "$(dirname "$0")/../../.build/debug" 3 2
    browser=no
fi
bin=${1:?usage: bench-client.sh BIN_DIR [RUNS] [SECONDS]}
runs=${2:-50}
seconds=${3:-30}
# A stale sextantd or sextantctl beside a rebuilt multi-call sextant: refused, both files named.
python3 "$(dirname "$0")/fresh_binary.py" "$bin" sextantd sextantctl
work=$(mktemp -d)
pids=()
cleanup() {
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT

# CPU time (utime + stime) of a process, in ms.
cpu_ms() { awk -v hz="$(getconf CLK_TCK)" '{ print ($14 + $15) * 1000 / hz }' "/proc/$1/stat"; }
# Times the process's threads went to sleep (voluntary context switches), all threads.
wakeups() { cat /proc/"$1"/task/*/status 2>/dev/null | awk '/^voluntary_ctxt_switches/ { n += $2 } END { print n }'; }
# "N ms CPU, M wake-ups in S s" of a process left alone for S seconds.
idle() {
    local cpu=$(cpu_ms "$1") woken=$(wakeups "$1")
    sleep "$seconds"
    echo "$(awk -v a="$cpu" -v b="$(cpu_ms "$1")" 'BEGIN { print b - a }') ms CPU, $(( $(wakeups "$1") - woken )) wake-ups in $seconds s"
}

"$bin/sextantd" --runtime-dir "$work/run" --ephemeral --no-gpsd --no-iio --log-level error &
pids+=($!)
for _ in $(seq 100); do [ -S "$work/run/control.sock" ] && break; sleep 0.05; done
"$bin/sextantctl" --runtime-dir "$work/run" status >/dev/null  # the first run loads the binary

for _ in $(seq "$runs"); do
    start=$(date +%s%N)
    "$bin/sextantctl" status --runtime-dir "$work/run" >/dev/null
    echo $(( ($(date +%s%N) - start) / 1000 ))
done | sort -n | awk '{ t[NR] = $1 } END { printf "sextantctl status: %d runs, median %.1f ms, p90 %.1f ms\n", NR, t[int((NR + 1) / 2)] / 1000, t[int(NR * 0.9)] / 1000 }'

"$bin/sextantctl" watch --runtime-dir "$work/run" >/dev/null &
watcher=$!
pids+=($watcher)
sleep 1
echo "sextantctl watch idle: $(idle "$watcher")"

if [ "$browser" = yes ] && [ -x /usr/bin/chromium ]; then
    "$bin/sextant-browser" --app com.example.bench --launch --runtime-dir "$work/run" >/dev/null 2>&1 &
    bridge=$!
    pids+=($bridge)
    sleep 10  # Chromium started and the pages attached: what is left is idle
    echo "sextant-browser idle (the bridge alone, not Chromium): $(idle "$bridge")"
fi
