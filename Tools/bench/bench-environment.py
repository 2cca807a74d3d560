#!/usr/bin/python3
"""The light and proximity service's cost per sample, with and without a subscriber,
counted by callgrind (the way Tools/bench/bench-callgrind.py counts a fix).

A private sextantd (`--no-gpsd --no-iio --io-threads 1`) replays a trace of light and
proximity samples, each a change (lux and near alternate), at a paced speed; the count
starts after a warm-up replay. Two figures per case:
- the daemon's instructions per sample: the difference of two runs (N and 3N samples)
  over the difference of their samples, so that start-up and shut-down cancel; it holds
  the replay's own work (reading the line, scheduling, the arbiter), whoever listens;
- the Environment service's own instructions per sample: the inclusive cost of
  `EnvironmentService.reading` (callgrind_annotate), over the samples of the long run.
Cases: nobody hears the sensors; one app streams both (`light.start`, `proximity.start`);
the same for barometer samples and the altimeter (`altimeter.start`).
The accelerometer's path is printed beside them from the same kind of run (its judge
works whoever listens, RULES O1–O5). `route`: a drive's fixes with no motion sample, nobody
hearing and one app streaming `deviceMotion` (RULES A17: the gait service then makes a
gyroscope and gravity 50 Hz on the fixes' clock, fused and sent as `deviceMotion` events):
per fix, the daemon's and `GaitService.fixSampled`'s.

Usage: Tools/bench/bench-environment.py [--bin-dir .build/debug] [--samples N] [--cases environment,pressure,accel,route] [--smoke]
--smoke: 10 and 30 samples of the heard light and proximity only: checks that the counting runs.
"""

import argparse
import importlib.util
import math
import os
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("bench_callgrind", os.path.join(HERE, "bench-callgrind.py"))
cg = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cg)

SPEED = 5
WARM_UP = 20


def route_fixes(samples):
    """A drive at 15 m/s with no motion sample (A17), a fix each 50 Hz sample's time,
    turning 3° a fix for ten fixes of every twenty: each fix a stretch, half of them a turn."""
    north = east = course = 0.0
    for i in range(samples):
        yield f'"location":{{"lat":{48.85 + north / 111_194.93:.9f},"lon":{2.29 + east / 73_130.0:.9f},"hAcc":5}}'
        if i % 20 < 10:
            course += 3.0
        north += 0.3 * math.cos(math.radians(course))
        east += 0.3 * math.sin(math.radians(course))


def make_trace(path, samples, kind):
    """`samples` readings at 50 Hz, each different from the one before."""
    route = route_fixes(samples)
    with open(path, "w") as out:
        out.write('{"sextant":"trace","version":1,"start":"2026-03-01T08:00:00.000Z"}\n')
        for i in range(samples):
            t = i / 50
            if kind == "environment":
                body = f'"light":{{"lux":{100 + i % 2 * 50}}}' if i % 2 == 0 else f'"prox":{{"near":{i // 2 % 2}}}'
            elif kind == "pressure":
                body = f'"pressure":{{"hPa":{1000 + i % 7 * 0.1:.1f}}}'
            elif kind == "route":
                body = next(route)
            else:
                body = f'"accel":{{"x":0.{i % 9},"y":9.8,"z":0.1}}'
            out.write(f'{{"t":{t:.2f},{body}}}\n')


def replay(control, trace, ident):
    cg.rpc(control.sock, "replay.start", {"path": trace, "speed": SPEED}, ident)
    control.until(lambda m: m.get("id") == ident)
    control.until(cg.replay_finished)


