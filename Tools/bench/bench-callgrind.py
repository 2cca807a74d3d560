#!/usr/bin/python3
"""Instructions per delivered fix and per decoded NMEA byte, counted by callgrind: a cost
figure that does not move with the machine's load, and CI's guard against a change that
taxes every fix.

Each workload runs the multi-call `sextant` binary under `valgrind --tool=callgrind` twice,
on a short and a long input, and takes the difference of the two instruction counts over
the difference of the inputs: what does not depend on the input's size (start-up,
connecting the apps, starting the replay, shutting down) cancels, what is left is the cost
of one more fix (or byte).

- fix, K apps: a private sextantd (`--no-gpsd --no-iio`, as Tools/bench/bench-fanout.py
  starts it, and `--io-threads 1`, see below) with K apps on app.sock (hello, authorized
  `always` by the prompt policy, `location.start`) replays a trace of 10 Hz fixes at
  speed 5, 50 fixes a second, and the run ends when every app has every fix and the
  replay has finished. K = 0 is the cost of a fix nobody hears, which "pay only for what
  is heard" wants small; (K = 10 less K = 0) / 10 is what one more listening app adds.
- fix, 0 apps, 100 idle: the same with 100 apps connected that said `hello` and ask for
  nothing: what a connected app costs a fix it does not hear, which that rule wants nil.
- session closed, 100-300 open: a private sextantd with 100, then 300 apps that said
  `hello`, all hanging up, counted until a `session` watcher has heard every one end: what
  one close costs. A close that visits every open session (closing N sessions O(N²), as at
  shutdown or a device farm's churn) makes the figure grow with the sessions open.
- NMEA byte: `sextantctl trace info LOG` on Traces/gpsd's logs concatenated once and
  three times; beside it, counted the same way on the same logs, its anchor: gpsd's
  `gpsdecode < LOG` (which also writes a JSON report a sentence, to /dev/null), and the
  ratio of the two, which the load does not move (a wall-clock ratio does).

The figures are printed beside the reference counts in Tools/bench/callgrind-budget.json,
measured on the release build that `Tools/packaging/install.sh build` makes (the .deb's;
CI builds it in Tools/ci/test-deb.sh) at the commit the file names. With --check the run
fails when a workload costs more than its reference plus the file's tolerance, naming the
workload and by how much. --record writes the figures measured as the new references.

What makes two runs count alike (without it the same input moved by up to 9%):
- the replay is paced (REPLAY_SPEED): at `max` it runs ahead of the writes by however far
  the threads' interleaving lets it, and the writes of several fixes go out together;
- one event loop (`--io-threads 1`): with two, how a fix's work is handed from the hub's
  loop to the other's is batched by how the threads happen to interleave. One loop counts
  the hub's work and the writes, not that hand-over;
- the count starts after a first replay of WARM_UP fixes to the same apps (callgrind_control
  --zero): the Swift runtime fills its caches (protocol conformances, generic metadata) on
  a type's first use, millions of instructions, by whichever thread comes first;
- SWIFT_DETERMINISTIC_HASHING=1: Swift seeds its hashing per process otherwise.
What is left: under 1% between runs of one build, against a tolerance of 10%.

The binary is counted from a copy without its debug information (valgrind 3.19 cannot read
Swift's DWARF 5 and gives up). A debug build links the Swift runtime's libdispatch.so,
whose sigsuspend(2) mask is read-only, which valgrind 3.19 writes to (and dies): for such a
build a small preloaded sigsuspend that passes a copy is built with cc. The static release
build needs none, and its counts are the only ones compared with the budget.

Usage: Tools/bench/bench-callgrind.py [--bin-dir .build/release] [--check] [--record]
                                      [--keep DIR] [--smoke] [--closes]
--keep DIR: keeps the callgrind.out files there (callgrind_annotate reads them).
--smoke: tiny inputs against the debug build, no budget: checks that the counting runs.
--closes: the "session closed" workload only, no budget (a debug build's figure).
"""

