#!/usr/bin/python3
"""Measures what following a replay costs the panel (issue 25, "Performance").

Starts a private sextantd, connects N apps to app.sock as Tools/bench/bench-fanout.py does (each
granted, streaming locations and orientation, read by Tools/bench/fanout-reader.c), starts
sextant-panel on it with K WebSocket readers (pages, as a browser's: Origin and the token as a subprotocol),
and a plain `sextantctl watch --json` beside them, then replays at speed 1 a trace of 10 Hz
fixes and a 50 Hz accelerometer. It prints, for the panel and for the plain watch reader
of the same run:
- the process's CPU during the replay, as a share of one core (/proc/PID/stat);
- how long after it was due (replay start + t) each device fix reached the reader:
  p50, p99 and max over the fixes (for the pages: the latest of the K);
- the panel's `events` frames a second per page, the events they carried, and any
  `dropped` count.

Usage: Tools/bench/bench-panel.py [--apps 1000] [--pages 5] [--seconds 20] [--bin-dir .build/release]
                            [--smoke]
--smoke: 20 apps, 1 page for 2 s against the debug build; fails if a fix misses a reader.
"""

import argparse
import base64
import importlib.util
import json
import os
import re
import resource
import selectors
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
from proc_figures import cpu_seconds  # noqa: E402
import fresh_binary  # noqa: E402  (beside this script: refuses a stale sextantd or sextantctl)

_spec = importlib.util.spec_from_file_location("bench_fanout", os.path.join(ROOT, "Tools", "bench", "bench-fanout.py"))
fanout = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fanout)

FIX = b'"method":"location","params":{'
TIME = re.compile(rb'"time":"([^"]+)"')


