#!/usr/bin/env bash
# Makes the pictures of `sextantctl trace plot` in docs/images/: Traces/gpsd/haicom-305N.log
# with a session's events (a prompt answered Allow Once, fixes, reduced accuracy, denied),
# as rsvg-convert draws the SVG and as headless Chromium shows the HTML page with a fix
# hovered (Tools/plot-browser.py). Usage: Tools/plot-screenshots.sh [BIN-DIR]
set -euo pipefail
cd "$(dirname "$0")/.."
bin="${1:-.build/debug}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
log=Traces/gpsd/haicom-305N.log
"$bin/sextantctl" trace convert "$log" "$work/walk.jsonl" >/dev/null
python3 - "$work/walk.jsonl" "$work/events.ndjson" <<'PY'
import datetime, json, sys
lines = open(sys.argv[1]).read().splitlines()
start = datetime.datetime.fromisoformat(json.loads(lines[0])["start"].replace("Z", "+00:00"))
fixes = [json.loads(l) for l in lines[1:] if '"location"' in l]
app, out = "com.acme.wayfinder", []
def event(method, **params):
    out.append(json.dumps({"jsonrpc": "2.0", "method": method, "params": dict(app=app, **params)}))
prompt = dict(id="p-1", session=1, kind="authorization", level="whenInUse", created="2026-11-26T04:00:00Z")
event("prompt", **prompt)
event("promptClosed", choice="allowOnce", precise=True, **prompt)
event("authorization", status="authorizedWhenInUse", accuracy="full")
for i, f in enumerate(fixes[:50]):
    if i == 30:
        event("authorization", status="authorizedWhenInUse", accuracy="reduced")
    when = (start + datetime.timedelta(seconds=f["t"])).isoformat().replace("+00:00", "Z")
    loc = f["location"]
    event("location", lat=loc["lat"] + (0.0004 if i >= 30 else 0), lon=loc["lon"], hAcc=loc.get("hAcc", 5), time=when,
          accuracy="reduced" if i >= 30 else "full")
event("authorization", status="denied", accuracy="full")
open(sys.argv[2], "w").write("\n".join(out) + "\n")
PY
mkdir -p docs/images
"$bin/sextantctl" trace plot "$log" -o "$work/plot.svg" --events "$work/events.ndjson" >/dev/null
rsvg-convert "$work/plot.svg" -o docs/images/trace-plot-svg.png
"$bin/sextantctl" trace plot "$log" -o "$work/plot.html" --events "$work/events.ndjson" >/dev/null
python3 Tools/plot-browser.py "$work/plot.html" --screenshot docs/images/trace-plot-html.png --width 1000 --height 1300 >/dev/null
echo "docs/images/trace-plot-svg.png docs/images/trace-plot-html.png"
