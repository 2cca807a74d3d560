"""The floor beside Tools/bench/bench-fanout.py's sextantd: Tools/bench/fanout-floor.c, a server
that only writes the same lines to the same kind of readers (a Unix socket per app, 10 Hz
locations, the orientation events of a turn every 4 s), read by the same
Tools/bench/fanout-reader.c. What a delivery costs sextantd less what it costs the floor is
Sextant's own share; the floor's lags are the kernel's and the reader's.

Imported by Tools/bench/bench-fanout.py (its name has no bench- prefix: Tools/bench/bench-smoke.sh does
not take it for a benchmark).
"""

import json
import os
import socket
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))


def build(work):
    floor = os.path.join(work, "fanout-floor")
    subprocess.run(["cc", "-O2", "-o", floor, os.path.join(HERE, "fanout-floor.c")], check=True)
    return floor


def capture_location_line(runtime, app, trace, rpc):
    """One `location` line exactly as sextantd sent it to `app`: the trace replayed up to its
    first fix, read from the app's socket (after the measured runs, which this disturbs)."""
    control = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    control.connect(os.path.join(runtime, "control.sock"))
    rpc(control, "replay.start", {"path": trace, "speed": 1, "until": 0.05}, 1)
    app.setblocking(True)
    app.settimeout(30)
    buffer = b""
    try:
        while True:
            while b"\n" in buffer:
                line, buffer = buffer.split(b"\n", 1)
                if json.loads(line).get("method") == "location":
                    return line.decode()
            data = app.recv(65536)
            if not data:
                sys.exit("the daemon closed an app while its location line was captured")
            buffer += data
    except socket.timeout:
        sys.exit("no location line came to the app to copy for the floor")
    finally:
        rpc(control, "replay.stop", None, 2)
        control.close()


def connect(path, count, deadline):
    """`count` connections to the floor's socket; the first waits for it to listen."""
    sockets = []
    while len(sockets) < count:
        s = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            s.connect(path)
        except (FileNotFoundError, ConnectionRefusedError):
            s.close()
            if sockets or time.monotonic() > deadline:
                raise
            time.sleep(0.01)
            continue
        sockets.append(s)
    return sockets


def measure(floor, reader, receive_with_c_reader, apps_count, seconds, location_line, work):
    """The floor's run with `apps_count` apps for `seconds`: its CPU per second (a share of a
    core) and each fix's lag behind its due time at the last app (ms, sorted)."""
    path = os.path.join(work, "floor.sock")
    child = subprocess.Popen([floor, path, str(apps_count), str(seconds), location_line],
                             stdout=subprocess.PIPE, text=True)
    apps = []
    try:
        apps = connect(path, apps_count, time.monotonic() + 30)
        start = float(child.stdout.readline().split()[1])
        latest = receive_with_c_reader(reader, apps, seconds * 10, seconds + 30)
        cpu = float(child.stdout.readline().split()[1]) / seconds
    finally:
        for s in apps:
            s.close()
        child.wait(timeout=30)
    # As for sextantd, the fix due at the start is left out (sextantd's went out before its clock ran).
    lags = sorted(max(0.0, arrival - (start + index / 10)) * 1000 for index, arrival in latest.items() if index > 0)
    if len(latest) != seconds * 10:
        sys.exit(f"the floor: only {len(latest)} of {seconds * 10} fixes reached every app")
    return cpu, lags