def run(counter, name, samples, kind, listening):
    folder = os.path.join(counter.work, name)
    runtime, trace, warm = (os.path.join(folder, p) for p in ("run", "trace.jsonl", "warm.jsonl"))
    os.makedirs(folder)
    make_trace(trace, samples, kind)
    make_trace(warm, WARM_UP, kind)
    out, argv = counter.argv(name, [
        "sextantd", "--runtime-dir", runtime, "--state-dir", os.path.join(folder, "state"), "--no-gpsd", "--no-iio",
        "--log-level", "warning", "--io-threads", "1"])
    deadline = time.monotonic() + cg.RUN_TIMEOUT
    with open(os.path.join(folder, "sextantd.log"), "w") as log:
        daemon = subprocess.Popen(argv, env=counter.env, stderr=log)
    try:
        cg.wait_for_sockets(daemon, runtime, deadline)
        if listening:
            app = cg.Lines(os.path.join(runtime, "app.sock"), deadline)
            cg.rpc(app.sock, "hello", {"app": "com.example.bench"}, 1)
            methods = {"pressure": ((2, "altimeter.start"),), "route": ((2, "deviceMotion.start"),)}.get(
                kind, ((2, "light.start"), (3, "proximity.start")))
            for ident, method in methods:
                cg.rpc(app.sock, method, None, ident)
                app.until(lambda m, i=ident: m.get("id") == i)
        control = cg.Lines(os.path.join(runtime, "control.sock"), deadline)
        cg.rpc(control.sock, "watch", {"topics": ["replay"]}, 1)
        control.until(lambda m: m.get("id") == 1)
        replay(control, warm, 2)
        subprocess.run(["callgrind_control", "--zero", str(daemon.pid)], check=True, capture_output=True)
        replay(control, trace, 3)
    finally:
        daemon.send_signal(signal.SIGTERM)
        daemon.wait(timeout=cg.RUN_TIMEOUT)
    return counter.total(name, out), out


SERVICES = {
    "environment": ("EnvironmentService", "18EnvironmentServiceC7reading"), "pressure": ("AltimeterService", "16AltimeterServiceC7reading"),
    # A17: the drive's fixes reach the gait service's fixSampled, which schedules the made-up readings.
    "route": ("GaitService", "11GaitServiceC10fixSampled"),
}


def service_cost(out, kind):
    """The inclusive instructions of the service's `reading` in a callgrind out file."""
    text = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", out], capture_output=True, text=True).stdout
    for line in text.splitlines():
        if SERVICES[kind][1] in line:
            return int(line.split()[0].replace(",", ""))
    return 0


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin-dir", default=os.path.join(cg.ROOT, ".build", "debug"))
    parser.add_argument("--samples", type=int, default=200)
    parser.add_argument("--cases", default="environment,pressure,accel", help="which of environment, pressure, accel, route")
    parser.add_argument("--smoke", action="store_true", help="tiny sizes, one workload (bench-smoke.sh): the counting runs")
    args = parser.parse_args()
    n = 10 if args.smoke else args.samples
    with tempfile.TemporaryDirectory(prefix="bench-environment.") as work:
        counter = cg.Counter(args.bin_dir, work, None)
        print(f"binary {os.path.join(args.bin_dir, 'sextant')}, samples {n} and {3 * n}, speed {SPEED}")
        cases = (("light+prox, nobody hears", "environment", False), ("light+prox, one app streams both", "environment", True),
                 ("pressure, nobody hears", "pressure", False), ("pressure, one app streams the altimeter", "pressure", True),
                 ("accel, nobody hears (the judge runs)", "accel", False),
                 ("route, nobody hears (A17)", "route", False), ("route, one app streams deviceMotion (A17)", "route", True))
        if args.smoke:
            cases = cases[1:2]
        for label, kind, listening in (case for case in cases if case[1] in args.cases.split(",")):
            tag = label.split(",")[0].replace("+", "") + ("-heard" if listening else "")
            short, _ = run(counter, f"{tag}-{n}", n, kind, listening)
            long, out = run(counter, f"{tag}-{3 * n}", 3 * n, kind, listening)
            per_sample = (long - short) / (2 * n)
            line = f"{label:40s} daemon {per_sample:10.0f} instructions/sample"
            if kind in SERVICES:
                entry = "fixSampled" if kind == "route" else "reading"
                line += f"   {SERVICES[kind][0]}.{entry} {service_cost(out, kind) / (3 * n):8.1f} instructions/sample"
            print(line, flush=True)


if __name__ == "__main__":
    sys.exit(main())
