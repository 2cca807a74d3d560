#!/bin/bash
# Runs two builds' `sextantctl watch` (and watch --json) side by side on one daemon, makes the
# daemon publish events of most kinds, and compares what they print (the clock column, the
# time each printed the line, aside). Usage: Tools/dev/compare-watch.sh OLD_BIN_DIR NEW_BIN_DIR
set -euo pipefail
old=$1 new=$2
work=$(mktemp -d)
pids=()
trap 'for p in "${pids[@]}"; do kill $p 2>/dev/null || true; done; wait 2>/dev/null; rm -rf "$work"' EXIT
"$new/sextantd" --runtime-dir "$work/run" --ephemeral --no-gpsd --no-iio --profile foldable --log-level error &
pids+=($!)
for _ in $(seq 100); do [ -S "$work/run/control.sock" ] && break; sleep 0.05; done
ctl() { "$new/sextantctl" --runtime-dir "$work/run" "$@" >/dev/null; }
"$old/sextantctl" watch --runtime-dir "$work/run" > "$work/old.txt" & pids+=($!)
"$new/sextantctl" watch --runtime-dir "$work/run" > "$work/new.txt" & pids+=($!)
"$old/sextantctl" watch --json --runtime-dir "$work/run" > "$work/old.json" & pids+=($!)
"$new/sextantctl" watch --json --runtime-dir "$work/run" > "$work/new.json" & pids+=($!)
sleep 1
ctl permissions set com.example.all authorizedWhenInUse
python3 - "$work/run/app.sock" <<'PY' &
import json, socket, sys, time
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
f = s.makefile("rw")
def call(i, method, params=None):
    f.write(json.dumps({"jsonrpc": "2.0", "id": i, "method": method, "params": params or {}}) + "\n"); f.flush()
call(1, "hello", {"app": "com.example.all"})
for i, m in enumerate(["location.start", "orientation.start", "posture.start", "significantChanges.start", "visits.start", "satellites.start"]): call(10 + i, m)
call(20, "heading.start", {"filter": 1}); call(21, "motion.start", {"interval": 0.1})
call(22, "region.monitor", {"identifier": "home\u001b[31m", "lat": 48.0, "lon": 2.0, "radius": 200})
time.sleep(8)
PY
pids+=($!)
s2=$(mktemp -d)
python3 - "$work/run/app.sock" <<'PY' &
import json, socket, sys, time
s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])
f = s.makefile("rw")
f.write(json.dumps({"jsonrpc": "2.0", "id": 1, "method": "hello", "params": {"app": "com.example.asker"}}) + "\n")
f.write(json.dumps({"jsonrpc": "2.0", "id": 2, "method": "authorization.request", "params": {"level": "whenInUse"}}) + "\n"); f.flush()
time.sleep(8)
PY
pids+=($!)
sleep 1
for lat in 48.0 48.001 48.01 48.1; do ctl location set $lat 2.0 --accuracy 5; sleep 0.2; done
ctl rotate landscapeLeft; sleep 0.3; ctl rotate portrait
ctl hinge 90; sleep 0.3; ctl hinge 180
ctl accel 0.1 9.8 0.2
ctl magnet 20 0 -40 || true
ctl services off; ctl services on
id=$("$new/sextantctl" --runtime-dir "$work/run" prompts list --json | python3 -c 'import json,sys; print(json.load(sys.stdin)[0]["id"])')
ctl prompts answer "$id" allowOnce
printf '{"sextant":"trace","version":1,"start":"2026-03-01T08:00:00.000Z"}\n{"t":0,"location":{"lat":48.2,"lon":2.0,"hAcc":5}}\n{"t":0.5,"location":{"lat":48.3,"lon":2.0,"hAcc":5}}\n' > "$work/t.jsonl"
"$new/sextantctl" --runtime-dir "$work/run" replay start "$work/t.jsonl" --speed 4 --wait >/dev/null
sleep 8
cut -c13- "$work/old.txt" > "$work/old.cut"; cut -c13- "$work/new.txt" > "$work/new.cut"
echo "watch: $(wc -l < "$work/old.txt") lines old, $(wc -l < "$work/new.txt") new; kinds: $(awk '{print $3}' "$work/new.txt" | sort -u | tr '\n' ' ')"
diff "$work/old.cut" "$work/new.cut" && echo "watch: identical but for the clock"
echo "watch --json: $(wc -l < "$work/old.json") lines old, $(wc -l < "$work/new.json") new"
cmp "$work/old.json" "$work/new.json" && echo "watch --json: byte for byte identical"
