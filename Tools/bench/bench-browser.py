#!/usr/bin/python3
"""Measures the Chromium bridge (`sextantctl browser`, docs/browsers.md): fix → page latency
beside plain app.sock's, and the memory of the browser and the bridge over a run.

Starts a private sextantd, one plain app on app.sock and `sextantctl browser --launch --open` (a
headless Chromium of its own) showing a page that watches its position. Both apps are
authorized always. A trace of fixes at 10 Hz of trace time is replayed at `--speed`; the
page stamps each position in its watchPosition callback with performance.timeOrigin +
performance.now() (wall clock, ms), the plain app each `location` line as it reads it, and
both are compared with the moment the daemon had the fix due (the replay's start + t /
speed; bench-fanout.py's start_replay). Prints p50 and p99 of each, the fixes each got (the
page is handed the latest fix whenever the bridge is free, so at high speed it skips some),
and the resident memory of the bridge and of the browser (every process under it) at the
start and the end, and each minute between. Fails when the last fix misses either, or, at smoke size, when the app
misses one.

Usage: Tools/bench/bench-browser.py [--seconds 600] [--speed 100] [--bin-dir .build/release] [--smoke]
--seconds: wall-clock seconds of replay (the trace is seconds × speed long).
--smoke: 3 s at 10× against the debug build; fails if the last fix misses the page or any fix the app.
"""

import argparse
import http.server
import json
import os
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the repository, above Tools/bench/
sys.path.insert(0, os.path.join(ROOT, "Tools", "bench"))
from proc_figures import status_kb  # noqa: E402
import fresh_binary  # noqa: E402  (beside this script: refuses a stale sextantd or sextantctl)

PAGE = b"""<!doctype html>
<meta charset="utf-8">
<script>
const batch = [];
const errors = {};
navigator.geolocation.watchPosition(
  (p) => batch.push([p.coords.altitude, performance.timeOrigin + performance.now()]),
  (e) => { errors[e.code] = (errors[e.code] || 0) + 1; }, {enableHighAccuracy: true, maximumAge: 0});
setInterval(() => fetch("/report", {method: "POST", body: JSON.stringify({fixes: batch.splice(0), errors: errors})}), 200);
</script>
"""


class PageServer(http.server.ThreadingHTTPServer):
    def __init__(self):
        super().__init__(("127.0.0.1", 0), PageHandler)
        self.arrivals = {}
        self.errors = {}
        self.reports = 0
        self.lock = threading.Lock()


class PageHandler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)

    def do_POST(self):
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        with self.server.lock:
            self.server.reports += 1
            self.server.errors = body["errors"]
            for index, at in body["fixes"]:
                self.server.arrivals.setdefault(int(index), at / 1000)
        self.send_response(204)
        self.end_headers()

    def log_message(self, *arguments):
        pass


def make_trace(path, fixes):
    """Fixes at 10 Hz walking east; each fix's altitude is its index, the key both readers report."""
    with open(path, "w") as out:
        out.write(json.dumps({"sextant": "trace", "version": 1, "start": "2026-03-01T08:00:00.000Z"}) + "\n")
        for index in range(fixes):
            location = {"lat": 48.85, "lon": round(2.29 + index * 1e-6, 7), "alt": index, "hAcc": 5}
            out.write(json.dumps({"t": round(index / 10, 1), "location": location}) + "\n")