def print_beside(apps_count, sextant, floor, percentile, baseline=None, keep=None):
    """sextantd's figures beside the floor's: each is (CPU share of a core, sorted lags ms).
    `baseline`, if measured: {"apps": B, "sextant": (cpu, lags), "floor": (cpu, lags),
    "asks": (asks with apps_count, asks with B), "loads": {run: (load average, busy cores)}}
    for runs "sextantd", "floor", "sextantd baseline", "floor baseline" (load: load average, others' busy cores). `keep(label, cells)`
    is told each row (Tools/bench/bench-fanout.py's --io-threads side by side)."""
    deliveries = apps_count * 10  # location events a second
    print(f"\nthe floor beside it: Tools/bench/fanout-floor.c writing the same lines to {apps_count} apps, read by the same reader")
    print(f"{'':34} {'sextantd':>14} {'floor':>14} {'sextantd / floor':>18}")
    (s_cpu, s_lags), (f_cpu, f_lags) = sextant, floor

    def row(label, s_cell, f_cell, ratio=""):
        print(f"{label:34} {s_cell:>14} {f_cell:>14} {ratio:>18}".rstrip())
        if keep:
            keep(label, [s_cell, f_cell, ratio])

    s_each, f_each = s_cpu / deliveries * 1e6, f_cpu / deliveries * 1e6
    row("CPU per location delivered", f"{s_each:.2f} µs", f"{f_each:.2f} µs", f"{s_each / max(f_each, 1e-9):.1f}x")
    if baseline:
        print_marginal(apps_count, sextant, floor, baseline, row)
    for name, share in (("p50", 0.5), ("p95", 0.95), ("p99", 0.99)):
        row("last app fix after due, " + name, f"{percentile(s_lags, share):.2f} ms", f"{percentile(f_lags, share):.2f} ms")
    row("last app fix after due, max", f"{s_lags[-1]:.2f} ms", f"{f_lags[-1]:.2f} ms")
    row("fixes counted (samples)", str(len(s_lags)), str(len(f_lags)))
    if baseline:
        (_, bs_lags), (_, bf_lags) = baseline["sextant"], baseline["floor"]
        row(f"fixes counted, {baseline['apps']} app run", str(len(bs_lags)), str(len(bf_lags)))
        loads = baseline["loads"]
        for apps, suffix in ((apps_count, ""), (baseline["apps"], " baseline")):
            s_load, f_load = loads["sextantd" + suffix], loads["floor" + suffix]
            row(f"load avg / others' cores, {apps} app{'s' if apps != 1 else ''}",
                f"{s_load[0]:.2f} / {s_load[1]:.2f}", f"{f_load[0]:.2f} / {f_load[1]:.2f}")
    print("(CPU per delivery: the server's user + system time over the run, over apps x 10 fixes a second; "
          "sextantd's also reads the 100 Hz accelerometer and answers the status probe, the floor only wakes at 100 Hz)")
    if baseline:
        print(f"(marginal: (CPU with {apps_count} apps - CPU with {baseline['apps']}) / ({apps_count} - {baseline['apps']}) apps x 10 fixes "
              f"a second, each from a run of its own with the same trace, reader and (sextantd) status probe: what does not scale "
              f"with the apps cancels out; status asks answered {baseline['asks'][0]} and {baseline['asks'][1]}; "
              f"others' cores: the machine's busy cores ({os.cpu_count()} CPUs) less this run's processes', on average over the run)")


def print_marginal(apps_count, sextant, floor, baseline, row):
    """The rows of the cost of a delivery over the baseline's: the CPU of each run and the
    difference over the deliveries added."""
    added = (apps_count - baseline["apps"]) * 10
    (s_cpu, _), (f_cpu, _) = sextant, floor
    (bs_cpu, _), (bf_cpu, _) = baseline["sextant"], baseline["floor"]
    s_marginal, f_marginal = (s_cpu - bs_cpu) / added * 1e6, (f_cpu - bf_cpu) / added * 1e6
    row("CPU per delivery, marginal", f"{s_marginal:.2f} µs", f"{f_marginal:.2f} µs",
        f"{s_marginal / f_marginal:.2f}x" if f_marginal > 0 else "-")
    row(f"CPU, share of a core, {apps_count} apps", f"{s_cpu * 100:.2f} %", f"{f_cpu * 100:.2f} %")
    b = baseline["apps"]
    row(f"CPU, share of a core, {b} app{'s' if b != 1 else ''}", f"{bs_cpu * 100:.2f} %", f"{bf_cpu * 100:.2f} %")
