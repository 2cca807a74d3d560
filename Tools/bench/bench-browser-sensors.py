#!/usr/bin/python3
"""What the Chromium bridge's motion costs (docs/browsers.md, "What it costs"): the daemon's
and the bridge's CPU per sensor reading with no page and with a page listening.

Starts a private sextantd holding by hand an accelerometer and a gyroscope (50 readings a
second each: RULES O4a) and an ambient light, and the bridge (`sextant-browser --cdp`) for
one app. First no browser: the bridge is connected to app.sock and has no page. Then a
headless Chromium on that port, showing a page that listens to `devicemotion`,
`deviceorientation` and the generic `RelativeOrientationSensor`. Each phase measures, over
`--seconds`, the CPU time (user + system, /proc) of the daemon, the bridge and the browser
(every process under it), divided by the readings the daemon was held to take (100 a
second): nanoseconds of CPU per reading. `--bridge` runs another build of the bridge (an
older one, to compare).

Usage: Tools/bench/bench-browser-sensors.py [--seconds 20] [--bin-dir .build/release] [--bridge PATH] [--smoke]
--smoke: 2 s a phase against the debug build; fails if the page hears no motion.
"""

import argparse
import http.server
import json
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the repository, above Tools/bench/
sys.path.insert(0, os.path.join(ROOT, "Tools", "bench"))
from proc_figures import cpu_seconds  # noqa: E402
import fresh_binary  # noqa: E402  (beside this script: refuses a stale sextantd or sextantctl)

READINGS_PER_SECOND = 100  # the accelerometer and the gyroscope held by hand, 50 Hz each (O4a)

PAGE = b"""<!doctype html>
<meta charset="utf-8">
<script>
let heard = 0;
addEventListener("devicemotion", (e) => { if (e.accelerationIncludingGravity && e.accelerationIncludingGravity.z !== null) heard++; });
addEventListener("deviceorientation", () => {});
try { const s = new RelativeOrientationSensor({frequency: 60}); s.onreading = () => {}; s.start(); } catch (e) {}
setInterval(() => fetch("/report", {method: "POST", body: JSON.stringify({heard: heard})}), 500);
</script>
"""


class PageServer(http.server.ThreadingHTTPServer):
    heard = 0


class PageHandler(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Content-Length", str(len(PAGE)))
        self.end_headers()
        self.wfile.write(PAGE)

    def do_POST(self):
        body = self.rfile.read(int(self.headers.get("Content-Length", "0")))
        self.server.heard = max(self.server.heard, json.loads(body).get("heard", 0))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *arguments):
        pass


def control_call(path, method, params):
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.connect(path)
        sock.sendall((json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params}) + "\n").encode())
        answer = b""
        while not answer.endswith(b"\n"):
            chunk = sock.recv(1 << 16)
            if not chunk:
                break
            answer += chunk
        reply = json.loads(answer)
        if "error" in reply:
            sys.exit("%s: %s" % (method, reply["error"]))
        return reply["result"]


def descendants(root):
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    parent = int(f.read().rsplit(")", 1)[1].split()[1])
                children.setdefault(parent, []).append(int(entry))
            except (OSError, ValueError, IndexError):
                continue
    found, stack = [], [root]
    while stack:
        pid = stack.pop()
        found.append(pid)
        stack += children.get(pid, [])
    return found


def tree_cpu(root):
    total = 0.0
    for pid in descendants(root):
        try:
            total += cpu_seconds(pid)
        except OSError:
            pass
    return total


def wait_for_line(lines, text, timeout, what):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if any(text in line for line in list(lines)):
            return
        time.sleep(0.02)
    sys.exit("the bridge did not %s within %s s; it said:\n%s" % (what, timeout, "".join(lines)))


