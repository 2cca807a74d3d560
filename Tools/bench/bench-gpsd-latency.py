#!/usr/bin/python3
"""Measures the latency sextantd adds between gpsd and an app.

Runs a real gpsd on a FIFO and a sextantd fed by it, then feeds an NMEA log into the
FIFO, a sentence at a time. One process reads both ends at once: gpsd's own TPVs (a
plain `?WATCH` client) and the `location` events of an app streaming from sextantd. The
n-th fix gpsd reports is paired with the n-th location the app gets (the daemon passes
them on one for one, in order), and the difference of their arrival times is the latency
sextantd adds: reading gpsd's socket (on the hub's event loop), decoding, the hub, the
app's queue and socket.

The anchor is gpsd's own client (the reference socket): what it sees is latency zero
by construction; the target for what Sextant adds is p99 < 1 ms.

Usage: Tools/bench/bench-gpsd-latency.py [--bin-dir .build/release] [--log Traces/gpsd/haicom-305N.log]
                                   [--pause 0.02] [--runs 1] [--smoke]
--smoke: the debug build and a short log: checks that every fix still reaches the app.
Needs gpsd (Debian: gpsd), the built sextantd and sextantctl, and the log's .chk file.
"""

import argparse
import json
import os
import select
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


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(condition, timeout, what):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.02)
    sys.exit(f"timed out waiting for {what}")


class Lines:
    """A socket read one line at a time, each stamped with its arrival time."""

    def __init__(self, sock):
        self.sock = sock
        self.buffer = b""

    def read(self):
        data = self.sock.recv(65536)
        now = time.monotonic()
        if not data:
            raise EOFError
        self.buffer += data
        *lines, self.buffer = self.buffer.split(b"\n")
        return [(now, json.loads(line)) for line in lines if line.strip()]


def rpc(path, method, params=None):
    with socket.socket(socket.AF_UNIX) as s:
        s.connect(path)
        s.sendall(json.dumps({"jsonrpc": "2.0", "id": 1, "method": method, "params": params or {}}).encode() + b"\n")
        reader = Lines(s)
        while True:
            for _, message in reader.read():
                if message.get("id") == 1:
                    return message.get("result")


def run_once(args, work):
    port = free_port()
    fifo = os.path.join(work, "nmea.fifo")
    os.mkfifo(fifo, 0o666)
    os.chmod(fifo, 0o666)  # gpsd drops privileges to user gpsd
    gpsd = subprocess.Popen([args.gpsd, "-N", "-n", "-b", "-S", str(port), fifo], stderr=subprocess.DEVNULL)
    runtime, state = os.path.join(work, "run"), os.path.join(work, "state")
    daemon = None
    try:
        wait_for(lambda: _can_connect(port), 10, "gpsd")
        reference = socket.create_connection(("127.0.0.1", port))
        reference.sendall(b'?WATCH={"enable":true,"json":true}\n')
        daemon = subprocess.Popen(
            [fresh_binary.program(args.bin_dir, "sextantd"), "--runtime-dir", runtime, "--state-dir", state,
             "--gpsd", f"127.0.0.1:{port}", "--log-level", "warning"], stderr=subprocess.DEVNULL)
        control = os.path.join(runtime, "control.sock")
        wait_for(lambda: os.path.exists(control) and _can_connect_unix(control), 15, "sextantd")
        app_id = "com.example.latency"
        subprocess.check_call([fresh_binary.program(args.bin_dir, "sextantctl"), "permissions", "grant", app_id, "--runtime-dir", runtime],
                              stdout=subprocess.DEVNULL)
        app = socket.socket(socket.AF_UNIX)
        app.connect(os.path.join(runtime, "app.sock"))
        app.sendall(b'{"jsonrpc":"2.0","id":1,"method":"hello","params":{"app":"' + app_id.encode() + b'"}}\n')
        app.sendall(b'{"jsonrpc":"2.0","id":2,"method":"location.start"}\n')
        wait_for(lambda: _gpsd_state(control) == "no fix", 15, "sextantd to watch gpsd")

        writer = open(fifo, "w")

        def feed():
            with open(args.log) as log:
                for line in log:
                    writer.write(line)
                    writer.flush()
                    time.sleep(args.pause)

        threading.Thread(target=feed, daemon=True).start()
        # gpsd's own output for the log (its .chk file) says how many TPVs to wait for.
        with open(args.log + ".chk") as chk:
            tpv_count = sum(1 for line in chk if line.startswith('{"class":"TPV"'))
        tpvs, fixes, locations = 0, [], []
        readers = {reference: Lines(reference), app: Lines(app)}
        deadline = time.monotonic() + 120
        while tpvs < tpv_count or len(locations) < len(fixes):
            if time.monotonic() > deadline:
                sys.exit(f"timed out: {tpvs} of {tpv_count} TPVs, {len(locations)} of {len(fixes)} locations")
            ready, _, _ = select.select(list(readers), [], [], 1.0)
            for sock in ready:
                for at, message in readers[sock].read():
                    if sock is reference and message.get("class") == "TPV":
                        tpvs += 1
                        if message.get("mode", 0) >= 2 and "lat" in message:
                            fixes.append(at)
                    elif sock is app and message.get("method") == "location":
                        locations.append(at)
        writer.close()
        return [(b - a) * 1000 for a, b in zip(fixes, locations)], len(fixes), len(locations)
    finally:
        if daemon:
            daemon.terminate()
            daemon.wait()
        gpsd.kill()
        gpsd.wait()


