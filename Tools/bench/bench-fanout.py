#!/usr/bin/python3
"""Measures what fanning events out to many apps costs the daemon.

Starts a private sextantd, connects N apps to app.sock (each says hello, is granted
`authorizedAlways` by the prompt policy, streams locations and subscribes to orientation),
then replays a generated trace at speed 1: locations at 10 Hz and an accelerometer at
100 Hz that turns the device every few seconds. It prints
- the daemon's CPU during the replay, as a share of one core (from /proc/PID/stat);
- for each fix, how long after it was due (replay start + t) the LAST app received it:
  p50, p99 and max over the fixes;
- the daemon's resident memory with N apps connected, and per app.

The apps' sockets are read by a small C program (Tools/bench/fanout-reader.c, built
with cc on each run) that inherits them: a Python reader of a thousand sockets costs
more CPU than the daemon on the same cores, and its backlog was most of the latency it
reported. `--reader python` keeps the old reader, to compare. The anchor is a physical
device's location service, which hands a fix to each app in a microsecond or two.

With --heading the same daemon and apps then take two more replays: the same fixes and
accelerometer and a 50 Hz magnetometer whose field turns 10° a second, every app
streaming `heading`, first with filter 0 (every reading, a true heading each since the
apps may know where they are: the worst case), then with the default filter, 1° (iOS's
`headingFilter`: about 10 headings a second, what a default app costs). Printed beside
the plain run's figures: the daemon's CPU during each, and how long after each reading
was due the LAST app got its `heading` event (p50, p99, max). The heading's cost is the
difference of the CPU figures. Every app must get every heading (filter 0), or as many
as every other app (filter 1°).

Then the floor, from the same run: Tools/bench/fanout-floor.c (built with cc), a server
that only writes the lines sextantd wrote (a `location` line copied from one an app got)
to as many apps at the same rates, read by the same reader. Printed side by side: CPU per
location delivered and the last app's lags (p50, p95, p99, max, and how many fixes they
are taken over). --seconds is 60 by default: 600 fixes, so that a p99 is not the max of
a hundred.

The gross "CPU per location delivered" is a server's whole CPU over the run divided by the
deliveries; sextantd's includes what does not grow with the apps and the floor does not
do (reading the trace, the 100 Hz accelerometer, answering the status probe: some 430,000
instructions an answer, every 17 ms), so with few apps it says little of the fan-out. The
marginal cost of a delivery is printed beside it, for sextantd and for the floor, and the
ratio of the two: (CPU with N apps - CPU with B apps) / ((N - B) x 10 fixes a second), B
from --baseline-apps (1 by default). The baseline is a run of its own in the same
invocation: after the floor's line is copied and the first daemon stopped, a second
sextantd, started as the first, with B apps that do what the first's did (hello,
authorization, location and orientation streams, the same regions), plays the same trace
to the same C reader under the same status probe; then the floor with N apps, then the
floor with B apps (the same program, the same line). What does not grow with the apps is
in both runs of a server and cancels out; what does is the fan-out: the writes, and any
work a daemon does per connected session. Why not the same daemon again after its apps
stopped their streams: its sessions would still be connected, so a cost that grows with
connected but silent sessions (a scan of every session on every sample, what issue 38
point 1 took out) would be in the baseline too and vanish from the marginal; and the floor
would need a mode with no location lines. A fresh daemon with B apps is what
`--apps B` measures, in the same trace, reader and probe, minutes apart, not hours. The
figures are from four runs one after the other, so a neighbour's load moves them: each
run's load average at its end and the cores the rest of the machine kept busy during it
(all busy cores less this script's, the reader's, the server's) are printed, with each run's fix count and the status asks the
two daemons answered.

Usage: Tools/bench/bench-fanout.py [--apps 1000] [--seconds 60] [--bin-dir .build/release]
                             [--reader c|python] [--regions-per-app N] [--heading] [--io-threads 1,2]
                             [--baseline-apps 1] [--rounds 1] [--smoke]
--smoke: 20 apps for 2 s against the debug build; fails if any fix misses an app.
--rounds R: the whole measurement R times in turn (each round its four runs: sextantd with
the apps, its baseline, the floor with the apps, the floor's baseline), then each round's
marginal costs, their ratio and the load it ran under, and the median ratio: on a quiet
2-core VM three rounds in a row gave 1.25x, 1.76x and 1.40x, each server's one-app run
moving by a third between rounds, so one round says little of the ratio.
--io-threads 1,2: the script once per number of loops, then their tables side by side
(sextantd's rows, the heading's, and beside the floor: sextantd, the floor, their ratio).
BIN_DIR/sextantd older than its build (a stale hard link beside a rebuilt multi-call
`sextant`) is refused: Tools/bench/fresh_binary.py.
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
import threading
import time
import fresh_binary  # beside this script: refuses a stale sextantd or sextantctl

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the repository, above Tools/bench/
START = "2026-03-01T08:00:00.000Z"


HEADING_HZ = 50
# Degrees a second the magnetometer's field turns; the default filter's run (iOS's
# `headingFilter`, 1°) gets about FIELD_TURN / 1° headings a second.
FIELD_TURN = 10
DEFAULT_FILTER = 1


def make_trace(path, seconds, magnet=False):
    """10 Hz fixes walking east, 100 Hz accelerometer turning every 4 s; with `magnet`, a
    50 Hz magnetometer whose field turns 10° a second in the horizontal plane of the
    attitude of the moment (20 µT horizontal, 40 µT down): a heading a reading, all
    different, 0.2° apart."""
    with open(path, "w") as out:
        out.write(json.dumps({"sextant": "trace", "version": 1, "start": START}) + "\n")
        for step in range(seconds * 100):
            t = step / 100
            upright = int(t // 4) % 2 == 0
            x, y = (0.0, 9.81) if upright else (9.81, 0.0)
            out.write(json.dumps({"t": round(t, 2), "accel": {"x": x, "y": y, "z": 0.3}}) + "\n")
            if step % 10 == 0:
                out.write(json.dumps({"t": round(t, 2), "location": {"lat": 48.85, "lon": 2.29 + t * 1e-5, "hAcc": 5}}) + "\n")
            if magnet and step % (100 // HEADING_HZ) == 0:
                angle = math.radians(t * FIELD_TURN)
                across, along = round(20 * math.cos(angle), 3), round(20 * math.sin(angle), 3)
                # Up is +y in portrait, +x in landscape: the horizontal plane is the other two axes.
                field = {"x": across, "y": -40.0, "z": along} if upright else {"x": -40.0, "y": across, "z": along}
                out.write(json.dumps({"t": round(t, 2), "magnet": field}) + "\n")


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


def monitor_regions(apps, per_app):
    """Each app monitors `per_app` circular regions (region.monitor, 100 m radius) scattered
    over about 2 km around the walk, so that most are far from it and a few lie on it."""
    for index, s in enumerate(apps):
        for k in range(per_app):
            spread = ((index * 7919 + k * 104729) % 2001 - 1000) / 1000
            lat, lon = 48.85 + 0.009 * spread, 2.29 + 0.013 * (((index * 31 + k * 17) % 2001 - 1000) / 1000)
            if k == 0:
                lat, lon = 48.85, 2.29 + (index % 20) * 1e-5
            rpc(s, "region.monitor", {"identifier": f"r{k}", "lat": lat, "lon": lon, "radius": 100}, 100 + k)
    for s in apps:
        answered, buffer = 0, b""
        while answered < per_app:
            while b"\n" not in buffer:
                buffer += s.recv(65536) or sys.exit("the daemon closed a connection")
            line, buffer = buffer.split(b"\n", 1)
            message = json.loads(line)
            if "error" in message:
                sys.exit(f"region.monitor refused: {message['error']}")
            answered += "id" in message


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


def build_c_reader(work):
    reader = os.path.join(work, "fanout-reader")
    subprocess.run(["cc", "-O2", "-o", reader, os.path.join(ROOT, "Tools", "bench", "fanout-reader.c")], check=True)
    return reader


def receive_with_c_reader(reader, apps, fixes, timeout, event="location", hz=10, sparse=0):
    """The same, by Tools/bench/fanout-reader.c (built beforehand): {fix index: latest arrival}.
    `event` and `hz`: the events counted and their rate (`heading` at 50 Hz); `sparse`:
    a filter holds back up to `sparse` - 1 in a row, and every app must get as many."""
    descriptors = [s.fileno() for s in apps]
    result = subprocess.run([reader, str(fixes), str(timeout), f"event={event}", f"hz={hz}"] + ([f"sparse={sparse}"] if sparse else []),
                            input=" ".join(map(str, descriptors)).encode(),
                            pass_fds=descriptors, capture_output=True, check=False)
    if result.returncode == 3:
        sys.exit(f"not every app got all {fixes} {event} events in {timeout} s")
    if result.returncode != 0:
        sys.exit("fanout-reader failed: " + result.stderr.decode())
    counts = [line.split()[1:] for line in result.stderr.decode().splitlines() if line.startswith("counts ")]
    if sparse and (not counts or counts[0][0] != counts[0][1]):
        sys.exit(f"the apps got different numbers of {event} events (fewest, most): {counts}")
    return {int(index): float(at) for index, at in (line.split() for line in result.stdout.decode().splitlines())}


class ControlProbe(threading.Thread):
    """Asks `status` on the control socket every 17 ms during the replay (17: out of step
    with the 10 ms and 100 ms samples, so the asks land all over a fan-out) and keeps the
    round trips, in ms: how long a request waits behind the fan-out."""

    def __init__(self, path):
        super().__init__(daemon=True)
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.round_trips = []
        self.stopping = threading.Event()

    def run(self):
        ident, buffer = 100, b""
        while not self.stopping.wait(0.017):
            ident += 1
            sent = time.monotonic()
            rpc(self.sock, "status", None, ident)
            buffer = read_until_id(self.sock, ident, buffer)
            self.round_trips.append((time.monotonic() - sent) * 1000)


def ask(control, method, params, ident, buffer):
    rpc(control, method, params, ident)
    while True:
        while b"\n" not in buffer:
            buffer += control.recv(65536)
        line, buffer = buffer.split(b"\n", 1)
        message = json.loads(line)
        if message.get("id") == ident:
            return message.get("result"), buffer


def start_replay(control, trace):
    """Starts the replay paused just after its start, then resumes it: returns when its
    clock started, on this process's monotonic clock, and how uncertain that is (ms).

    replay.start's round trip includes loading the trace, and the clock starts somewhere
    inside it; replay.resume's round trip is short. The replay resumes from `position`
    p at a moment between the resume's sending and its answer, so the trace's t = 0 is
    due between sent - p and received - p. The earlier bound is the one taken: a lag is
    over-estimated by at most that round trip (printed), never under-estimated. The
    samples up to `until` went out before the resume and are left out of the figures."""
    _, buffer = ask(control, "replay.start", {"path": trace, "speed": 1, "until": 0.05}, 1, b"")
    deadline = time.monotonic() + 30
    while True:
        status, buffer = ask(control, "replay.status", None, 2, buffer)
        if status["state"] == "paused":
            break
        if time.monotonic() > deadline:
            sys.exit(f"the replay did not pause at its start: {status}")
        time.sleep(0.01)
    sent = time.monotonic()
    _, buffer = ask(control, "replay.resume", None, 3, buffer)
    received = time.monotonic()
    return sent - status["position"], (received - sent) * 1000


def wait_replay_ended(control, trace):
    """Returns once the replay has played its last sample. The apps got every counted event
    before the trace's last samples: a stream started for the next run while they still play
    would be handed them, and its reader would count events from this run."""
    deadline, buffer = time.monotonic() + 30, b""
    while True:
        status, buffer = ask(control, "replay.status", None, 4, buffer)
        if status["state"] in ("finished", "stopped", "idle"):
            return
        if time.monotonic() > deadline:
            sys.exit(f"the replay of {trace} did not end: {status}")
        time.sleep(0.01)


def seconds_of(rfc3339):
    clock = rfc3339.split("T")[1].rstrip("Z")
    h, m, s = clock.split(":")
    return int(h) * 3600 + int(m) * 60 + float(s) - 8 * 3600


def compare_io_threads(threads):
    """Runs this script once per number of loops, in turn, and prints their figures in columns:
    each run's rows are read from the file its --figures-json names, section by section (the
    floor's: sextantd, the floor and their ratio for each number of loops)."""
    kept = []
    with tempfile.TemporaryDirectory(prefix="sextant-bench-fanout-io-") as folder:
        for count in threads:
            figures = os.path.join(folder, f"figures-{count}.json")
            run = subprocess.run(rerun_without("--io-threads", ["--io-threads", count, "--figures-json", figures]),
                                 stdout=subprocess.PIPE, text=True)
            print(run.stdout, end="")
            if run.returncode != 0:
                sys.exit(f"bench-fanout: the run with --io-threads {count} failed")
            with open(figures) as f:
                kept.append(json.load(f))
    for section, title in (("sextantd", "sextantd"), ("heading", "streaming heading too"), ("floor", "beside the floor")):
        runs = [run.get(section, []) for run in kept]
        if not runs[0]:
            continue
        width = max(14, max(len(cell) for run in runs for row in run for cell in row[1:]) + 2)
        columns = len(runs[0][0]) - 1
        print(f"\nside by side: {title}\n{'--io-threads':34} " + "".join(f"{count:>{width * columns}}" for count in threads))
        for rows in zip(*runs):
            if len({row[0] for row in rows}) == 1:
                print(f"{rows[0][0]:34} " + "".join(f"{cell:>{width}}" for row in rows for cell in row[1:]).rstrip())
    if kept and kept[0].get("floor"):
        print("(beside the floor, for each number of loops: sextantd, the floor, sextantd / floor)")