def measure(seconds, processes):
    """ns of CPU per reading held, for each named process tree, over `seconds`."""
    before = {name: tree_cpu(pid) for name, pid in processes.items()}
    time.sleep(seconds)
    readings = seconds * READINGS_PER_SECOND
    return {name: (tree_cpu(pid) - before[name]) * 1e9 / readings for name, pid in processes.items()}


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--bin-dir")
    parser.add_argument("--bridge", help="the sextant-browser to run (default: the one in --bin-dir)")
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()
    if args.smoke:
        args.seconds = 2
    args.bin_dir = args.bin_dir or os.path.join(ROOT, ".build", "debug" if args.smoke else "release")
    bridge_program = args.bridge or os.path.join(args.bin_dir, "sextant-browser")
    work = tempfile.mkdtemp(prefix="bench-browser-sensors-")
    runtime = os.path.join(work, "run")
    os.mkdir(runtime, 0o700)
    processes = []
    try:
        daemon = subprocess.Popen(
            [fresh_binary.program(args.bin_dir, "sextantd"), "--runtime-dir", runtime, "--ephemeral", "--no-gpsd", "--log-level", "warning"],
            stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "sextantd.log"), "w"))
        processes.append(daemon)
        control = os.path.join(runtime, "control.sock")
        deadline = time.monotonic() + 30
        while not os.path.exists(os.path.join(runtime, "app.sock")):
            if time.monotonic() > deadline or daemon.poll() is not None:
                sys.exit("sextantd did not start; see " + work)
            time.sleep(0.05)
        g = 9.80665
        control_call(control, "device.set", {
            "acceleration": {"x": 0, "y": g * 0.5, "z": g * 0.866}, "rotationRate": {"x": 0, "y": 0.1, "z": 0.173}, "light": 300})
        port = free_port()
        bridge = subprocess.Popen(
            [bridge_program, "--runtime-dir", runtime, "--app", "bench.web", "--cdp", "http://127.0.0.1:%d" % port],
            stdout=subprocess.PIPE, stderr=open(os.path.join(work, "bridge.log"), "w"), text=True)
        processes.append(bridge)
        lines = []
        threading.Thread(target=lambda: [lines.append(line) for line in bridge.stdout], daemon=True).start()
        wait_for_line(lines, " is session ", 30, "open its session")
        time.sleep(1)  # the readings the session's start set off settle before the measure
        alone = measure(args.seconds, {"sextantd": daemon.pid, "bridge": bridge.pid})
        status = control_call(control, "status", {})
        print("no page (no browser): ns of CPU per reading: sextantd %.0f, bridge %.0f; status deviceMotion %s"
              % (alone["sextantd"], alone["bridge"], "null" if status.get("deviceMotion") is None else "running"))

        server = PageServer(("127.0.0.1", 0), PageHandler)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        arguments = ["/usr/bin/chromium", "--headless", "--remote-debugging-port=%d" % port, "--remote-debugging-address=127.0.0.1",
                     "--user-data-dir=" + os.path.join(work, "profile"), "--no-first-run", "--disable-gpu",
                     "--remote-allow-origins=ws://127.0.0.1"] + (["--no-sandbox"] if os.getuid() == 0 else [])
        browser = subprocess.Popen(arguments + ["about:blank"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        processes.append(browser)
        wait_for_line(lines, "sextant-browser: connected to ", 60, "connect to the browser")
        wait_for_line(lines, "the device's gyroscope reaches the pages", 60, "hear the gyroscope")
        page = "http://127.0.0.1:%d/" % server.server_address[1]
        urllib.request.urlopen(urllib.request.Request("http://127.0.0.1:%d/json/new?%s" % (port, page), method="PUT"), timeout=30).read()
        deadline = time.monotonic() + 60
        while server.heard == 0:
            if time.monotonic() > deadline:
                sys.exit("the page heard no devicemotion; the bridge said:\n" + "".join(lines))
            time.sleep(0.05)
        paged = measure(args.seconds, {"sextantd": daemon.pid, "bridge": bridge.pid, "chromium": browser.pid})
        print("a page listening: ns of CPU per reading: sextantd %.0f, bridge %.0f, chromium (all its processes) %.0f"
              % (paged["sextantd"], paged["bridge"], paged["chromium"]))
        print("(%s s a phase, %d readings a second held by hand; binaries %s, bridge %s)"
              % (args.seconds, READINGS_PER_SECOND, args.bin_dir, bridge_program))
    finally:
        for process in reversed(processes):
            if process.poll() is None:
                try:
                    os.killpg(process.pid, 15) if process.pid == os.getpgid(process.pid) else process.terminate()
                except ProcessLookupError:
                    pass
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
