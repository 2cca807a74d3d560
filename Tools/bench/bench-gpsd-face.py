#!/usr/bin/python3
"""Figures for sextantd's gpsd face (docs/gpsd.md), beside gpsd itself.

1. Latency. A real gpsd reads an NMEA log from a FIFO, a sentence every --pause seconds;
   sextantd takes its fixes (--gpsd) and serves them on its gpsd face. Two copies of the
   same libgps program (Tools/ci/gpsd-clients/libgps-reader.c) read at once, one from gpsd,
   one from sextantd's face, each stamping the moment gps_read returned a fix. The n-th
   fix of one is the n-th of the other (the gpsd source passes on every TPV with a fix,
   in order), so their difference is what Sextant adds between a fix entering it and a
   libgps client's gps_read: libgps in sextantd, the hub, the rules, the face's queue and
   socket. gpsd's own latency is from the write of the sentence that completed the fix
   into the FIFO to gps_read in its client.

2. Throughput. `sextantd --replay LOG --loop --speed max --gpsd-listen` and `gpsfake -c 0`
   on the same log (gpsfake also loops it): fixes with a position per second that the
   libgps program receives, over --count TPVs.

Usage: Tools/bench/bench-gpsd-face.py [--bin-dir .build/release] [--log Traces/gpsd/haicom-305N.log]
                                [--pause 0.02] [--count 20000] [--smoke]
--smoke: the debug build, a short log and 200 fixes: checks that both sides still run.
Needs gpsd, gpsfake (gpsd-tools), libgps-dev and cc, and the built sextantd.
"""

import argparse
import os
import signal
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
        if condition():
            return
        time.sleep(0.02)  # the condition has no event to wait on
    sys.exit(f"timed out waiting for {what}")


def can_connect(port):
    try:
        socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
        return True
    except OSError:
        return False


def build_reader(work):
    reader = os.path.join(work, "libgps-reader")
    source = os.path.join(ROOT, "Tools", "ci", "gpsd-clients", "libgps-reader.c")
    subprocess.run(["cc", "-O2", "-o", reader, source, "-lgps", "-lm"], check=True)
    return reader


def start_reader(reader, port, count, idle, work, name):
    out = open(os.path.join(work, name + ".out"), "w")
    return subprocess.Popen([reader, "127.0.0.1", str(port), str(count), str(idle)], stdout=out), out.name


def fixes(path):
    """(fix time, receive time) of each FIX line."""
    with open(path) as f:
        return [(float(p[4]), float(p[5])) for p in (line.split() for line in f) if p and p[0] == "FIX"]


def percentile(values, q):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def latency(args, reader, work):
    fifo = os.path.join(work, "nmea.fifo")
    os.mkfifo(fifo, 0o666)
    os.chmod(work, 0o755)
    os.chmod(fifo, 0o666)  # gpsd drops privileges to user gpsd
    gpsd_port, face_port = free_port(), free_port()
    procs = [subprocess.Popen(["gpsd", "-N", "-n", "-b", "-S", str(gpsd_port), fifo], stderr=subprocess.DEVNULL)]
    try:
        wait_for(lambda: can_connect(gpsd_port), 10, "gpsd")
        # gpsd opens its devices before it answers a watch, and refuses a FIFO that a
        # writer opened first: open the write end only after its answer.
        with socket.create_connection(("127.0.0.1", gpsd_port), timeout=10) as probe:
            probe.sendall(b'?WATCH={"enable":true};\n')
            answer = b""
            while b'"class":"WATCH"' not in answer:
                answer += probe.recv(4096)
        writer = os.open(fifo, os.O_WRONLY)
        procs.append(subprocess.Popen(
            [fresh_binary.program(args.bin_dir, "sextantd"), "--runtime-dir", work + "/run", "--state-dir", work + "/state",
             "--no-iio", "--gpsd", f"127.0.0.1:{gpsd_port}", "--gpsd-listen", str(face_port),
             "--prompt-policy", "allowAlways", "--log-level", "warning"], stderr=subprocess.DEVNULL))
        wait_for(lambda: can_connect(face_port), 15, "sextantd's gpsd face")
        lines = [l for l in open(args.log, errors="replace").read().splitlines(True) if l.startswith("$")]
        direct, direct_out = start_reader(reader, gpsd_port, 10**6, 8, work, "direct")
        via, via_out = start_reader(reader, face_port, 10**6, 8, work, "via-sextant")
        time.sleep(2)  # both watching, and sextantd's gpsd source connected (it has no event to wait on)
        written = []
        for line in lines:
            written.append(time.time())
            os.write(writer, line.encode())
            time.sleep(args.pause)
        for p in (direct, via):
            p.wait(timeout=60)  # each stops 8 s after the last report
        os.close(writer)
        a, b = fixes(direct_out), fixes(via_out)
        if len(a) != len(b) or not a:
            sys.exit(f"gpsd's client got {len(a)} fixes, Sextant's face client {len(b)}: cannot pair them")
        added = [(rb - ra) * 1000 for (_, ra), (_, rb) in zip(a, b)]
        own = [(r - max(t for t in written if t <= r)) * 1000 for _, r in a]
        return len(a), own, added
    finally:
        for p in procs:
            p.kill()
            p.wait()