import argparse
import datetime
import json
import os
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BUDGET = os.path.join(ROOT, "Tools", "bench", "callgrind-budget.json")
# (short, long) inputs: fixes in the trace, and how many times Traces/gpsd's logs are
# concatenated.
FIX_SIZES = (200, 600)
FIX_APPS = (0, 1, 10)
# Apps connected that hear no fix (hello only), for the "fix, 0 apps, N idle" workload.
IDLE_APPS = 100
# Sessions closed, for the "session closed" workload: a close that visits every open
# session makes the longer run's closes dearer each, and the figure grows with them.
CLOSE_SIZES = (100, 300)
NMEA_COPIES = (1, 3)
# --smoke: the debug build under callgrind is ten times as slow; one app, and the first
# 20 kB of the logs.
SMOKE_FIX_SIZES, SMOKE_FIX_APPS, SMOKE_NMEA_COPIES, SMOKE_NMEA_BYTES = (10, 20), (1,), (1, 2), 20000
# --diagnostics: every app also calls diagnostics.start (the stillness judge runs per fix).
DIAGNOSTICS = False
# How long one run under callgrind may take before the guard gives up on it.
RUN_TIMEOUT = 300
# The trace's 10 Hz fixes played at 50 a second, each on its own (see the top): what the
# daemon does on a clock (the replay's 4 Hz `replay` events) is then the same share of a
# fix in every run. Under callgrind a fix to 10 apps takes the release daemon about 5 ms.
REPLAY_SPEED = 5
# Fixes replayed before the counting starts (see count_replay).
WARM_UP = 20

SIGSUSPEND_SHIM = r"""
#define _GNU_SOURCE
#include <signal.h>
#include <sys/syscall.h>
#include <unistd.h>
/* valgrind 3.19 writes into sigsuspend's mask; libdispatch passes a read-only one. */
int sigsuspend(const sigset_t *mask) {
    sigset_t copy = *mask;
    return (int)syscall(SYS_rt_sigsuspend, &copy, _NSIG / 8);
}
"""


def fail(message):
    sys.exit(f"bench-callgrind: {message}")


class Counter:
    """Runs the multi-call binary's programs under callgrind and reads their totals."""

    def __init__(self, bin_dir, work, keep):
        source = os.path.join(bin_dir, "sextant")
        if not os.path.exists(source):
            fail(f"no multi-call binary {source} (swift build --product sextant, or Tools/packaging/install.sh build)")
        self.binary = os.path.join(work, "sextant")
        subprocess.run(["strip", "--strip-debug", "-o", self.binary, source], check=True)
        self.dynamic_runtime = "libdispatch.so" in subprocess.run(["ldd", source], capture_output=True, text=True).stdout
        self.work, self.keep, self.runs = work, keep, 0
        self.env = dict(os.environ, SWIFT_DETERMINISTIC_HASHING="1")
        if self.dynamic_runtime:
            shim = os.path.join(work, "sigsuspend-shim")
            with open(shim + ".c", "w") as f:
                f.write(SIGSUSPEND_SHIM)
            subprocess.run(["cc", "-O2", "-shared", "-fPIC", "-o", shim + ".so", shim + ".c"], check=True)
            self.env["LD_PRELOAD"] = shim + ".so"

    def argv(self, name, program_args):
        out = os.path.join(self.work, f"callgrind.{name}.out")
        return out, ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", f"--log-file={out}.log",
                     self.binary] + program_args

    def total(self, name, out):
        """The run's instruction count, from its out file's `totals:` line."""
        self.runs += 1
        try:
            with open(out) as f:
                totals = [line for line in f if line.startswith(("totals:", "summary:"))]
        except FileNotFoundError:
            fail(f"{name}: callgrind wrote no {out}; its log:\n" + read_text(out + ".log"))
        if not totals:
            fail(f"{name}: no totals in {out}")
        if self.keep:
            shutil.copy(out, os.path.join(self.keep, os.path.basename(out)))
        return int(totals[-1].split()[1])

    def run_anchor(self, name, program, stdin_path):
        """Another program (gpsdecode) reading `stdin_path`: its count, with the same
        valgrind as Sextant's (no preload: it links no Swift runtime)."""
        out, argv = self.argv(name, [])
        argv[-1] = shutil.which(program)
        env = dict(self.env)
        env.pop("LD_PRELOAD", None)
        with open(stdin_path, "rb") as stdin:
            done = subprocess.run(argv, env=env, stdin=stdin, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=RUN_TIMEOUT)
        if done.returncode != 0:
            fail(f"{name}: exit {done.returncode}: {done.stderr[-2000:]}{read_text(out + '.log')[-2000:]}")
        return self.total(name, out)

    def run_tool(self, name, program_args):
        """A program that ends on its own (sextantctl): its count."""
        out, argv = self.argv(name, program_args)
        done = subprocess.run(argv, env=self.env, capture_output=True, text=True, timeout=RUN_TIMEOUT)
        if done.returncode != 0:
            fail(f"{name}: exit {done.returncode}: {done.stderr[-2000:]}{read_text(out + '.log')[-2000:]}")
        return self.total(name, out)