def rerun_without(flag, extra):
    """This script's command line less `flag` and its value, plus `extra`."""
    argv, skip = [], False
    for arg in sys.argv[1:]:
        if skip:
            skip = False
        elif arg == flag:
            skip = True
        elif not arg.startswith(flag + "="):
            argv.append(arg)
    return [sys.executable, os.path.abspath(__file__)] + argv + extra


def microseconds(cell):
    """A figure printed as "3.09 µs"."""
    return float(cell.split()[0])


def repeat_rounds(rounds):
    """Runs this script `rounds` times in turn and prints each round's marginal cost of a
    delivery, sextantd's and the floor's, their ratio and the load, then the median ratio."""
    rows = []
    with tempfile.TemporaryDirectory(prefix="sextant-bench-fanout-rounds-") as folder:
        for index in range(1, rounds + 1):
            figures = os.path.join(folder, f"round-{index}.json")
            print(f"--- round {index} of {rounds}", flush=True)
            run = subprocess.run(rerun_without("--rounds", ["--figures-json", figures]), stdout=subprocess.PIPE, text=True)
            print(run.stdout, end="", flush=True)
            if run.returncode != 0:
                sys.exit(f"bench-fanout: round {index} failed")
            with open(figures) as f:
                floor = {row[0]: row[1:] for row in json.load(f).get("floor", [])}
            marginal = floor.get("CPU per delivery, marginal")
            if not marginal:
                sys.exit("bench-fanout: --rounds needs the marginal rows (the C reader and --baseline-apps above 0)")
            loads = [cells for label, cells in floor.items() if label.startswith("load avg / others' cores")]
            rows.append((index, microseconds(marginal[0]), microseconds(marginal[1]), loads))
    print(f"\n{rounds} rounds, the marginal CPU of a delivery (µs), each round's four runs one after the other")
    print(f"{'round':>6} {'sextantd':>10} {'floor':>10} {'ratio':>8}   others' busy cores: sextantd N / B, floor N / B")
    ratios = []
    for index, ours, floor, loads in rows:
        # A floor that cost nothing more with the apps (a smoke run's two seconds) has no ratio.
        ratio = f"{ours / floor:.2f}x" if floor > 0 else "-"
        if floor > 0:
            ratios.append(ours / floor)
        busy = " / ".join(cell.split(" / ")[1] for cells in loads for cell in cells[:2])
        print(f"{index:>6} {ours:>10.2f} {floor:>10.2f} {ratio:>8}   {busy}")
    summary = f"median ratio {statistics.median(ratios):.2f}x (lowest {min(ratios):.2f}x, highest {max(ratios):.2f}x); " if ratios else "no ratio; "
    print(summary + f"sextantd's median {statistics.median(r[1] for r in rows):.2f} µs, the floor's {statistics.median(r[2] for r in rows):.2f} µs")