class Caller:
    """A JSON-RPC line connection: requests answered in order; events kept with their arrival time."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.buffer = b""
        self.ident = 0

    def call(self, method, params=None):
        self.ident += 1
        self.sock.sendall((json.dumps({"jsonrpc": "2.0", "id": self.ident, "method": method, "params": params or {}}) + "\n").encode())
        while True:
            line = self.line()
            if line.get("id") == self.ident:
                if "error" in line:
                    sys.exit("%s: %s" % (method, line["error"]))
                return line["result"]

    def line(self):
        while b"\n" not in self.buffer:
            chunk = self.sock.recv(1 << 16)
            if not chunk:
                raise EOFError
            self.buffer += chunk
        line, self.buffer = self.buffer.split(b"\n", 1)
        return json.loads(line)


def read_plain_app(app, arrivals):
    try:
        while True:
            message = app.line()
            if message.get("method") == "location":
                arrivals.setdefault(int(message["params"]["alt"]), time.time())
    except (EOFError, OSError):
        pass


def tree_rss_mib(root):
    """Resident memory of `root`'s descendants (not `root` itself), MiB."""
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    parent = int(f.read().rsplit(")", 1)[1].split()[1])
                children.setdefault(parent, []).append(int(entry))
            except (OSError, ValueError, IndexError):
                continue
    total, stack = 0, list(children.get(root, []))
    while stack:
        pid = stack.pop()
        try:
            total += status_kb(pid, "VmRSS")
        except (OSError, KeyError):
            pass
        stack += children.get(pid, [])
    return total / 1024


def start_bridge(bin_dir, runtime, work, page):
    """The bridge on a Chromium of its own (driven through a pipe: no DevTools port), showing `page`."""
    bridge = subprocess.Popen(
        [fresh_binary.program(bin_dir, "sextantctl"), "browser", "--runtime-dir", runtime, "--app", "bench.web", "--launch", "--open", page],
        stdout=subprocess.PIPE, stderr=open(os.path.join(work, "bridge.log"), "w"), text=True)
    attached = False
    for line in bridge.stdout:
        if line.startswith("sextant-browser: attached to a page"):
            attached = True
            break
    if not attached:
        sys.exit("sextantctl browser --launch attached to no page; see " + work)
    threading.Thread(target=lambda: [None for _ in bridge.stdout], daemon=True).start()
    return bridge


def start_replay(control, trace, speed):
    """Paused at its start, then resumed: the wall-clock time of the trace's t = 0 (s)."""
    control.call("replay.start", {"path": trace, "speed": speed, "until": 0.01})
    deadline = time.monotonic() + 60
    while (status := control.call("replay.status"))["state"] != "paused":
        if time.monotonic() > deadline:
            sys.exit("the replay did not pause at its start: %s" % status)
        time.sleep(0.01)
    sent = time.time()
    control.call("replay.resume")
    return sent - status["position"] / speed