def read_text(path):
    try:
        with open(path) as f:
            return f.read()
    except OSError:
        return ""


# -- per fix -----------------------------------------------------------------------------

def make_trace(path, fixes):
    """`fixes` fixes at 10 Hz walking east, with a slow wobble north."""
    with open(path, "w") as out:
        out.write('{"sextant":"trace","version":1,"start":"2026-03-01T08:00:00.000Z","profile":"phone"}\n')
        for i in range(fixes):
            lat, lon = 48.85 + (i % 600) * 1e-6, 2.29 + i * 1e-6
            out.write(f'{{"t":{i / 10:.1f},"location":{{"lat":{lat:.7f},"lon":{lon:.7f},"alt":35.0,"hAcc":5.1,'
                      f'"speed":1.39,"course":90.0}}}}\n')


def rpc(sock, method, params=None, ident=1):
    message = {"jsonrpc": "2.0", "id": ident, "method": method}
    if params is not None:
        message["params"] = params
    sock.sendall((json.dumps(message) + "\n").encode())


class Lines:
    """A connection read line by line, with a deadline."""

    def __init__(self, path, deadline):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.buffer, self.deadline = b"", deadline

    def until(self, wanted):
        """Reads lines until one makes `wanted(message)` true; answers that message."""
        while True:
            while b"\n" in self.buffer:
                line, self.buffer = self.buffer.split(b"\n", 1)
                message = json.loads(line)
                if "error" in message:
                    fail(f"the daemon answered {message['error']}")
                if wanted(message):
                    return message
            self.sock.settimeout(max(0.1, self.deadline - time.monotonic()))
            try:
                data = self.sock.recv(1 << 16)
            except socket.timeout:
                fail("the daemon went silent past the run's deadline")
            if not data:
                fail("the daemon closed a connection")
            self.buffer += data

    def ready(self, wanted):
        """Whether a line that makes `wanted(message)` true has come; reads what is there
        without waiting."""
        self.sock.setblocking(False)
        try:
            while True:
                data = self.sock.recv(1 << 16)
                if not data:
                    fail("the daemon closed the control connection")
                self.buffer += data
        except BlockingIOError:
            pass
        finally:
            self.sock.setblocking(True)
        lines = self.buffer.split(b"\n")
        self.buffer = lines.pop()
        return any(wanted(json.loads(line)) for line in lines if line)


def connectable(path):
    probe = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        probe.connect(path)
        return True
    except OSError:
        return False
    finally:
        probe.close()


def wait_for_sockets(daemon, runtime, deadline):
    """Until both sockets take connections (the files come before the listening)."""
    paths = [os.path.join(runtime, name) for name in ("control.sock", "app.sock")]
    while not all(connectable(p) for p in paths):
        if daemon.poll() is not None or time.monotonic() > deadline:
            fail(f"sextantd under callgrind did not start (exit {daemon.poll()})")
        time.sleep(0.05)


def connect_apps(runtime, count, deadline):
    apps = []
    for i in range(count):
        app = Lines(os.path.join(runtime, "app.sock"), deadline)
        rpc(app.sock, "hello", {"app": f"com.example.callgrind{i}"}, 1)
        rpc(app.sock, "authorization.request", {"level": "always"}, 2)
        app.until(lambda m: m.get("id") == 2)
        rpc(app.sock, "location.start", None, 3)
        app.until(lambda m: m.get("id") == 3)
        if DIAGNOSTICS:
            # --diagnostics: each app also hears iOS's diagnostics (docs/platforms.md I13, I14).
            rpc(app.sock, "diagnostics.start", None, 4)
            app.until(lambda m: m.get("id") == 4)
        apps.append(app)
    return apps


def connect_idle_apps(runtime, count, deadline):
    """`count` apps that said hello and ask for nothing: no fix is theirs."""
    apps = []
    for i in range(count):
        app = Lines(os.path.join(runtime, "app.sock"), deadline)
        rpc(app.sock, "hello", {"app": f"com.example.idle{i}"}, 1)
        app.until(lambda m: m.get("id") == 1)
        apps.append(app)
    return apps