def rate(command, port, reader, count, work, name, ready):
    # A process group of its own: gpsfake starts a gpsd, which a kill of gpsfake alone
    # would leave running.
    proc = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        wait_for(ready, 15, name)
        client, out = start_reader(reader, port, count, 5, work, name)
        client.wait(timeout=600)
        got = fixes(out)
        return (len(got) - 1) / (got[-1][1] - got[0][1]), len(got)
    finally:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--bin-dir", default=None, help="default .build/release (.build/debug with --smoke)")
    parser.add_argument("--log", default=None, help="default Traces/gpsd/haicom-305N.log (triton400.log with --smoke)")
    parser.add_argument("--pause", type=float, default=0.02)
    parser.add_argument("--count", type=int, default=20000)
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()
    if args.smoke:
        args.count = 200
    args.bin_dir = args.bin_dir or os.path.join(ROOT, ".build", "debug" if args.smoke else "release")
    args.log = args.log or os.path.join(ROOT, "Traces", "gpsd", "triton400.log" if args.smoke else "haicom-305N.log")
    for tool in ("gpsd", "gpsfake", "cc"):
        if not shutil.which(tool):
            sys.exit(f"{tool} is not installed (Tools/ci/setup.sh)")
    with tempfile.TemporaryDirectory(prefix="bench-gpsd-face-") as work:
        reader = build_reader(work)
        latency_dir = os.path.join(work, "latency")
        os.mkdir(latency_dir)
        n, own, added = latency(args, reader, latency_dir)
        print(f"latency over {n} fixes ({os.path.basename(args.log)}, a sentence every {args.pause * 1000:.0f} ms):")
        print(f"  gpsd -> libgps gps_read (FIFO write to read):   median {statistics.median(own):.2f} ms, p99 {percentile(own, 0.99):.2f} ms")
        print(f"  added by Sextant (gpsd's read to the face's):   median {statistics.median(added):.2f} ms, p99 {percentile(added, 0.99):.2f} ms")
        port = free_port()
        sextant = [fresh_binary.program(args.bin_dir, "sextantd"), "--runtime-dir", work + "/run2", "--state-dir", work + "/state2",
                   "--no-iio", "--no-gpsd", "--replay", args.log, "--loop", "--speed", "max", "--gpsd-listen", str(port),
                   "--prompt-policy", "allowAlways", "--log-level", "warning"]
        s_rate, s_n = rate(sextant, port, reader, args.count, work, "sextant", lambda: can_connect(port))
        port2 = free_port()
        fake = ["gpsfake", "-q", "-c", "0", "-P", str(port2), args.log]
        f_rate, f_n = rate(fake, port2, reader, args.count, work, "gpsfake", lambda: can_connect(port2))
        print(f"throughput to one libgps client, {os.path.basename(args.log)} looped:")
        print(f"  sextantd --replay --speed max --gpsd-listen: {s_rate:8.0f} fixes/s ({s_n} fixes)")
        print(f"  gpsfake -c 0:                                {f_rate:8.0f} fixes/s ({f_n} fixes)")


if __name__ == "__main__":
    main()