def _can_connect(port):
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
        return True
    except OSError:
        return False


def _can_connect_unix(path):
    try:
        with socket.socket(socket.AF_UNIX) as s:
            s.connect(path)
        return True
    except OSError:
        return False


def _gpsd_state(control):
    for source in rpc(control, "status").get("sources", []):
        if source.get("name") == "gpsd":
            return source.get("state")
    return None


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin-dir", default=None, help="default .build/release (.build/debug with --smoke)")
    parser.add_argument("--log", default=None, help="default Traces/gpsd/haicom-305N.log (triton400.log with --smoke)")
    parser.add_argument("--pause", type=float, default=0.02, help="seconds between NMEA sentences (default 0.02)")
    parser.add_argument("--runs", type=int, default=1)
    parser.add_argument("--gpsd", default=shutil.which("gpsd") or "/usr/sbin/gpsd")
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()
    args.bin_dir = args.bin_dir or os.path.join(ROOT, ".build", "debug" if args.smoke else "release")
    args.log = args.log or os.path.join(ROOT, "Traces", "gpsd", "triton400.log" if args.smoke else "haicom-305N.log")
    if not os.path.exists(args.gpsd):
        sys.exit("gpsd is not installed (Debian: apt-get install gpsd)")

    latencies = []
    for run in range(args.runs):
        work = tempfile.mkdtemp(prefix="sextant-bench-")
        os.chmod(work, 0o755)
        try:
            values, fixes, locations = run_once(args, work)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        if fixes != locations:
            sys.exit(f"run {run + 1}: gpsd reported {fixes} fixes but the app got {locations} locations")
        latencies += values
    latencies.sort()
    print(f"log {os.path.relpath(args.log, ROOT)}, {args.runs} run(s), {len(latencies)} fixes, {args.pause * 1000:g} ms between sentences")
    if not latencies:
        sys.exit("no fix reached the app")
    print(f"{'':40} {'median':>9} {'p90':>9} {'p99':>9} {'max':>9}")
    print(f"{'gpsd -> its own client (anchor)':40} {0:9.2f} {0:9.2f} {0:9.2f} {0:9.2f}  ms (the reference)")
    print(f"{'added by sextantd: gpsd -> app location':40} {statistics.median(latencies):9.2f} {percentile(latencies, 0.9):9.2f} "
          f"{percentile(latencies, 0.99):9.2f} {latencies[-1]:9.2f}  ms (target p99 < 1 ms)")
    print(f"({args.bin_dir}; load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs)")


def percentile(ordered, share):
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


if __name__ == "__main__":
    main()