def replay_finished(message):
    return message.get("method") == "replay" and message["params"].get("state") == "finished"


def play_to_apps(control, apps, fixes, deadline):
    """Reads the apps all through the replay (an app that stops reading gets its fixes
    dropped, as it should) until the replay has finished and every app has had `fixes`
    location events."""
    marker = b'"method":"location"'
    selector = selectors.DefaultSelector()
    counts, tails = {}, {}
    for app in apps:
        app.sock.setblocking(False)
        selector.register(app.sock, selectors.EVENT_READ)
        counts[app.sock], tails[app.sock] = app.buffer.count(marker), b""
        app.buffer = b""
    selector.register(control.sock, selectors.EVENT_READ)
    finished = None
    while finished is None or min(counts.values(), default=fixes) < fixes:
        now = time.monotonic()
        if now > deadline or (finished is not None and now > finished + 30):
            fail(f"the apps got {sorted(counts.values())} of {fixes} fixes (replay finished: {finished is not None})")
        for key, _ in selector.select(timeout=0.5):
            if key.fileobj is control.sock:
                if control.ready(replay_finished) and finished is None:
                    finished = time.monotonic()
                continue
            data = key.fileobj.recv(1 << 20)
            if not data:
                fail("the daemon closed an app's connection")
            chunk = tails[key.fileobj] + data
            counts[key.fileobj] += chunk.count(marker)
            tails[key.fileobj] = chunk[-(len(marker) - 1):]
    selector.close()


def replay(control, apps, trace, fixes, ident, deadline):
    rpc(control.sock, "replay.start", {"path": trace, "speed": REPLAY_SPEED}, ident)
    control.until(lambda m: m.get("id") == ident)
    play_to_apps(control, apps, fixes, deadline)


def count_replay(counter, apps_count, fixes, idle=0):
    """Instructions of a daemon replaying `fixes` fixes to `apps_count` apps (and `idle`
    connected apps that hear none), counted from after a first replay of WARM_UP fixes to
    its end."""
    name = f"fix-{apps_count}apps-{idle}idle-{fixes}"
    run = os.path.join(counter.work, name)
    runtime, trace, warm_up = (os.path.join(run, part) for part in ("run", "trace.jsonl", "warm-up.jsonl"))
    os.makedirs(run)
    make_trace(trace, fixes)
    make_trace(warm_up, WARM_UP)
    out, argv = counter.argv(name, [
        "sextantd", "--runtime-dir", runtime, "--state-dir", os.path.join(run, "state"), "--no-gpsd", "--no-iio",
        "--prompt-policy", "allowAlways", "--log-level", "warning", "--io-threads", "1"])
    deadline = time.monotonic() + RUN_TIMEOUT
    with open(os.path.join(run, "sextantd.log"), "w") as log:
        daemon = subprocess.Popen(argv, env=counter.env, stderr=log)
    try:
        wait_for_sockets(daemon, runtime, deadline)
        apps = connect_apps(runtime, apps_count, deadline)
        idlers = connect_idle_apps(runtime, idle, deadline)
        control = Lines(os.path.join(runtime, "control.sock"), deadline)
        # The replay's own events say when it has finished: no polling, whose cost would
        # grow with the run's wall time (and so with the machine's load).
        rpc(control.sock, "watch", {"topics": ["replay"]}, 1)
        control.until(lambda m: m.get("id") == 1)
        replay(control, apps, warm_up, WARM_UP, 2, deadline)
        # The Swift runtime's caches (protocol conformances, generic metadata) fill on a
        # type's first use, by whichever thread comes first: millions of instructions in a
        # different order each run. Counted from here, each run starts warm.
        subprocess.run(["callgrind_control", "--zero", str(daemon.pid)], check=True, capture_output=True, timeout=RUN_TIMEOUT)
        replay(control, apps, trace, fixes, 3, deadline)
        for app in idlers:
            app.sock.close()
    finally:
        daemon.send_signal(signal.SIGTERM)
        try:
            status = daemon.wait(timeout=RUN_TIMEOUT)
        except subprocess.TimeoutExpired:
            daemon.kill()
            fail(f"{name}: sextantd did not stop on SIGTERM")
    if status != 0:
        fail(f"{name}: sextantd exited {status}; " + read_text(os.path.join(run, "sextantd.log"))[-2000:])
    return counter.total(name, out)