def start_daemon(bin_dir, apps, work, runtime, extra=()):
    """A private sextantd that grants every app (`--prompt-policy allowAlways`) and takes
    `apps` connections; returns once its sockets are there."""
    daemon = subprocess.Popen(
        [fresh_binary.program(bin_dir, "sextantd"), "--runtime-dir", runtime, "--state-dir", os.path.join(work, "state"),
         "--no-gpsd", "--no-iio", "--prompt-policy", "allowAlways", "--log-level", "warning",
         "--max-clients", str(max(apps, 1024))] + list(extra),
        stderr=open(os.path.join(work, "sextantd.log"), "w"))
    deadline = time.monotonic() + 30
    while not os.path.exists(os.path.join(runtime, "app.sock")):
        if time.monotonic() > deadline or daemon.poll() is not None:
            sys.exit("sextantd did not start; see " + work)
        time.sleep(0.05)
    time.sleep(0.2)
    return daemon


def measure(runtime, daemon, apps, trace, args, reader, event="location", hz=10, sparse=0):
    """Plays `trace` at speed 1 to the apps: the daemon's CPU (share of a core), each
    event's lag behind its due time at the last app (ms, sorted), the control round trips
    meanwhile (ms, sorted), the lags' uncertainty (ms) and how many events every app got."""
    control = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    control.connect(os.path.join(runtime, "control.sock"))
    cpu_before, wall_before = cpu_seconds(daemon.pid), time.monotonic()
    started, uncertainty = start_replay(control, trace)
    events = args.seconds * hz
    probe = ControlProbe(os.path.join(runtime, "control.sock"))
    probe.start()
    if args.reader == "c":
        latest = receive_with_c_reader(reader, apps, events, args.seconds + 30, event, hz, sparse)
        due = {index: started + index / hz for index in latest}
    else:
        latest = receive(apps, started, events, started + args.seconds + 30)
        due = {t: started + seconds_of(t) for t in latest}
    cpu = (cpu_seconds(daemon.pid) - cpu_before) / (time.monotonic() - wall_before)
    probe.stopping.set()
    probe.join(timeout=5)
    wait_replay_ended(control, trace)
    control.close()
    # The first samples went out before the resume (see start_replay).
    lags = sorted(max(0.0, arrival - due[key]) * 1000 for key, arrival in latest.items() if due[key] > started + 0.05)
    if not lags:
        sys.exit(f"no {event} event reached the apps")
    if len(latest) != events and not sparse:
        sys.exit(f"only {len(latest)} of {events} {event} events reached every app")
    return cpu, lags, sorted(probe.round_trips) or [math.nan], uncertainty