def make_trace(path, seconds):
    """10 Hz fixes walking east, a 50 Hz accelerometer turning the phone every 4 s."""
    with open(path, "w") as out:
        out.write(json.dumps({"sextant": "trace", "version": 1, "start": fanout.START}) + "\n")
        for step in range(seconds * 50):
            t = step / 50
            x, y = (0.0, 9.81) if int(t // 4) % 2 == 0 else (9.81, 0.0)
            out.write(json.dumps({"t": round(t, 2), "accel": {"x": x, "y": y, "z": 0.3}}) + "\n")
            if step % 5 == 0:
                out.write(json.dumps({"t": round(t, 2), "location": {"lat": 48.85, "lon": 2.29 + t * 1e-5, "hAcc": 5}}) + "\n")


def device_fix_times(chunk):
    """The times of the device's own fixes (a `location` event without `app`) in bytes
    holding watch lines: sliced, not parsed, so that the reader costs little beside the panel."""
    times = []
    start = chunk.find(FIX)
    while start >= 0:
        end = chunk.find(FIX, start + 1)
        event = chunk[start:end if end >= 0 else len(chunk)]
        if b'"app":"' not in event:
            found = TIME.search(event)
            if found:
                times.append(found.group(1).decode())
        start = end
    return times


class PageReader(threading.Thread):
    """K WebSockets to the panel, read on one thread; the first arrival of each fix per page."""

    def __init__(self, port, token, count):
        super().__init__(daemon=True)
        self.sockets, self.arrivals, self.frames, self.events, self.dropped = [], [], [0] * count, [0] * count, 0
        for _ in range(count):
            s = socket.create_connection(("127.0.0.1", port))
            key = base64.b64encode(os.urandom(16)).decode()
            s.sendall((f"GET /ws HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nOrigin: http://127.0.0.1:{port}\r\n"
                       f"Sec-WebSocket-Protocol: sextant-panel, sextant-token.{token}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                       f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n").encode())
            reply = b""
            while b"\r\n\r\n" not in reply:
                reply += s.recv(4096)
            head, rest = reply.split(b"\r\n\r\n", 1)
            if b" 101 " not in head.split(b"\r\n")[0]:
                sys.exit("the panel refused the WebSocket: " + head.decode(errors="replace"))
            self.sockets.append((s, bytearray(rest)))
            self.arrivals.append({})
        self.stopping = threading.Event()

    def run(self):
        selector = selectors.DefaultSelector()
        for index, (s, _) in enumerate(self.sockets):
            s.setblocking(False)
            selector.register(s, selectors.EVENT_READ, index)
        while not self.stopping.is_set():
            for key, _ in selector.select(timeout=0.2):
                index = key.data
                s, buffer = self.sockets[index]
                data = s.recv(1 << 20)
                if not data:
                    selector.unregister(s)
                    continue
                now = time.monotonic()
                buffer += data
                self.take_frames(index, buffer, now)

    def take_frames(self, index, buffer, now):
        while len(buffer) >= 2:
            length, start = buffer[1] & 0x7F, 2
            if length == 126:
                if len(buffer) < 4:
                    return
                length, start = int.from_bytes(buffer[2:4], "big"), 4
            elif length == 127:
                if len(buffer) < 10:
                    return
                length, start = int.from_bytes(buffer[2:10], "big"), 10
            if len(buffer) < start + length:
                return
            payload = bytes(buffer[start:start + length])
            del buffer[:start + length]
            if not payload.startswith(b'{"events":'):
                continue
            self.frames[index] += 1
            self.events[index] += payload.count(b'{"jsonrpc":')
            dropped = payload.rfind(b'],"dropped":')
            if dropped >= 0:
                self.dropped += int(payload[dropped + 12:-1])
            for t in device_fix_times(payload):
                self.arrivals[index].setdefault(t, now)


class WatchReader(threading.Thread):
    """`sextantctl watch --json`: the plain control-socket reader the panel is compared to."""

    def __init__(self, bin_dir, runtime):
        super().__init__(daemon=True)
        self.process = subprocess.Popen([fresh_binary.program(bin_dir, "sextantctl"), "--runtime-dir", runtime, "watch", "--json"],
                                        stdout=subprocess.PIPE, bufsize=0)
        self.arrivals = {}

    def run(self):
        buffer = b""
        while True:
            data = self.process.stdout.read(1 << 16)
            if not data:
                return
            now = time.monotonic()
            buffer += data
            lines, _, buffer = buffer.rpartition(b"\n")
            for line in lines.split(b"\n"):
                if b'"location"' in line and b'"app":"' not in line:
                    found = TIME.search(line)
                    if found:
                        self.arrivals.setdefault(found.group(1).decode(), now)


def start_panel(bin_dir, runtime, work):
    panel = subprocess.Popen([os.path.join(bin_dir, "sextant-panel"), "--runtime-dir", runtime, "--assets", work],
                             stdout=subprocess.PIPE, stderr=open(os.path.join(work, "panel.log"), "w"))
    line = panel.stdout.readline().decode().strip()
    found = re.match(r"http://127\.0\.0\.1:(\d+)/#token=([0-9a-f]{64})$", line)
    if not found:
        sys.exit(f"sextant-panel printed {line!r}; see {work}/panel.log")
    return panel, int(found.group(1)), found.group(2)


def lags(arrivals, started):
    """Milliseconds after due of each fix after the first (which went out before the resume)."""
    due = {t: started + fanout.seconds_of(t) for t in arrivals}
    return sorted(max(0.0, arrivals[t] - due[t]) * 1000 for t in arrivals if due[t] > started + 0.05)


def percentile(figures, share):
    return figures[min(len(figures) - 1, int(len(figures) * share))]


def report(args, figures):
    print(f"apps {args.apps}, pages {args.pages}, {args.seconds} s at speed 1 (10 Hz fixes, 50 Hz accelerometer), {args.bin_dir}")
    print(f"{'':34} {'sextant-panel':>16} {'sextantctl watch':>18}")
    for name, panel, watch in figures:
        print(f"{name:34} {panel:>16} {watch:>18}")
    print(f"(load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs)")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--apps", type=int, default=1000)
    parser.add_argument("--pages", type=int, default=5)
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--bin-dir", default=None, help="default .build/release (.build/debug with --smoke)")
    parser.add_argument("--smoke", action="store_true", help="20 apps, 1 page, 2 s, the debug build: checks that it works")
    args = parser.parse_args()
    if args.smoke:
        args.apps, args.pages, args.seconds = 20, 1, 2
    args.bin_dir = args.bin_dir or os.path.join(ROOT, ".build", "debug" if args.smoke else "release")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, args.apps * 2 + 256)), hard))

    work = tempfile.mkdtemp(prefix="sextant-bench-panel-")
    runtime = os.path.join(work, "run")
    trace = os.path.join(work, "walk.jsonl")
    make_trace(trace, args.seconds)
    reader = fanout.build_c_reader(work)
    daemon = fanout.start_daemon(args.bin_dir, args.apps, work, runtime)
    panel = watch = None
    try:
        apps = fanout.connect_apps(runtime, args.apps)
        fixes = args.seconds * 10
        descriptors = [s.fileno() for s in apps]
        draining = subprocess.Popen([reader, str(fixes), str(args.seconds + 30)], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL,
                                    pass_fds=descriptors)
        draining.stdin.write(" ".join(map(str, descriptors)).encode())
        draining.stdin.close()
        panel, port, token = start_panel(args.bin_dir, runtime, work)
        pages = PageReader(port, token, args.pages)
        pages.start()
        watch = WatchReader(args.bin_dir, runtime)
        watch.start()
        time.sleep(0.5)
        control = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        control.connect(os.path.join(runtime, "control.sock"))
        panel_cpu, watch_cpu, wall = cpu_seconds(panel.pid), cpu_seconds(watch.process.pid), time.monotonic()
        started, _ = fanout.start_replay(control, trace)
        deadline = started + args.seconds + 30
        while time.monotonic() < deadline and (min(len(a) for a in pages.arrivals) < fixes or len(watch.arrivals) < fixes):
            time.sleep(0.1)
        elapsed = time.monotonic() - wall
        panel_cpu = (cpu_seconds(panel.pid) - panel_cpu) / elapsed
        watch_cpu = (cpu_seconds(watch.process.pid) - watch_cpu) / elapsed
        pages.stopping.set()
        latest = {t: max(a.get(t, 0) for a in pages.arrivals) for t in pages.arrivals[0]}
        page_lags, watch_lags = lags(latest, started), lags(watch.arrivals, started)
        missing = {"the pages": fixes - min(len(a) for a in pages.arrivals), "sextantctl watch": fixes - len(watch.arrivals)}
        report(args, [
            ("CPU, share of one core", f"{panel_cpu * 100:.1f} %", f"{watch_cpu * 100:.1f} %"),
            ("device fix after due, p50", f"{statistics.median(page_lags):.2f} ms", f"{statistics.median(watch_lags):.2f} ms"),
            ("device fix after due, p99", f"{percentile(page_lags, 0.99):.2f} ms", f"{percentile(watch_lags, 0.99):.2f} ms"),
            ("device fix after due, max", f"{page_lags[-1]:.2f} ms", f"{watch_lags[-1]:.2f} ms"),
            ("events frames a second, per page", f"{statistics.mean(pages.frames) / elapsed:.1f}", "-"),
            ("events a second, per page", f"{statistics.mean(pages.events) / elapsed:.0f}", "-"),
            ("events dropped, all pages", f"{pages.dropped}", "-"),
            ("device fixes missed (of each reader's)", f"{missing['the pages']}", f"{missing['sextantctl watch']}"),
        ])
        # A reader that falls behind loses its oldest sensor events (sextant-protocol(7),
        # "Delivery and slow clients"): a figure at full size, a failure at smoke size.
        for reader, count in missing.items():
            if count and args.smoke:
                sys.exit(f"{reader} missed {count} of the {fixes} device fixes")
        draining.wait(timeout=args.seconds + 60)
    finally:
        for process in (watch.process if watch else None, panel, daemon):
            if process:
                process.terminate()
                try:
                    process.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