def per_fix(counter, apps_count, sizes, idle=0):
    short, long = (count_replay(counter, apps_count, fixes, idle) for fixes in sizes)
    return (long - short) / (sizes[1] - sizes[0])


def count_closes(counter, sessions):
    """Instructions of a daemon closing `sessions` app sessions (each app said hello and
    asks for nothing, then hangs up), counted from after they all opened to when a
    watcher has heard every one end."""
    name = f"close-{sessions}"
    run = os.path.join(counter.work, name)
    runtime = os.path.join(run, "run")
    os.makedirs(run)
    out, argv = counter.argv(name, [
        "sextantd", "--runtime-dir", runtime, "--state-dir", os.path.join(run, "state"), "--no-gpsd", "--no-iio",
        "--prompt-policy", "allowAlways", "--log-level", "warning", "--io-threads", "1"])
    deadline = time.monotonic() + RUN_TIMEOUT
    with open(os.path.join(run, "sextantd.log"), "w") as log:
        daemon = subprocess.Popen(argv, env=counter.env, stderr=log)
    try:
        wait_for_sockets(daemon, runtime, deadline)
        # A first app opened and closed: the runtime's caches fill before the count (see count_replay).
        connect_idle_apps(runtime, 1, deadline)[0].sock.close()
        idlers = connect_idle_apps(runtime, sessions, deadline)
        control = Lines(os.path.join(runtime, "control.sock"), deadline)
        rpc(control.sock, "watch", {"topics": ["session"]}, 1)
        control.until(lambda m: m.get("id") == 1)
        subprocess.run(["callgrind_control", "--zero", str(daemon.pid)], check=True, capture_output=True, timeout=RUN_TIMEOUT)
        for app in idlers:
            app.sock.close()
        closed = set()
        while len(closed) < sessions:
            message = control.until(lambda m: m.get("method") == "session" and m["params"].get("change") == "closed")
            closed.add(message["params"].get("session"))
    finally:
        daemon.send_signal(signal.SIGTERM)
        try:
            status = daemon.wait(timeout=RUN_TIMEOUT)
        except subprocess.TimeoutExpired:
            daemon.kill()
            fail(f"{name}: sextantd did not stop on SIGTERM")
    if status != 0:
        fail(f"{name}: sextantd exited {status}; " + read_text(os.path.join(run, "sextantd.log"))[-2000:])
    return counter.total(name, out)


def per_close(counter, sizes):
    short, long = (count_closes(counter, sessions) for sessions in sizes)
    return (long - short) / (sizes[1] - sizes[0])


# -- per NMEA byte ------------------------------------------------------------------------

def gpsd_logs(limit):
    """Traces/gpsd's logs, one after the other, cut at the last line that ends within
    `limit` bytes (None: whole)."""
    folder = os.path.join(ROOT, "Traces", "gpsd")
    whole = b""
    for name in sorted(os.listdir(folder)):
        if name.endswith(".log"):
            with open(os.path.join(folder, name), "rb") as f:
                whole += f.read()
    if limit is not None and len(whole) > limit:
        whole = whole[:whole.rindex(b"\n", 0, limit) + 1]
    return whole


def per_nmea_byte(counter, copies, limit):
    """Sextant's instructions per NMEA byte, and gpsdecode's on the same logs (None
    without gpsd-clients)."""
    counts, anchor, sizes, logs = [], [], [], gpsd_logs(limit)
    has_anchor = shutil.which("gpsdecode") is not None
    for n in copies:
        log = os.path.join(counter.work, f"gpsd-x{n}.log")
        with open(log, "wb") as out:
            out.write(logs * n)
        sizes.append(len(logs) * n)
        counts.append(counter.run_tool(f"nmea-x{n}", ["sextantctl", "trace", "info", log]))
        if has_anchor:
            anchor.append(counter.run_anchor(f"gpsdecode-x{n}", "gpsdecode", log))
    per_byte = lambda c: (c[1] - c[0]) / (sizes[1] - sizes[0])
    return per_byte(counts), (per_byte(anchor) if has_anchor else None), sizes


# -- the budget -------------------------------------------------------------------------

def load_budget():
    with open(BUDGET) as f:
        return json.load(f)


def over_budget(figures, budget):
    """[(workload, measured, reference, allowed)] for each workload past its allowance."""
    tolerance = budget["tolerance"]
    over = []
    for workload, measured in figures.items():
        reference = budget["workloads"].get(workload)
        if reference is None:
            fail(f"{BUDGET} has no reference for '{workload}': record one (--record)")
        allowed = reference * (1 + tolerance)
        if measured > allowed:
            over.append((workload, measured, reference, allowed))
    return over