def percentile(values, share):
    return values[min(len(values) - 1, int(len(values) * share))]


def start_headings(apps, filter_degrees):
    """Every app streams headings with this filter (0: every reading); a second
    `heading.start` replaces the first."""
    for s in apps:
        rpc(s, "heading.start", {"filter": filter_degrees}, 5)
    for s in apps:
        read_until_id(s, 5)


def print_headings(cpu, lags, runs):
    """The heading runs beside the plain one: `runs` is [(label, cpu, lags, uncertainty)]."""
    print(f"\nthe same apps streaming heading too, {HEADING_HZ} Hz magnetometer, the field turning {FIELD_TURN}° a second")
    print(f"{'':34} {'location only':>22}" + "".join(f"   {label:>22}" for label, *_ in runs))

    def row(label, cells):
        print(f"{label:34} " + "   ".join(f"{cell:>22}" for cell in cells))
        keep("heading", label, cells)

    row("daemon CPU, share of one core",
        [f"{cpu * 100:.1f} %"] + [f"{h_cpu * 100:.1f} % ({(h_cpu - cpu) * 100:+6.1f} %)" for _, h_cpu, _, _ in runs])
    for name, share in (("p50", 0.5), ("p99", 0.99)):
        row("last app event after due, " + name,
            [f"{percentile(lags, share):.2f} ms"] + [f"{percentile(h_lags, share):.2f} ms" for _, _, h_lags, _ in runs])
    row("last app event after due, max", [f"{lags[-1]:.2f} ms"] + [f"{h_lags[-1]:.2f} ms" for _, _, h_lags, _ in runs])
    row("events counted (per app)", [str(len(lags))] + [str(len(h_lags)) for _, _, h_lags, _ in runs])
    print(f"(CPU in brackets: the heading's, on top of location only; lags over-estimated by up to "
          + ", ".join(f"{u:.2f}" for *_, u in runs) + f" ms; load average {os.getloadavg()[0]:.2f})")


