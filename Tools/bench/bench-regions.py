#!/usr/bin/python3
"""Measures what regions (geofences, RULES R1-R12) cost a running daemon.

1. Regions beside the plain fan-out, from the same run: Tools/bench/bench-fanout.py twice in a
   row on the same build, N apps with no region and then with 20 regions each (iOS's
   limit), and their daemon CPU and last-app latency side by side.
2. 100,000 regions held by one daemon (1000 apps x 100, --max-regions 100), added over
   the control socket (`regions.add`, each one stored): the daemon's resident memory
   before and after, and per region; `region.monitor`'s round trip on app.sock with them
   all held; and the daemon's CPU per fix, replaying fixes at speed max with no region
   and then with them all.

3. (--far-and-near N, alone) a fix's cost with N regions held, most far from the device
   and a few near its walk: the regions are written into the store before the daemon
   starts (it monitors them all again), the walk replayed at speed max with none and then
   with them all. With a spatial index the cost follows the regions near the device.

Usage: Tools/bench/bench-regions.py [--apps 1000] [--seconds 20] [--regions 100000]
                              [--bin-dir .build/release] [--smoke]
       Tools/bench/bench-regions.py --far-and-near 250000 [--bin-dir .build/debug]
--smoke: 20 apps for 2 s, and 1000 regions, against the debug build; fails if anything
is refused or any fix misses an app.
"""

import argparse
import json
import os
import re
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time

from proc_figures import cpu_seconds, status_kb
import fresh_binary  # beside this script: refuses a stale sextantd or sextantctl

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the repository, above Tools/bench/
START = "2026-03-01T08:00:00.000Z"
PER_APP = 100


def fanout(args, regions_per_app):
    """One run of Tools/bench/bench-fanout.py; its figures by name."""
    command = [sys.executable, os.path.join(ROOT, "Tools", "bench", "bench-fanout.py"), "--bin-dir", args.bin_dir,
               "--regions-per-app", str(regions_per_app)]
    command += ["--smoke"] if args.smoke else ["--apps", str(args.apps), "--seconds", str(args.seconds)]
    result = subprocess.run(command, capture_output=True, text=True)
    if result.returncode != 0:
        sys.exit(f"bench-fanout.py --regions-per-app {regions_per_app} failed:\n{result.stdout}{result.stderr}")
    figures = {}
    for name, pattern in [("cpu", r"daemon CPU, share of one core\s+([0-9.]+) %"),
                          ("p50", r"last app fix after due, p50\s+([0-9.]+) ms"),
                          ("p99", r"last app fix after due, p99\s+([0-9.]+) ms"),
                          ("max", r"last app fix after due, max\s+([0-9.]+) ms")]:
        found = re.search(pattern, result.stdout)
        if not found:
            sys.exit(f"bench-fanout.py printed no {name}:\n{result.stdout}")
        figures[name] = float(found.group(1))
    return figures


class Connection:
    """A JSON-RPC connection to one of the daemon's sockets, requests pipelined."""

    def __init__(self, path, daemon=None):
        """Connects to `path`; with `daemon`, waits for it to listen (30 s at most)."""
        deadline = time.monotonic() + 30
        while True:
            self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            try:
                self.sock.connect(path)
                break
            except OSError:
                self.sock.close()
                if daemon is None or daemon.poll() is not None or time.monotonic() > deadline:
                    sys.exit(f"sextantd does not listen on {path}")
                time.sleep(0.05)
        self.buffer = b""
        self.next_id = 1

    def send(self, method, params=None):
        ident = self.next_id
        self.next_id += 1
        message = {"jsonrpc": "2.0", "id": ident, "method": method}
        if params is not None:
            message["params"] = params
        self.sock.sendall((json.dumps(message) + "\n").encode())
        return ident

    def answer(self, ident):
        while True:
            while b"\n" in self.buffer:
                line, self.buffer = self.buffer.split(b"\n", 1)
                message = json.loads(line)
                if message.get("id") == ident:
                    if "error" in message:
                        sys.exit(f"refused: {message['error']}")
                    return message.get("result")
            data = self.sock.recv(1 << 20)
            if not data:
                sys.exit("the daemon closed a connection")
            self.buffer += data

    def call(self, method, params=None):
        return self.answer(self.send(method, params))


def rss_mib(pid):
    return status_kb(pid, "VmRSS") / 1024


def make_walk(path, fixes):
    """`fixes` fixes at 10 Hz walking east through the regions' area."""
    with open(path, "w") as out:
        out.write(json.dumps({"sextant": "trace", "version": 1, "start": START}) + "\n")
        for i in range(fixes):
            out.write(json.dumps({"t": i / 10, "location": {"lat": 48.85, "lon": 2.28 + i * 2e-5, "hAcc": 5}}) + "\n")


