#!/usr/bin/python3
"""Instructions per fix of the time zone service (sextant-rules(7) Z10: pay only for what is
heard), counted by callgrind as Tools/bench/bench-callgrind.py counts a fix (its machinery,
imported: the difference of a short and a long replay over their difference, counted after a
warm-up, one event loop, deterministic hashing).

Workloads, each a private sextantd replaying 10 Hz fixes at speed 5 along the Elvas-Badajoz
border (refined cells of the table: the dearest lookups) to no app reading locations:
- no table: `sextantd` without `--time-zone-table` (the zone unknown);
- table, nobody listening: `--time-zone-table Traces/tz/test-regions.sxtz`, no listener;
- table, 1 listener: the same with one app that called `timeZone.start` (the follower
  judges every fix; Z3 keeps the zone, so no event goes out after the first).
With --apps N (the issue's 1000): N apps connected to the daemon with the table, first
without the zone (each said hello only), then with it (each called `timeZone.start`): the
zone's cost per fix with N listeners, and per second at 10 Hz as a share of a core that
executes 1e9 instructions a second (a low figure: IPC 1/3 at 3 GHz), so an upper bound.

Usage: Tools/bench/bench-timezone.py [--bin-dir .build/debug] [--apps N] [--smoke]
--smoke: 10 and 20 fixes, the listener's workload only: checks that the counting runs.
"""

import argparse
import importlib.util
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("bench_callgrind", os.path.join(HERE, "bench-callgrind.py"))
cg = importlib.util.module_from_spec(spec)
spec.loader.exec_module(cg)

TABLE = os.path.join(cg.ROOT, "Traces", "tz", "test-regions.sxtz")
SIZES, SMOKE_SIZES = (200, 600), (10, 20)


def border_trace(path, fixes):
    """`fixes` fixes at 10 Hz walking north along the Elvas-Badajoz border, wobbling across it."""
    with open(path, "w") as out:
        out.write('{"sextant":"trace","version":1,"start":"2026-07-01T10:00:00.000Z","profile":"phone"}\n')
        for i in range(fixes):
            lat, lon = 38.8794 + i * 1e-6, -7.0333 + ((i % 40) - 20) * 2e-5
            out.write(f'{{"t":{i / 10:.1f},"location":{{"lat":{lat:.7f},"lon":{lon:.7f},"hAcc":5.0}}}}\n')


def count(counter, name, table, listeners, fixes, zone=True):
    run = os.path.join(counter.work, f"{name}-{fixes}")
    runtime, trace, warm_up = (os.path.join(run, part) for part in ("run", "trace.jsonl", "warm-up.jsonl"))
    os.makedirs(run)
    border_trace(trace, fixes)
    border_trace(warm_up, cg.WARM_UP)
    args = ["sextantd", "--runtime-dir", runtime, "--state-dir", os.path.join(run, "state"), "--no-gpsd", "--no-iio",
            "--log-level", "warning", "--io-threads", "1", "--max-clients", str(max(listeners + 16, 1024)),
            "--max-apps-per-uid", str(max(listeners + 16, 256))] + (["--time-zone-table", TABLE] if table else [])
    out, argv = counter.argv(f"{name}-{fixes}", args)
    deadline = time.monotonic() + cg.RUN_TIMEOUT
    with open(os.path.join(run, "sextantd.log"), "w") as log:
        daemon = subprocess.Popen(argv, env=counter.env, stderr=log)
    try:
        cg.wait_for_sockets(daemon, runtime, deadline)
        apps = []
        for i in range(listeners):
            app = cg.Lines(os.path.join(runtime, "app.sock"), deadline)
            cg.rpc(app.sock, "hello", {"app": f"com.example.clock{i}"}, 1)
            if zone:
                cg.rpc(app.sock, "timeZone.start", None, 2)
            app.until(lambda m: m.get("id") == (2 if zone else 1))
            apps.append(app)
        control = cg.Lines(os.path.join(runtime, "control.sock"), deadline)
        cg.rpc(control.sock, "watch", {"topics": ["replay"]}, 1)
        control.until(lambda m: m.get("id") == 1)
        for ident, path in ((2, warm_up), (3, trace)):
            if ident == 3:
                subprocess.run(["callgrind_control", "--zero", str(daemon.pid)], check=True, capture_output=True, timeout=cg.RUN_TIMEOUT)
            cg.rpc(control.sock, "replay.start", {"path": path, "speed": cg.REPLAY_SPEED}, ident)
            control.until(lambda m: m.get("id") == ident)
            control.until(cg.replay_finished)
    finally:
        daemon.send_signal(signal.SIGTERM)
        status = daemon.wait(timeout=cg.RUN_TIMEOUT)
    if status != 0:
        cg.fail(f"{name}: sextantd exited {status}")
    total = counter.total(name, out)
    return total, service_share(out)