# Beside this script (its folder is the first on sys.path).
import fanout_floor  # noqa: E402
import proc_figures  # noqa: E402


def loaded(run, daemon=None):
    """run()'s result and the load it ran under: (load average at its end, cores the rest of
    the machine kept busy meanwhile: all the busy cores less this script's, its waited
    children's (the reader, the floor) and `daemon`'s, a process still running)."""
    def ours():
        own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime + (cpu_seconds(daemon.pid) if daemon else 0)

    ticks, mine, wall = proc_figures.machine_ticks(), ours(), time.monotonic()
    result = run()
    busy = proc_figures.busy_cores(ticks, proc_figures.machine_ticks())
    return result, (os.getloadavg()[0], busy - (ours() - mine) / (time.monotonic() - wall))


def measure_baseline(args, trace, reader, work):
    """sextantd's baseline: a daemon of its own, started afresh as the first, with
    `--baseline-apps` apps doing what the first's do, playing the same trace to the same
    reader under the same status probe: (cpu, lags, asks) and its load."""
    folder = os.path.join(work, "baseline")
    os.makedirs(folder)
    runtime = os.path.join(folder, "run")
    daemon = start_daemon(args.bin_dir, args.baseline_apps, folder, runtime, io_threads_option(args))
    apps = []
    try:
        apps = connect_apps(runtime, args.baseline_apps)
        monitor_regions(apps, args.regions_per_app)
        (cpu, lags, asks, _), load = loaded(lambda: measure(runtime, daemon, apps, trace, args, reader), daemon)
        return (cpu, lags, asks), load
    finally:
        daemon.terminate()
        daemon.wait(timeout=10)
        for s in apps:
            s.close()


