#!/usr/bin/python3
"""Measures what fanning events out to many apps costs the daemon.

Starts a private sextantd, connects N apps to app.sock (each says hello, is granted
`authorizedAlways` by the prompt policy, streams locations and subscribes to orientation),
then replays a generated trace at speed 1: locations at 10 Hz and an accelerometer at
100 Hz that turns the device every few seconds. It prints
- the daemon's CPU during the replay, as a share of one core (from /proc/PID/stat);
- for each fix, how long after it was due (replay start + t) the LAST app received it:
  p50, p99 and max over the fixes;
- the daemon's resident memory with N apps connected.

Usage: Tools/bench-fanout.py [--apps 1000] [--seconds 20] [--bin-dir .build/release]
A smoke run for CI: --apps 20 --seconds 2 (checks it runs, not the figures).
"""

import argparse
import json
import math
import os
import resource
import selectors
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
START = "2026-03-01T08:00:00.000Z"


def make_trace(path, seconds):
    """10 Hz fixes walking east, 100 Hz accelerometer turning every 4 s."""
    with open(path, "w") as out:
        out.write(json.dumps({"sextant": "trace", "version": 1, "start": START}) + "\n")
        for step in range(seconds * 100):
            t = step / 100
            upright = int(t // 4) % 2 == 0
            x, y = (0.0, 9.81) if upright else (9.81, 0.0)
            out.write(json.dumps({"t": round(t, 2), "accel": {"x": x, "y": y, "z": 0.3}}) + "\n")
            if step % 10 == 0:
                out.write(json.dumps({"t": round(t, 2), "location": {"lat": 48.85, "lon": 2.29 + t * 1e-5, "hAcc": 5}}) + "\n")


def rpc(sock, method, params=None, ident=1):
    message = {"jsonrpc": "2.0", "id": ident, "method": method}
    if params is not None:
        message["params"] = params
    sock.sendall((json.dumps(message) + "\n").encode())


def read_until_id(sock, ident, buffer=b""):
    while True:
        while b"\n" in buffer:
            line, buffer = buffer.split(b"\n", 1)
            if json.loads(line).get("id") == ident:
                return buffer
        data = sock.recv(65536)
        if not data:
            sys.exit("the daemon closed a connection")
        buffer += data


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_mib(pid):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return math.nan


def connect_apps(runtime, count):
    apps = []
    for i in range(count):
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        s.connect(os.path.join(runtime, "app.sock"))
        rpc(s, "hello", {"app": f"com.example.bench{i}"}, 1)
        rpc(s, "authorization.request", {"level": "always"}, 2)
        apps.append(s)
    # Streaming needs the authorization in force: it is, once its answer has come.
    for s in apps:
        read_until_id(s, 2)
        rpc(s, "location.start", None, 3)
        rpc(s, "orientation.start", None, 4)
    for s in apps:
        read_until_id(s, 4)
    return apps


def receive(apps, replay_started, fixes, deadline):
    """Reads every app until each has `fixes` locations; returns, per fix time, the latest arrival."""
    selector = selectors.DefaultSelector()
    buffers, counts, latest = {}, {}, {}
    for s in apps:
        s.setblocking(False)
        selector.register(s, selectors.EVENT_READ)
        buffers[s], counts[s] = b"", 0
    done = 0
    while done < len(apps) and time.monotonic() < deadline:
        for key, _ in selector.select(timeout=0.5):
            s = key.fileobj
            data = s.recv(1 << 20)
            now = time.monotonic()
            buffers[s] += data
            *lines, buffers[s] = buffers[s].split(b"\n")
            for line in lines:
                if b'"method":"location"' not in line:
                    continue
                # The reader shares the machine with the daemon: slicing the time out of
                # the line costs it far less than parsing the JSON.
                at = line.find(b'"time":"') + 8
                t = line[at:line.find(b'"', at)].decode()
                latest[t] = max(latest.get(t, 0), now)
                counts[s] += 1
                if counts[s] == fixes:
                    done += 1
    return latest


def seconds_of(rfc3339):
    clock = rfc3339.split("T")[1].rstrip("Z")
    h, m, s = clock.split(":")
    return int(h) * 3600 + int(m) * 60 + float(s) - 8 * 3600


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--apps", type=int, default=1000)
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--bin-dir", default=os.path.join(ROOT, ".build", "release"))
    args = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, args.apps * 2 + 256)), hard))

    work = tempfile.mkdtemp(prefix="sextant-bench-fanout-")
    runtime = os.path.join(work, "run")
    trace = os.path.join(work, "walk.jsonl")
    make_trace(trace, args.seconds)
    daemon = subprocess.Popen(
        [os.path.join(args.bin_dir, "sextantd"), "--runtime-dir", runtime, "--state-dir", os.path.join(work, "state"),
         "--no-gpsd", "--no-iio", "--prompt-policy", "allowAlways", "--log-level", "warning"],
        stderr=open(os.path.join(work, "sextantd.log"), "w"))
    try:
        deadline = time.monotonic() + 30
        while not os.path.exists(os.path.join(runtime, "app.sock")):
            if time.monotonic() > deadline or daemon.poll() is not None:
                sys.exit("sextantd did not start; see " + work)
            time.sleep(0.05)
        time.sleep(0.2)
        apps = connect_apps(runtime, args.apps)
        idle_rss = rss_mib(daemon.pid)
        control = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        control.connect(os.path.join(runtime, "control.sock"))
        cpu_before, wall_before = cpu_seconds(daemon.pid), time.monotonic()
        rpc(control, "replay.start", {"path": trace, "speed": 1}, 1)
        read_until_id(control, 1)
        started = time.monotonic()
        latest = receive(apps, started, args.seconds * 10, started + args.seconds + 30)
        cpu = (cpu_seconds(daemon.pid) - cpu_before) / (time.monotonic() - wall_before)
        lags = sorted(max(0.0, arrival - (started + seconds_of(t))) * 1000 for t, arrival in latest.items())
        if not lags:
            sys.exit("no location reached the apps")
        p99 = lags[min(len(lags) - 1, int(len(lags) * 0.99))]
        print(f"apps {args.apps}, {args.seconds} s at speed 1 (10 Hz fixes, 100 Hz accelerometer), {args.bin_dir}")
        print(f"daemon CPU: {cpu * 100:.1f} % of a core")
        print(f"last app's fix after it was due: p50 {statistics.median(lags):.2f} ms, p99 {p99:.2f} ms, max {lags[-1]:.2f} ms "
              f"({len(lags)} fixes; includes up to ~1 ms of the start's own measurement error)")
        print(f"daemon RSS with {args.apps} apps: {idle_rss:.1f} MiB")
        if len(latest) != args.seconds * 10:
            sys.exit(f"only {len(latest)} of {args.seconds * 10} fixes reached every app")
    finally:
        daemon.terminate()
        daemon.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
