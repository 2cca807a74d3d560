#!/usr/bin/python3
"""A web page that watches the browser's position, and a loopback server that prints what
the page reports: the browser tests read a page's `navigator.geolocation` through it, from
the page itself rather than from anything Sextant says.

Serves GET / (the page) and takes POST /report on 127.0.0.1 at a free port. GET /sensors is
the page the Chromium tests read: it also reports the geolocation permission's state,
`screen.orientation` (`change` true for its change event), `deviceorientation`,
`deviceorientationabsolute`, `devicemotion` (`accelerationIncludingGravity`, `acceleration`, `rotationRate`), the generic
`Accelerometer`, `Gyroscope`, `AbsoluteOrientationSensor`, `RelativeOrientationSensor`,
`LinearAccelerationSensor`, `GravitySensor` and `AmbientLightSensor` (`values`) and
`navigator.devicePosture` as they change, each
position with `performance.now()` (`now`) and its `timestamp`, and, with `?reload=N`, reloads itself once after
its Nth position (its numbering goes on across the reload). Prints
`listening URL` first, then each report as one JSON line, in the page's order (`seq`
counts them from 0: a reader that has seq 0..N has everything the page said up to N).
Runs until it is stopped (SIGTERM).

    python3 Tools/dev/page-reporter.py
"""

import http.server
import json
import threading

PAGE = b"""<!doctype html>
<meta charset="utf-8">
<title>Sextant: where am I</title>
<p id="status">waiting for a position</p>
<script>
let seq = 0;
function report(fields) {
  fields.seq = seq++;
  fetch("/report", {method: "POST", body: JSON.stringify(fields), keepalive: true});
}
report({kind: "loaded"});
navigator.geolocation.watchPosition(
  (position) => {
    const c = position.coords;
    document.getElementById("status").textContent = c.latitude + ", " + c.longitude;
    report({kind: "position", lat: c.latitude, lon: c.longitude, accuracy: c.accuracy, altitude: c.altitude,
            speed: c.speed, heading: c.heading, timestamp: position.timestamp});
  },
  (error) => report({kind: "error", code: error.code, message: error.message}),
  {enableHighAccuracy: true, maximumAge: 0});
</script>
"""