def measure_floor_and_baselines(runtime, daemon, apps, trace, args, reader, work, main_run):
    """Once sextantd's measured runs are done: a location line it sent is copied and it is
    stopped; then, with --baseline-apps, sextantd's baseline; then the floor with as many apps
    for as long, and the floor with the baseline's apps. Prints them beside `main_run`:
    (cpu, lags, asks, load) of sextantd with all the apps."""
    line = fanout_floor.capture_location_line(runtime, apps[-1], trace, rpc)
    daemon.terminate()
    daemon.wait(timeout=10)
    for s in apps:
        s.close()
    floor = fanout_floor.build(work)
    cpu, lags, asks, load = main_run
    baseline = None
    if args.baseline_apps:
        (b_cpu, b_lags, b_asks), b_load = measure_baseline(args, trace, reader, work)
    floor_run, floor_load = loaded(lambda: fanout_floor.measure(floor, reader, receive_with_c_reader, args.apps, args.seconds, line, work))
    if args.baseline_apps:
        floor_base, floor_base_load = loaded(lambda: fanout_floor.measure(floor, reader, receive_with_c_reader, args.baseline_apps,
                                                                          args.seconds, line, work))
        baseline = {"apps": args.baseline_apps, "sextant": (b_cpu, b_lags), "floor": floor_base, "asks": (len(asks), len(b_asks)),
                    "loads": {"sextantd": load, "floor": floor_load, "sextantd baseline": b_load, "floor baseline": floor_base_load}}
    fanout_floor.print_beside(args.apps, (cpu, lags), floor_run, percentile, baseline, lambda label, cells: keep("floor", label, cells))


