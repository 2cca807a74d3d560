#!/usr/bin/python3
"""A web page that watches the browser's position, and a loopback server that prints what
the page reports: the browser tests read a page's `navigator.geolocation` through it, from
the page itself rather than from anything Sextant says.

Serves GET / (the page) and takes POST /report on 127.0.0.1 at a free port. Prints
`listening URL` first, then each report as one JSON line, in the page's order (`seq`
counts them from 0: a reader that has seq 0..N has everything the page said up to N).
Runs until it is stopped (SIGTERM).

    python3 Tools/page-reporter.py
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

printed = threading.Lock()


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        if self.path not in ("/", "/index.html"):
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)

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
