#!/usr/bin/python3
"""What the fused attitude costs the daemon fanned out to many apps (issue 40, Performance),
beside the accelerometer alone, from the same run.

Starts a private sextantd and connects N apps to app.sock (hello only: motion needs no
authorization, RULES M3/D5). Two replays at speed 1 to the same daemon and apps:
1. the accelerometer alone at 200 Hz, every app streaming `motion` at 50 Hz
   (`motion.start {interval: 0.02}`): today's figure;
2. a 200 Hz accelerometer, a 200 Hz gyroscope and a 50 Hz magnetometer, the phone turning
   about its vertical at 30°/s, every app streaming the fused attitude at 50 Hz
   (`deviceMotion.start {interval: 0.02}`): one fusion a reading (RULES D1, D6), one event
   per app each 20 ms.
For each: the daemon's CPU as a share of one core (/proc), and how long after each event
was due the LAST app got it (p50, p99, max), read by Tools/bench/fanout-reader.c as
Tools/bench/bench-fanout.py does. With --attitude-figures BIN (Benchmarks' attitude-figures,
`cd Benchmarks && swift build -c release --product attitude-figures`), its per-reading cost
of the fusion and of the orientation judge are printed beside.

Usage: Tools/bench/bench-attitude-fanout.py [--apps 1000] [--seconds 30] [--bin-dir .build/release]
                                     [--attitude-figures BIN] [--smoke]
--smoke: 20 apps for 2 s against the debug build; fails if an event misses an app.
"""

import argparse
import importlib.util
import math
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the repository, above Tools/bench/
sys.path.insert(0, os.path.join(ROOT, "Tools", "bench"))
_spec = importlib.util.spec_from_file_location("bench_fanout", os.path.join(ROOT, "Tools", "bench", "bench-fanout.py"))
fanout = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(fanout)

EVENT_HZ = 50  # every app's interval, 0.02 s
TURN = 30.0  # degrees a second about the vertical


def make_trace(path, seconds, fused):
    """200 Hz accelerometer (face up, at rest: gravity); with `fused`, a 200 Hz gyroscope
    turning the phone at TURN °/s about its z axis and a 50 Hz magnetometer whose field turns
    with it (20 µT north, 40 µT down, in the device frame)."""
    rate = math.radians(TURN)
    with open(path, "w") as out:
        out.write(json.dumps({"sextant": "trace", "version": 1, "start": fanout.START}) + "\n")
        for step in range(seconds * 200):
            t = round(step / 200, 3)
            out.write(json.dumps({"t": t, "accel": {"x": 0.0, "y": 0.0, "z": 9.81}}) + "\n")
            if not fused:
                continue
            out.write(json.dumps({"t": t, "gyro": {"x": 0.0, "y": 0.0, "z": round(rate, 6)}}) + "\n")
            if step % 4 == 0:
                angle = rate * t  # the device turned left by this much: north turns right in its frame
                out.write(json.dumps({"t": t, "magnet": {"x": round(20 * math.sin(angle), 4), "y": round(20 * math.cos(angle), 4), "z": -40.0}}) + "\n")


def start_streams(apps, method, ident, params=None):
    for s in apps:
        fanout.rpc(s, method, params, ident)
    for s in apps:
        fanout.read_until_id(s, ident)


def attitude_figures(binary):
    """The Benchmarks program's per-reading lines (the judge's and the fusion's)."""
    run = subprocess.run([binary], capture_output=True, text=True, check=True, timeout=600)
    return [line for line in run.stdout.splitlines() if "per reading" in line]


def print_beside(args, runs, figures):
    print(f"apps {args.apps}, {args.seconds} s at speed 1, every app at {EVENT_HZ} Hz, {args.bin_dir}")
    print(f"{'':34} " + "".join(f"{label:>30}" for label, *_ in runs))
    print(f"{'daemon CPU, share of one core':34} " + "".join(f"{cpu * 100:28.1f} %" for _, cpu, _ in runs))
    for name, share in (("p50", 0.5), ("p99", 0.99)):
        print(f"{'last app event after due, ' + name:34} " + "".join(f"{fanout.percentile(lags, share):27.2f} ms" for _, _, lags in runs))
    print(f"{'last app event after due, max':34} " + "".join(f"{lags[-1]:27.2f} ms" for _, _, lags in runs))
    print(f"{'events per app':34} " + "".join(f"{len(lags):30}" for _, _, lags in runs))
    print(f"(load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs; readings a second: 200 accelerometer; "
          f"fused: 200 + 200 gyroscope + 50 magnetometer)")
    for line in figures:
        print(line)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--apps", type=int, default=1000)
    parser.add_argument("--seconds", type=int, default=30)
    parser.add_argument("--bin-dir", default=None, help="default .build/release (.build/debug with --smoke)")
    parser.add_argument("--attitude-figures", default=None, help="Benchmarks' attitude-figures binary, run and printed beside")
    parser.add_argument("--smoke", action="store_true", help="20 apps, 2 s, the debug build: checks that it works")
    args = parser.parse_args()
    if args.smoke:
        args.apps, args.seconds = 20, 2
    args.reader = "c"
    args.bin_dir = args.bin_dir or os.path.join(ROOT, ".build", "debug" if args.smoke else "release")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, args.apps * 2 + 256)), hard))
    work = tempfile.mkdtemp(prefix="sextant-bench-attitude-")
    runtime = os.path.join(work, "run")
    accel, fused = os.path.join(work, "accel.jsonl"), os.path.join(work, "fused.jsonl")
    make_trace(accel, args.seconds, fused=False)
    make_trace(fused, args.seconds, fused=True)
    reader = fanout.build_c_reader(work)
    daemon = fanout.start_daemon(args.bin_dir, args.apps, work, runtime)
    try:
        apps = []
        for i in range(args.apps):
            s = fanout.socket.socket(fanout.socket.AF_UNIX, fanout.socket.SOCK_STREAM)
            s.connect(os.path.join(runtime, "app.sock"))
            fanout.rpc(s, "hello", {"app": f"com.example.level{i}"}, 1)
            apps.append(s)
        for s in apps:
            fanout.read_until_id(s, 1)
        start_streams(apps, "motion.start", 2, {"interval": 1 / EVENT_HZ})
        cpu_a, lags_a, _, _ = fanout.measure(runtime, daemon, apps, accel, args, reader, "motion", EVENT_HZ)
        start_streams(apps, "motion.stop", 3)
        start_streams(apps, "deviceMotion.start", 4, {"interval": 1 / EVENT_HZ})
        cpu_f, lags_f, _, _ = fanout.measure(runtime, daemon, apps, fused, args, reader, "deviceMotion", EVENT_HZ)
        figures = attitude_figures(args.attitude_figures) if args.attitude_figures else []
        print_beside(args, [("accelerometer → motion", cpu_a, lags_a), ("fused → deviceMotion", cpu_f, lags_f)], figures)
    finally:
        daemon.terminate()
        daemon.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