# The service's own members, by their mangled names (callgrind does not demangle Swift).
# VisitsService's check, the same shape (V6), for comparison.
MEMBERS = {"wantsFixes": "15TimeZoneServiceC10wantsFixes", "fixDecided": "15TimeZoneServiceC10fixDecided",
           "visits' wantsFixes": "13VisitsServiceC10wantsFixes"}


def service_share(out):
    """Inclusive instructions of the service's members in a counted run: what the service
    itself costs, without the run's noise (thread interleaving, the replay's pacing)."""
    done = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", out], capture_output=True, text=True)
    share = {}
    for member, mangled in MEMBERS.items():
        counts = [int(line.split()[0].replace(",", "")) for line in done.stdout.splitlines() if mangled in line and line.strip()[:1].isdigit()]
        share[member] = max(counts, default=0)
    return share


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin-dir", default=os.path.join(cg.ROOT, ".build", "debug"))
    parser.add_argument("--smoke", action="store_true")
    parser.add_argument("--apps", type=int, default=0, help="then N apps without and with the zone (the issue's 1000)")
    options = parser.parse_args()
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(soft, options.apps * 2 + 256)), hard))
    sizes = SMOKE_SIZES if options.smoke else SIZES
    with tempfile.TemporaryDirectory(prefix="bench-timezone-") as work:
        counter = cg.Counter(options.bin_dir, work, None)
        print(f"bench-timezone: {options.bin_dir}/sextant, fixes {sizes[0]} and {sizes[1]}, load {os.getloadavg()[0]:.1f}")
        figures = {}
        workloads = (("no table", False, 0), ("table, nobody listening", True, 0), ("table, 1 listener", True, 1))
        # --smoke checks that the counting runs (bench-smoke.sh's time limit): one workload.
        for name, table, listeners in workloads[-1:] if options.smoke else workloads:
            (short, _), (long, share) = (count(counter, name.replace(" ", "-").replace(",", ""), table, listeners, n) for n in sizes)
            figures[name] = (long - short) / (sizes[1] - sizes[0])
            own = ", ".join(f"{member} {share[member] / sizes[1]:,.0f}" for member in MEMBERS)
            print(f"  instructions per fix, {name}: {figures[name]:,.0f} in all; the service's own (inclusive): {own}", flush=True)
        base = figures.get("no table")
        for name in ("table, nobody listening", "table, 1 listener"):
            if base is not None:
                print(f"  {name} less no table: {figures[name] - base:+,.0f} per fix")
        if options.apps:
            many(counter, options.apps, sizes)


def many(counter, apps, sizes):
    """N apps connected, without then with the zone: the zone's cost per fix and at 10 Hz."""
    figures, shares = {}, {}
    for name, zone in ((f"{apps} apps, no zone", False), (f"{apps} apps, all listening", True)):
        tag = name.replace(" ", "-").replace(",", "")
        (short, _), (long, share) = (count(counter, tag, True, apps, n, zone=zone) for n in sizes)
        figures[name], shares[name] = (long - short) / (sizes[1] - sizes[0]), share
        own = ", ".join(f"{member} {share[member] / sizes[1]:,.0f}" for member in MEMBERS)
        print(f"  instructions per fix, {name}: {figures[name]:,.0f} in all; the service's own (inclusive): {own}", flush=True)
    on = shares[f"{apps} apps, all listening"]
    service = (on["wantsFixes"] + on["fixDecided"]) / sizes[1]
    extra = figures[f"{apps} apps, all listening"] - figures[f"{apps} apps, no zone"]
    print(f"  the zone with {apps} listeners: the service's own {service:,.0f} instructions a fix = {service * 10:,.0f} a second at 10 Hz"
          f" = {service * 10 / 1e9 * 100:.4f} % of a core at 1e9 instructions/s; the runs' totals differ by {extra:+,.0f} a fix")


if __name__ == "__main__":
    sys.exit(main())