SENSORS_PAGE = b"""<!doctype html>
<meta charset="utf-8">
<title>Sextant: where am I, which way up</title>
<p id="status">waiting for a position</p>
<script>
let seq = Number(sessionStorage.getItem("seq") || 0);
function report(fields) {
  fields.seq = seq++;
  sessionStorage.setItem("seq", String(seq));
  fetch("/report", {method: "POST", body: JSON.stringify(fields), keepalive: true});
}
report({kind: "loaded", visibility: document.visibilityState});
const reloadAfter = Number(new URLSearchParams(location.search).get("reload") || 0);
let positions = 0;
navigator.geolocation.watchPosition(
  (position) => {
    const now = performance.now() + performance.timeOrigin;
    const c = position.coords;
    document.getElementById("status").textContent = c.latitude + ", " + c.longitude;
    report({kind: "position", lat: c.latitude, lon: c.longitude, accuracy: c.accuracy, altitude: c.altitude,
            altitudeAccuracy: c.altitudeAccuracy, speed: c.speed, heading: c.heading, now: now,
            timestamp: position.timestamp});
    positions += 1;
    if (reloadAfter && positions === reloadAfter && !sessionStorage.getItem("reloaded")) {
      sessionStorage.setItem("reloaded", "1");
      location.reload();
    }
  },
  (error) => report({kind: "error", code: error.code, message: error.message}),
  {enableHighAccuracy: true, maximumAge: 0});
navigator.permissions.query({name: "geolocation"}).then((status) => {
  report({kind: "permission", state: status.state});
  status.addEventListener("change", () => report({kind: "permission", state: status.state}));
});
const screenReport = (event) => report({kind: "screen", type: screen.orientation.type, angle: screen.orientation.angle,
                                        change: event !== undefined, width: screen.width, height: screen.height});
screen.orientation.addEventListener("change", screenReport);
screenReport();
let lastAngles = "";
window.addEventListener("deviceorientation", (event) => {
  const angles = [event.alpha, event.beta, event.gamma].map((v) => v === null ? null : Math.round(v)).join(",");
  if (angles === lastAngles) return;
  lastAngles = angles;
  report({kind: "orientation", alpha: event.alpha, beta: event.beta, gamma: event.gamma});
});
let lastAbsolute = "";
window.addEventListener("deviceorientationabsolute", (event) => {
  const angles = [event.alpha, event.beta, event.gamma].join(",");
  if (angles === lastAbsolute) return;
  lastAbsolute = angles;
  report({kind: "absolute", alpha: event.alpha, beta: event.beta, gamma: event.gamma});
});
// The generic sensors, read as a page would (Generic Sensor API): each reading reported once.
const genericSensor = (name, kind, values) => {
  if (!window[name]) return;
  let last = "";
  try {
    const sensor = new window[name]({frequency: 10});
    sensor.addEventListener("reading", () => {
      const read = values(sensor);
      if (read.join(",") === last) return;
      last = read.join(",");
      report({kind: kind, values: read});
    });
    sensor.addEventListener("error", (event) => report({kind: kind + "Error", name: event.error.name, message: event.error.message}));
    sensor.start();
  } catch (error) {
    report({kind: kind + "Error", name: error.name, message: String(error)});
  }
};
genericSensor("Accelerometer", "accelerometer", (s) => [s.x, s.y, s.z]);
genericSensor("AbsoluteOrientationSensor", "quaternion", (s) => Array.from(s.quaternion));
genericSensor("Gyroscope", "gyroscope", (s) => [s.x, s.y, s.z]);
genericSensor("RelativeOrientationSensor", "relative", (s) => Array.from(s.quaternion));
genericSensor("LinearAccelerationSensor", "linear", (s) => [s.x, s.y, s.z]);
genericSensor("GravitySensor", "gravity", (s) => [s.x, s.y, s.z]);
genericSensor("AmbientLightSensor", "light", (s) => [s.illuminance]);
let lastMotion = "";
window.addEventListener("devicemotion", (event) => {
  const g = event.accelerationIncludingGravity;
  const values = g ? [g.x, g.y, g.z] : [null, null, null];
  const rate = event.rotationRate;
  const a = event.acceleration;
  const linear = a ? [a.x, a.y, a.z] : [null, null, null];
  const key = values.join(",") + "|" + linear.join(",") + "|" + (rate ? [rate.alpha, rate.beta, rate.gamma].join(",") : "");
  if (key === lastMotion) return;
  lastMotion = key;
  report({kind: "motion", x: values[0], y: values[1], z: values[2],
          acceleration: a && a.x, accelerationX: linear[0], accelerationY: linear[1], accelerationZ: linear[2],
          rotationRate: rate && rate.alpha, rotationRateBeta: rate && rate.beta, rotationRateGamma: rate && rate.gamma});
});
if (navigator.devicePosture) {
  const postureReport = () => report({kind: "posture", type: navigator.devicePosture.type});
  navigator.devicePosture.addEventListener("change", postureReport);
  postureReport();
}
document.addEventListener("visibilitychange", () => report({kind: "visibility", state: document.visibilityState}));
</script>
"""

printed = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        path = self.path.split("?", 1)[0]
        pages = {"/": PAGE, "/index.html": PAGE, "/sensors": SENSORS_PAGE}
        if path not in pages:
            self.send_error(404)
            return
        page = pages[path]
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(page)))
        self.end_headers()
        self.wfile.write(page)

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        if self.path != "/report" or not 0 < length <= 4096:
            self.send_error(400)
            return
        try:
            fields = json.loads(self.rfile.read(length))
        except ValueError:
            self.send_error(400)
            return
        with printed:
            print(json.dumps(fields, sort_keys=True), flush=True)
        self.send_response(204)
        self.end_headers()

    def log_message(self, *arguments):
        pass


def main():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    print(f"listening http://127.0.0.1:{server.server_address[1]}/", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    main()