def record(figures):
    budget = {
        "about": "Instructions (callgrind's Ir) per unit of work, by Tools/bench/bench-callgrind.py: the "
                 "difference of two input sizes over their difference. CI fails when a figure exceeds its "
                 "reference by more than `tolerance` (a share).",
        "build": "the release multi-call binary of Tools/packaging/install.sh build (swift build -c release "
                 "--static-swift-stdlib --product sextant), its debug information stripped",
        "commit": git_commit(),
        "valgrind": subprocess.run(["valgrind", "--version"], capture_output=True, text=True).stdout.strip(),
        "measured": datetime.date.today().isoformat(),
        "tolerance": load_budget()["tolerance"] if os.path.exists(BUDGET) else 0.10,
        "workloads": {workload: round(value, 1) for workload, value in figures.items()},
    }
    with open(BUDGET, "w") as f:
        json.dump(budget, f, indent=2)
        f.write("\n")
    print(f"bench-callgrind: recorded as the references in {os.path.relpath(BUDGET, ROOT)}")


def git_commit():
    """The last commit that changed what is built: the figures are the sources' at it."""
    done = subprocess.run(["git", "-C", ROOT, "rev-list", "-1", "--abbrev-commit", "--abbrev=12", "HEAD", "--",
                           "Sources", "Package.swift", "Package.resolved"], capture_output=True, text=True)
    return done.stdout.strip() or "unknown"


# -- the run ------------------------------------------------------------------------------

def measure(counter, smoke):
    fix_sizes, apps_counts, copies, limit = ((SMOKE_FIX_SIZES, SMOKE_FIX_APPS, SMOKE_NMEA_COPIES, SMOKE_NMEA_BYTES) if smoke
                                             else (FIX_SIZES, FIX_APPS, NMEA_COPIES, None))
    figures = {}
    for apps_count in apps_counts:
        figures[f"fix, {apps_count} app{'' if apps_count == 1 else 's'}"] = per_fix(counter, apps_count, fix_sizes)
    if not smoke:
        figures[f"fix, 0 apps, {IDLE_APPS} idle"] = per_fix(counter, 0, fix_sizes, IDLE_APPS)
        figures[CLOSE_WORKLOAD] = per_close(counter, CLOSE_SIZES)
    figures["NMEA byte"], anchors, nmea_sizes = per_nmea_byte(counter, copies, limit)
    sizes = (f"fixes: traces of {fix_sizes[0]} and {fix_sizes[1]} fixes replayed at speed {REPLAY_SPEED}; "
             f"NMEA: Traces/gpsd's logs x{copies[0]} and x{copies[1]}, {nmea_sizes[0]} and {nmea_sizes[1]} bytes")
    return figures, {"NMEA byte": anchors} if anchors else {}, sizes


CLOSE_WORKLOAD = f"session closed, {CLOSE_SIZES[0]}-{CLOSE_SIZES[1]} open"