def percentiles(arrivals, due):
    lags = sorted(max(0.0, at - due(index)) * 1000 for index, at in arrivals.items() if index > 0)
    if not lags:
        return float("nan"), float("nan"), 0
    return statistics.median(lags), lags[min(len(lags) - 1, int(len(lags) * 0.99))], len(lags)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=600)
    parser.add_argument("--speed", type=float, default=100)
    parser.add_argument("--bin-dir", default=None, help="default .build/release (.build/debug with --smoke)")
    parser.add_argument("--smoke", action="store_true", help="3 s at 10x, the debug build: checks that it works")
    args = parser.parse_args()
    if args.smoke:
        args.seconds, args.speed = 3, 10
    args.bin_dir = args.bin_dir or os.path.join(ROOT, ".build", "debug" if args.smoke else "release")
    fixes = int(args.seconds * args.speed * 10)

    work = tempfile.mkdtemp(prefix="sextant-bench-browser-")
    runtime = os.path.join(work, "run")
    trace = os.path.join(work, "walk.jsonl")
    make_trace(trace, fixes)
    daemon = subprocess.Popen(
        [fresh_binary.program(args.bin_dir, "sextantd"), "--runtime-dir", runtime, "--state-dir", os.path.join(work, "state"),
         "--no-gpsd", "--no-iio", "--log-level", "warning"],
        stderr=open(os.path.join(work, "sextantd.log"), "w"))
    server = PageServer()
    threading.Thread(target=server.serve_forever, daemon=True).start()
    bridge = None
    try:
        deadline = time.monotonic() + 30
        while not os.path.exists(os.path.join(runtime, "control.sock")):
            if time.monotonic() > deadline or daemon.poll() is not None:
                sys.exit("sextantd did not start; see " + work)
            time.sleep(0.05)
        control = Caller(os.path.join(runtime, "control.sock"))
        for app in ("bench.web", "bench.plain"):
            control.call("permissions.set", {"app": app, "status": "authorizedAlways"})
        plain = Caller(os.path.join(runtime, "app.sock"))
        plain.call("hello", {"app": "bench.plain"})
        plain.call("location.start")
        plain_arrivals = {}
        threading.Thread(target=read_plain_app, args=(plain, plain_arrivals), daemon=True).start()

        bridge = start_bridge(args.bin_dir, runtime, work, "http://127.0.0.1:%d/" % server.server_address[1])
        deadline = time.monotonic() + 60
        while server.reports == 0:
            if time.monotonic() > deadline:
                sys.exit("the page never reported; see " + work)
            time.sleep(0.05)
        rss_start = (status_kb(bridge.pid, "VmRSS") / 1024, tree_rss_mib(bridge.pid))

        started = start_replay(control, trace, args.speed)
        deadline = time.monotonic() + args.seconds + 60
        # The page is handed the latest fix whenever the bridge is free (docs/browsers.md,
        # "Rates"): at high speed it skips fixes, so the run ends with the last one.
        # Sampled each minute too: a leak grows steadily, a cache filling levels off.
        series, next_sample = [], time.monotonic() + 60
        while time.monotonic() < deadline and (fixes - 1 not in server.arrivals or fixes - 1 not in plain_arrivals):
            time.sleep(0.1)
            if time.monotonic() >= next_sample:
                series.append((status_kb(bridge.pid, "VmRSS") / 1024, tree_rss_mib(bridge.pid)))
                next_sample += 60
        rss_end = (status_kb(bridge.pid, "VmRSS") / 1024, tree_rss_mib(bridge.pid))

        def due(index):
            return started + index / 10 / args.speed

        page_p50, page_p99, page_count = percentiles(dict(server.arrivals), due)
        plain_p50, plain_p99, plain_count = percentiles(dict(plain_arrivals), due)
        print(f"{fixes} fixes (10 Hz of trace time) at {args.speed:g}x, {args.seconds:g} s, {args.bin_dir}")
        print(f"{'':30} {'p50':>10} {'p99':>10}   fixes")
        print(f"{'fix -> page (watchPosition)':30} {page_p50:8.2f} ms {page_p99:7.2f} ms   {page_count}")
        print(f"{'fix -> plain app.sock app':30} {plain_p50:8.2f} ms {plain_p99:7.2f} ms   {plain_count}")
        print(f"{'RSS of the bridge':30} {rss_start[0]:8.1f} MiB at the start, {rss_end[0]:.1f} MiB at the end")
        print(f"{'RSS of the browser':30} {rss_start[1]:8.1f} MiB at the start, {rss_end[1]:.1f} MiB at the end")
        if series:
            print(f"{'each minute, bridge / browser':30} " + ", ".join(f"{b:.1f} / {w:.0f}" for b, w in series) + " MiB")
        print(f"(the page's geolocation errors by code: {server.errors or 'none'}; load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs)")
        if fixes - 1 not in server.arrivals or fixes - 1 not in plain_arrivals:
            sys.exit(f"the last fix did not reach {'the page' if fixes - 1 not in server.arrivals else 'the app'}")
        if args.smoke and plain_count < fixes - 1:
            sys.exit(f"the app got {plain_count} of the {fixes - 1} fixes after the first")
    finally:
        if bridge is not None:
            bridge.terminate()
            bridge.wait(timeout=20)
        daemon.terminate()
        daemon.wait(timeout=10)
        server.shutdown()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