def cpu_per_fix(daemon, control, walk, fixes):
    """Replays the walk at speed max; the daemon's CPU per fix, microseconds."""
    before = cpu_seconds(daemon.pid)
    control.call("replay.start", {"path": walk, "speed": "max"})
    deadline = time.monotonic() + 300
    while control.call("replay.status")["state"] != "finished":
        if time.monotonic() > deadline:
            sys.exit("the replay did not finish")
        time.sleep(0.02)
    return (cpu_seconds(daemon.pid) - before) / fixes * 1e6


def add_regions(control, count):
    """`count` regions over the control socket, 1000 in flight at a time: PER_APP per app,
    scattered over about 20 km around the walk."""
    in_flight = []
    for index in range(count):
        app, k = divmod(index, PER_APP)
        lat = 48.85 + 0.09 * (((index * 7919) % 2001 - 1000) / 1000)
        lon = 2.29 + 0.13 * (((index * 104729) % 2001 - 1000) / 1000)
        in_flight.append(control.send("regions.add", {"app": f"com.example.geo{app}", "identifier": f"r{k}",
                                                      "lat": lat, "lon": lon, "radius": 150}))
        if len(in_flight) >= 1000:
            for ident in in_flight:
                control.answer(ident)
            in_flight = []
    for ident in in_flight:
        control.answer(ident)


def monitor_round_trips(runtime, samples):
    """`region.monitor` round trips of one app (replacing its own region each time), ms."""
    app = Connection(os.path.join(runtime, "app.sock"))
    app.call("hello", {"app": "com.example.geo0"})
    app.call("authorization.request", {"level": "always"})
    trips = []
    for i in range(samples):
        sent = time.monotonic()
        app.call("region.monitor", {"identifier": "r0", "lat": 48.85, "lon": 2.29 + i * 1e-6, "radius": 150})
        trips.append((time.monotonic() - sent) * 1000)
    return sorted(trips)


def held(args):
    """Part 2: the daemon holding `args.regions` regions."""
    work = tempfile.mkdtemp(prefix="sextant-bench-regions-")
    runtime = os.path.join(work, "run")
    walk = os.path.join(work, "walk.jsonl")
    fixes = 200 if args.smoke else 300
    make_walk(walk, fixes)
    daemon = subprocess.Popen(
        [fresh_binary.program(args.bin_dir, "sextantd"), "--runtime-dir", runtime, "--state-dir", os.path.join(work, "state"),
         "--no-gpsd", "--no-iio", "--prompt-policy", "allowAlways", "--log-level", "warning",
         "--max-regions", str(PER_APP)],
        stderr=open(os.path.join(work, "sextantd.log"), "w"))
    try:
        control = Connection(os.path.join(runtime, "control.sock"), daemon)
        bare_cpu = cpu_per_fix(daemon, control, walk, fixes)
        bare_rss = rss_mib(daemon.pid)
        began = time.monotonic()
        add_regions(control, args.regions)
        adding = time.monotonic() - began
        held_count = control.call("status")["regions"]["count"]
        if held_count != args.regions:
            sys.exit(f"the daemon holds {held_count} regions, not {args.regions}")
        full_rss = rss_mib(daemon.pid)
        trips = monitor_round_trips(runtime, 50 if args.smoke else 500)
        full_cpu = cpu_per_fix(daemon, control, walk, fixes)
        return {"regions": held_count, "adding": adding, "bare_rss": bare_rss, "full_rss": full_rss, "trips": trips,
                "bare_cpu": bare_cpu, "full_cpu": full_cpu, "fixes": fixes}
    finally:
        daemon.terminate()
        daemon.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)