def print_table(figures, anchors, sizes, budget, bin_dir, seconds, runs):
    print(f"instructions (callgrind Ir) per unit, the difference of two sizes; {bin_dir}/sextant")
    print(f"({sizes}; {runs} runs under callgrind in {seconds:.0f} s, load average {os.getloadavg()[0]:.2f})")
    reference_note = f"reference ({budget['commit']}, +{budget['tolerance'] * 100:.0f}% allowed)" if budget else "reference"
    print(f"{'workload':28} {'measured':>14}   {reference_note}")
    for workload, measured in figures.items():
        reference = budget["workloads"].get(workload) if budget else None
        if reference:
            change = f"{reference:14,.1f}   {(measured - reference) / reference * 100:+.1f}%"
        else:
            change = f"{'-':>14}"
        unit = " (per byte)" if "NMEA" in workload else "" if workload == CLOSE_WORKLOAD else " (per fix)"
        print(f"{workload + unit:28} {measured:14,.1f}   {change}")
    apps = sorted(int(w.split()[1]) for w in figures if w.startswith("fix, "))
    if len(apps) > 1 and apps[0] == 0 and apps[-1] > 1:
        most = apps[-1]
        extra = (figures[f"fix, {most} apps"] - figures["fix, 0 apps"]) / most
        print(f"{'one more app, per fix':28} {extra:14,.1f}   (fix, {most} apps less fix, 0 apps, over {most})")
    idle = f"fix, 0 apps, {IDLE_APPS} idle"
    if idle in figures and "fix, 0 apps" in figures:
        extra = (figures[idle] - figures["fix, 0 apps"]) / IDLE_APPS
        print(f"{'one more idle app, per fix':28} {extra:14,.1f}   ({idle} less fix, 0 apps, over {IDLE_APPS})")
    if anchors.get("NMEA byte"):
        gpsdecode = anchors["NMEA byte"]
        print(f"{'gpsdecode (per byte)':28} {gpsdecode:14,.1f}   the anchor, same logs: Sextant "
              f"{gpsdecode / figures['NMEA byte']:.1f}x fewer instructions")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin-dir", default=None, help="holds the multi-call `sextant` (default .build/release; .build/debug with --smoke)")
    parser.add_argument("--check", action="store_true", help="fail when a workload exceeds its reference plus the tolerance")
    parser.add_argument("--record", action="store_true", help=f"write the figures as the references in {os.path.relpath(BUDGET, ROOT)}")
    parser.add_argument("--keep", default=None, help="a directory to keep the callgrind.out files in")
    parser.add_argument("--smoke", action="store_true", help="tiny inputs, the debug build, no budget")
    parser.add_argument("--diagnostics", action="store_true", help="each app also subscribes to diagnostics (no budget)")
    parser.add_argument("--closes", action="store_true", help=f"only the '{CLOSE_WORKLOAD}' workload (no budget)")
    args = parser.parse_args()
    global DIAGNOSTICS
    DIAGNOSTICS = args.diagnostics
    if args.diagnostics and (args.check or args.record):
        parser.error("--diagnostics measures a variant: no --check or --record with it")
    if args.closes and (args.check or args.record):
        parser.error("--closes measures one workload: no --check or --record with it")
    if args.smoke and (args.check or args.record):
        parser.error("--smoke's figures mean nothing: no --check or --record with it")
    if shutil.which("valgrind") is None:
        fail("valgrind is missing (Tools/ci/setup.sh installs it)")
    args.bin_dir = args.bin_dir or os.path.join(ROOT, ".build", "debug" if args.smoke else "release")
    if args.keep:
        os.makedirs(args.keep, exist_ok=True)
    work = tempfile.mkdtemp(prefix="sextant-bench-callgrind-")
    try:
        started = time.monotonic()
        counter = Counter(args.bin_dir, work, args.keep)
        if (args.check or args.record) and counter.dynamic_runtime:
            fail(f"{args.bin_dir}/sextant links the Swift runtime dynamically (a debug build): the references "
                 "are the static release build's (Tools/packaging/install.sh build)")
        if args.closes:
            figures, anchors, sizes = {CLOSE_WORKLOAD: per_close(counter, CLOSE_SIZES)}, {}, f"sessions: {CLOSE_SIZES[0]} and {CLOSE_SIZES[1]} closed"
        else:
            figures, anchors, sizes = measure(counter, args.smoke)
        budget = load_budget() if os.path.exists(BUDGET) and not args.smoke else None
        print_table(figures, anchors, sizes, budget, args.bin_dir, time.monotonic() - started, counter.runs)
        if any(value <= 0 for value in figures.values()):
            fail("a workload's longer input cost no more than its shorter one: the counting is broken")
        if args.record:
            record(figures)
        elif args.check:
            check(figures, budget)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def check(figures, budget):
    if budget is None:
        fail(f"no {BUDGET} to check against (--record writes one)")
    over = over_budget(figures, budget)
    for workload, measured, reference, allowed in over:
        print(f"bench-callgrind: OVER BUDGET: {workload}: {measured:,.0f} instructions, "
              f"{(measured - reference) / reference * 100:+.1f}% on the reference {reference:,} "
              f"(measured at {budget['commit']}; {budget['tolerance'] * 100:.0f}% allowed, up to {allowed:,.0f})",
              file=sys.stderr)
    if over:
        fail(f"{len(over)} workload(s) over budget ({os.path.relpath(BUDGET, ROOT)}); if the cost is meant, "
             "record the new figures with --record and say why in the commit")
    print(f"bench-callgrind: every workload within its budget (+{budget['tolerance'] * 100:.0f}%)")


if __name__ == "__main__":
    main()