def io_threads_option(args):
    return ["--io-threads", args.io_threads] if args.io_threads else []


# What was printed, by section, for --io-threads's side by side: {section: [[label, cell...]]}.
KEPT = {}


def keep(section, label, cells):
    KEPT.setdefault(section, []).append([label] + list(cells))


def print_rows(section, rows):
    """The main table's rows: (label, figure, note); the figure right-aligned beside the label."""
    for label, figure, note in rows:
        print(f"{label:34} {figure:>22}" + (f"   {note}" if note else ""))
        keep(section, label, [figure])


def parse_arguments():
    parser = argparse.ArgumentParser()
    parser.add_argument("--apps", type=int, default=1000)
    parser.add_argument("--seconds", type=int, default=60)
    parser.add_argument("--bin-dir", default=None, help="default .build/release (.build/debug with --smoke)")
    parser.add_argument("--reader", choices=["c", "python"], default="c")
    parser.add_argument("--heading", action="store_true", help="then a 50 Hz magnetometer to apps streaming heading, beside")
    parser.add_argument("--smoke", action="store_true", help="20 apps, 2 s, the debug build: checks that it works")
    parser.add_argument("--io-threads", default=None,
                        help="sextantd's --io-threads; comma-separated (1,2): one run each, in turn, printed side by side")
    parser.add_argument("--regions-per-app", type=int, default=0, choices=range(0, 21), metavar="0-20",
                        help="regions each app monitors before the replay (Tools/bench/bench-regions.py runs 0 and 20 side by side)")
    parser.add_argument("--baseline-apps", type=int, default=1, metavar="B",
                        help="the baseline's apps, for the marginal cost of a delivery (C reader only; 0: no baseline runs)")
    parser.add_argument("--rounds", type=int, default=1, metavar="R",
                        help="the whole measurement R times in turn, then each round's marginal costs and the median ratio")
    parser.add_argument("--figures-json", default=None, help=argparse.SUPPRESS)  # compare_io_threads reads a run's rows from it
    args = parser.parse_args()
    if args.smoke:
        args.apps, args.seconds = 20, 2
    if args.heading and args.reader != "c":
        parser.error("--heading reads the apps with the C reader")
    if args.rounds < 1:
        parser.error("--rounds must be at least 1")
    if args.rounds > 1 and (args.reader != "c" or args.baseline_apps == 0 or (args.io_threads and "," in args.io_threads)):
        parser.error("--rounds takes the C reader, a baseline (--baseline-apps above 0) and one --io-threads")
    if not 0 <= args.baseline_apps < args.apps:
        parser.error(f"--baseline-apps must be fewer than --apps ({args.apps})")
    args.bin_dir = args.bin_dir or os.path.join(ROOT, ".build", "debug" if args.smoke else "release")
    return args