def seed_store(state, count):
    """`count` regions in the store: all but 20 of them 28-57 km west of the walk, 100 an app;
    20 along the walk (one app). Written in one transaction, as the daemon stores them."""
    import sqlite3
    db = sqlite3.connect(os.path.join(state, "sextant.sqlite3"))
    rows = []
    for index in range(count - 20):
        app, k = divmod(index, PER_APP)
        lat = 48.85 + 0.45 * (((index * 7919) % 2001 - 1000) / 1000)
        lon = 1.9 - 0.4 * (((index * 104729) % 1001) / 1000)
        rows.append((f"com.example.far{app}", f"r{k}", lat, lon, 150.0, 1, 1, None, 0, None))
    for k in range(20):
        rows.append(("com.example.near", f"n{k}", 48.85, 2.28 + k * 0.0003, 15.0, 1, 1, None, 0, None))
    with db:
        db.executemany("INSERT INTO region VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    db.close()


def far_and_near(args):
    """Part 3: the CPU a fix costs with `args.far_and_near` regions held, and without."""
    work = tempfile.mkdtemp(prefix="sextant-bench-regions-")
    runtime, state = os.path.join(work, "run"), os.path.join(work, "state")
    walk = os.path.join(work, "walk.jsonl")
    fixes = 300
    make_walk(walk, fixes)
    command = [fresh_binary.program(args.bin_dir, "sextantd"), "--runtime-dir", runtime, "--state-dir", state, "--no-gpsd", "--no-iio",
               "--log-level", "warning", "--max-regions", str(PER_APP)]
    log = open(os.path.join(work, "sextantd.log"), "w")
    try:
        daemon = subprocess.Popen(command, stderr=log)
        control = Connection(os.path.join(runtime, "control.sock"), daemon)
        bare_cpu = cpu_per_fix(daemon, control, walk, fixes)
        bare_rss = rss_mib(daemon.pid)
        daemon.terminate()
        daemon.wait(timeout=30)
        seed_store(state, args.far_and_near)
        began = time.monotonic()
        daemon = subprocess.Popen(command, stderr=log)
        control = Connection(os.path.join(runtime, "control.sock"), daemon)
        held_count = control.call("status")["regions"]["count"]
        started = time.monotonic() - began
        if held_count != args.far_and_near:
            sys.exit(f"the daemon holds {held_count} regions, not {args.far_and_near}")
        full_rss = rss_mib(daemon.pid)
        full_cpu = cpu_per_fix(daemon, control, walk, fixes)
        again_cpu = cpu_per_fix(daemon, control, walk, fixes)
        daemon.terminate()
        daemon.wait(timeout=30)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    print(f"3. {held_count} regions held ({held_count - 20} 28-57 km away, 20 along the walk), {args.bin_dir}")
    print(f"{'started with them all in':34} {started:9.1f} s")
    print(f"{'RSS none / all held':34} {bare_rss:9.1f} MiB / {full_rss:.1f} MiB")
    print(f"{'daemon CPU a fix, no regions':34} {bare_cpu:9.1f} us   ({fixes} fixes at speed max)")
    print(f"{'daemon CPU a fix, all held':34} {full_cpu:9.1f} us   (the first replay: its first fix decides every region)")
    print(f"{'daemon CPU a fix, all held again':34} {again_cpu:9.1f} us   (+{again_cpu - bare_cpu:.1f} us over none)")
    print(f"(load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs)")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--far-and-near", type=int, default=0, metavar="N",
                        help="part 3 alone: a fix's cost with N regions held, most far from the device")
    parser.add_argument("--apps", type=int, default=1000)
    parser.add_argument("--seconds", type=int, default=20)
    parser.add_argument("--regions", type=int, default=100_000)
    parser.add_argument("--bin-dir", default=None, help="default .build/release (.build/debug with --smoke)")
    parser.add_argument("--smoke", action="store_true", help="20 apps, 2 s, 1000 regions, the debug build")
    args = parser.parse_args()
    if args.smoke:
        args.apps, args.seconds, args.regions = 20, 2, 1000
    args.bin_dir = args.bin_dir or os.path.join(ROOT, ".build", "debug" if args.smoke else "release")
    if args.far_and_near:
        far_and_near(args)
        return

    plain, geofenced = fanout(args, 0), fanout(args, 20)
    print(f"1. fan-out, {args.apps} apps, {args.seconds} s at speed 1 (10 Hz fixes, 100 Hz accelerometer), {args.bin_dir}")
    print(f"{'':34} {'no regions':>12} {'20 regions/app':>16} {'difference':>12}")
    print(f"{'daemon CPU, share of one core':34} {plain['cpu']:10.1f} % {geofenced['cpu']:14.1f} % "
          f"{geofenced['cpu'] - plain['cpu']:+10.1f} %")
    for name in ("p50", "p99", "max"):
        print(f"{'last app fix after due, ' + name:34} {plain[name]:9.2f} ms {geofenced[name]:13.2f} ms "
              f"{geofenced[name] - plain[name]:+9.2f} ms")

    figures = held(args)
    trips = figures["trips"]
    print(f"2. {figures['regions']} regions held ({PER_APP} for each of {figures['regions'] // PER_APP} apps), {args.bin_dir}")
    print(f"{'added over control.sock in':34} {figures['adding']:10.1f} s   "
          f"({figures['adding'] / figures['regions'] * 1e6:.0f} us a region, 1000 in flight)")
    print(f"{'RSS before / after':34} {figures['bare_rss']:9.1f} MiB / {figures['full_rss']:.1f} MiB   "
          f"({(figures['full_rss'] - figures['bare_rss']) * 1024 * 1024 / figures['regions']:.0f} bytes a region)")
    print(f"{'region.monitor round trip, p50':34} {statistics.median(trips):9.2f} ms")
    print(f"{'region.monitor round trip, p99':34} {trips[min(len(trips) - 1, int(len(trips) * 0.99))]:9.2f} ms   "
          f"({len(trips)} calls; max {trips[-1]:.2f} ms)")
    print(f"{'daemon CPU a fix, no regions':34} {figures['bare_cpu']:9.1f} us")
    print(f"{'daemon CPU a fix, all held':34} {figures['full_cpu']:9.1f} us   "
          f"(+{figures['full_cpu'] - figures['bare_cpu']:.1f} us; at 10 Hz "
          f"{(figures['full_cpu'] - figures['bare_cpu']) * 10 / 1e4:.2f} % of a core; {figures['fixes']} fixes at speed max)")
    print(f"(load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs)")


if __name__ == "__main__":
    main()
