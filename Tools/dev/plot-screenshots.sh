#!/usr/bin/env bash
# Makes the pictures of `sextantctl trace plot` in docs/images/: Traces/gpsd/haicom-305N.log
# with a session's events (a prompt answered Allow Once, fixes, reduced accuracy, denied),
# as rsvg-convert draws the SVG and as headless Chromium shows the HTML page with a fix
# hovered (Tools/dev/plot-browser.py); then the lanes of the daemon's engines: Traces/shop-walk.jsonl
# with two apps' regions (a crossing hovered), under the urban GNSS profile with a tunnel
# (truth beside reported), and a Pixel 7 recording's heading lane.
# Usage: Tools/dev/plot-screenshots.sh [BIN-DIR]
set -euo pipefail
cd "$(dirname "$0")/../.."
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
python3 Tools/dev/plot-browser.py "$work/plot.html" --screenshot docs/images/trace-plot-html.png --width 1000 --height 1300 >/dev/null
cat > "$work/regions.json" <<'JSON'
[{"app": "com.example.shop", "identifier": "shop", "lat": 48.8566, "lon": 2.3522, "radius": 50, "loiteringDelay": 30},
 {"app": "com.example.metro", "identifier": "entrance", "lat": 48.8585, "lon": 2.3522, "radius": 40, "notifyInitialState": true}]
JSON
"$bin/sextantctl" trace plot Traces/shop-walk.jsonl -o "$work/regions.html" --regions "$work/regions.json" >/dev/null
python3 Tools/dev/plot-browser.py "$work/regions.html" --screenshot docs/images/trace-plot-regions.png --hover "line.region-crossing" \
    --width 1000 --height 800 >/dev/null
"$bin/sextantctl" trace plot Traces/shop-walk.jsonl -o "$work/profile.svg" --gnss-profile urban,tunnel@60+30 --seed 7 >/dev/null
rsvg-convert "$work/profile.svg" -o docs/images/trace-plot-gnss-profile.png
"$bin/sextantctl" trace plot Traces/gnsslogger/pixel7-2023-stanford.txt -o "$work/heading.svg" >/dev/null
rsvg-convert "$work/heading.svg" -o docs/images/trace-plot-heading.png
echo "docs/images/trace-plot-svg.png docs/images/trace-plot-html.png docs/images/trace-plot-regions.png" \
    "docs/images/trace-plot-gnss-profile.png docs/images/trace-plot-heading.png"