def print_main_table(args, cpu, lags, asks, uncertainty, rss):
    base_rss, idle_rss = rss
    print(f"apps {args.apps} ({args.regions_per_app} regions each), {args.seconds} s at speed 1 (10 Hz fixes, 100 Hz accelerometer), {args.bin_dir}, "
          f"{args.reader} reader" + (f", --io-threads {args.io_threads}" if args.io_threads else ""))
    print(f"{'':34} {'sextantd':>22}   anchor (a phone's location service)")
    print_rows("sextantd", [
        ("daemon CPU, share of one core", f"{cpu * 100:.1f} %", "-"),
        ("last app fix after due, p50", f"{statistics.median(lags):.2f} ms", "~0.002 ms (a write per app)"),
        ("last app fix after due, p95", f"{percentile(lags, 0.95):.2f} ms", ""),
        ("last app fix after due, p99", f"{percentile(lags, 0.99):.2f} ms", ""),
        ("last app fix after due, max", f"{lags[-1]:.2f} ms", ""),
        ("status round trip meanwhile, p50", f"{statistics.median(asks):.2f} ms", ""),
        ("status round trip meanwhile, p99", f"{percentile(asks, 0.99):.2f} ms", f"({len(asks)} asks; max {asks[-1]:.2f} ms)"),
        ("RSS with the apps connected", f"{idle_rss:.1f} MiB",
         f"(before them: {base_rss:.1f} MiB, {(idle_rss - base_rss) * 1024 / args.apps:.1f} KiB per app)"),
    ])
    print(f"({len(lags)} fixes; the lags may be over-estimated by up to {uncertainty:.2f} ms, replay.resume's round trip; "
          f"load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs)")


def heading_runs(args, runtime, daemon, apps, reader, work, cpu, lags):
    heading_trace = os.path.join(work, "walk-heading.jsonl")
    make_trace(heading_trace, args.seconds, magnet=True)
    runs = []
    # The worst case (every reading to every app), then what an app with the default filter costs.
    for filter_degrees in (0, DEFAULT_FILTER):
        start_headings(apps, filter_degrees)
        sparse = 0 if filter_degrees == 0 else math.ceil(HEADING_HZ * filter_degrees / FIELD_TURN) + 2
        h_cpu, h_lags, _, h_uncertainty = measure(runtime, daemon, apps, heading_trace, args, reader, "heading", HEADING_HZ, sparse)
        runs.append((f"+ heading, filter {filter_degrees}°", h_cpu, h_lags, h_uncertainty))
    print_headings(cpu, lags, runs)


def main():
    args = parse_arguments()
    if args.io_threads and "," in args.io_threads:
        return compare_io_threads(args.io_threads.split(","))
    if args.rounds > 1:
        return repeat_rounds(args.rounds)
    fresh_binary.program(args.bin_dir, "sextantd")  # before anything is started
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, args.apps * 2 + 256)), hard))

    work = tempfile.mkdtemp(prefix="sextant-bench-fanout-")
    runtime = os.path.join(work, "run")
    trace = os.path.join(work, "walk.jsonl")
    make_trace(trace, args.seconds)
    reader = build_c_reader(work) if args.reader == "c" else None
    daemon = start_daemon(args.bin_dir, args.apps, work, runtime, io_threads_option(args))
    try:
        base_rss = rss_mib(daemon.pid)
        apps = connect_apps(runtime, args.apps)
        monitor_regions(apps, args.regions_per_app)
        idle_rss = rss_mib(daemon.pid)
        (cpu, lags, asks, uncertainty), load = loaded(lambda: measure(runtime, daemon, apps, trace, args, reader), daemon)
        print_main_table(args, cpu, lags, asks, uncertainty, (base_rss, idle_rss))
        if args.heading:
            heading_runs(args, runtime, daemon, apps, reader, work, cpu, lags)
        if reader:
            measure_floor_and_baselines(runtime, daemon, apps, trace, args, reader, work, (cpu, lags, asks, load))
        if args.figures_json:
            with open(args.figures_json, "w") as out:
                json.dump(KEPT, out)
    finally:
        daemon.terminate()
        daemon.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)

if __name__ == "__main__":
    main()
