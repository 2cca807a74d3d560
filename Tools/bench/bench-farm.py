#!/usr/bin/python3
"""What one device of a farm costs a node: N sextantd side by side, each replaying a 10 Hz
walk at real speed to one app, beside N gpsd each reading 10 Hz NMEA from a FIFO to one
watching client, from the same run.

For each daemon: CPU (% of one core over the measured seconds, from /proc/PID/stat) and
memory from /proc/PID/smaps_rollup: Pss (shared code divided among the processes that map
it: what one more daemon costs once the code is in memory) and Private_Dirty (what it alone
wrote). docs/farm.md "How many devices a node holds" divides a node by these figures.

Usage: Tools/bench/bench-farm.py [--devices 10] [--seconds 20] [--bin-dir .build/release] [--smoke]
--smoke: the debug build, 2 devices, 2 s, no gpsd: checks that the figures are read.
"""

import argparse
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time

from proc_figures import cpu_seconds, rollup_kb
import fresh_binary  # beside this script: refuses a stale sextantd or sextantctl

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the repository, above Tools/bench/
RATE_HZ = 10


def write_walk(path, seconds=60):
    """A straight walk, one fix every 1/RATE_HZ s, looped by the daemon."""
    with open(path, "w") as f:
        f.write('{"sextant":"trace","version":1,"start":"2026-01-01T00:00:00Z"}\n')
        for i in range(seconds * RATE_HZ):
            f.write(f'{{"t":{i / RATE_HZ:.1f},"location":{{"lat":{48.85 + i * 1e-6:.7f},"lon":2.35,"hAcc":5}}}}\n')


def wait_for(path, process, what):
    deadline = time.monotonic() + 60
    while not os.path.exists(path):
        if time.monotonic() > deadline or process.poll() is not None:
            sys.exit(f"{what} did not start")
        time.sleep(0.05)


def start_device(bin_dir, work, index, walk):
    runtime = os.path.join(work, f"dev{index}", "run")
    daemon = subprocess.Popen(
        [fresh_binary.program(bin_dir, "sextantd"), "--runtime-dir", runtime, "--ephemeral", "--no-gpsd", "--no-iio",
         "--replay", walk, "--loop", "--prompt-policy", "allowWhileUsing", "--log-level", "warning"],
        stderr=subprocess.DEVNULL)
    wait_for(os.path.join(runtime, "app.sock"), daemon, "sextantd")
    app = subprocess.Popen([os.path.join(bin_dir, "sextant-sample-app"), "--runtime-dir", runtime],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return daemon, app


def wait_for_port(port, process):
    deadline = time.monotonic() + 30
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if time.monotonic() > deadline or process.poll() is not None:
                sys.exit(f"gpsd on port {port} did not start")
            time.sleep(0.05)


def nmea(sentence):
    checksum = 0
    for byte in sentence.encode():
        checksum ^= byte
    return f"${sentence}*{checksum:02X}\r\n"


def feed_fifos(fifos, stop):
    """GGA and RMC at RATE_HZ into every FIFO until `stop` is set."""
    streams = [open(fifo, "w") for fifo in fifos]
    tick = 0
    started = time.monotonic()
    while not stop.is_set():
        seconds = tick / RATE_HZ
        clock = f"{int(seconds // 3600) % 24:02d}{int(seconds // 60) % 60:02d}{seconds % 60:05.2f}"
        lines = (nmea(f"GPGGA,{clock},4851.0000,N,00221.0000,E,1,08,0.9,35.0,M,47.0,M,,")
                 + nmea(f"GPRMC,{clock},A,4851.0000,N,00221.0000,E,0.5,54.7,010126,,,A"))
        for stream in streams:
            stream.write(lines)
            stream.flush()
        tick += 1
        time.sleep(max(0, started + tick / RATE_HZ - time.monotonic()))
    for stream in streams:
        stream.close()


def start_gpsd_devices(work, count):
    gpsd = shutil.which("gpsd") or "/usr/sbin/gpsd"
    if not os.path.exists(gpsd) or not shutil.which("gpspipe"):
        return [], []
    os.chmod(work, 0o755)
    daemons, clients, fifos = [], [], []
    for index in range(count):
        fifo = os.path.join(work, f"gpsd{index}.fifo")
        os.mkfifo(fifo, 0o666)
        os.chmod(fifo, 0o666)
        port = 29470 + index
        daemons.append(subprocess.Popen([gpsd, "-N", "-n", "-b", "-S", str(port), fifo], stderr=subprocess.DEVNULL))
        fifos.append(fifo)
    for index in range(count):
        wait_for_port(29470 + index, daemons[index])
    for index in range(count):
        clients.append(subprocess.Popen(["gpspipe", "-w", f"127.0.0.1:{29470 + index}"],
                                        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
    return daemons + clients, fifos


def measure(pids, seconds):
    before = {pid: cpu_seconds(pid) for pid in pids}
    time.sleep(seconds)
    return {pid: (cpu_seconds(pid) - before[pid]) / seconds * 100 for pid in pids}


def summary(label, pids, cpu):
    rollups = [rollup_kb(pid) for pid in pids]
    mean = lambda values: sum(values) / len(values)
    print(f"{label:34} {mean([cpu[p] for p in pids]):7.2f} {max(cpu[p] for p in pids):7.2f} "
          f"{mean([r['Pss'] for r in rollups]) / 1024:8.1f} {mean([r['Private_Dirty'] for r in rollups]) / 1024:8.1f} "
          f"{mean([r['Rss'] for r in rollups]) / 1024:8.1f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--devices", type=int, default=10)
    parser.add_argument("--seconds", type=float, default=20)
    parser.add_argument("--bin-dir", default=None, help="default .build/release (.build/debug with --smoke)")
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()
    if args.smoke:
        args.devices, args.seconds = 2, 2
    args.bin_dir = args.bin_dir or os.path.join(ROOT, ".build", "debug" if args.smoke else "release")

    work = tempfile.mkdtemp(prefix="sextant-bench-farm-")
    started, stop, feeder = [], threading.Event(), None
    try:
        walk = os.path.join(work, "walk.jsonl")
        write_walk(walk)
        devices = [start_device(args.bin_dir, work, i, walk) for i in range(args.devices)]
        started += [process for device in devices for process in device]
        anchors, fifos = ([], []) if args.smoke else start_gpsd_devices(work, args.devices)
        started += anchors
        if fifos:
            feeder = threading.Thread(target=feed_fifos, args=(fifos, stop), daemon=True)
            feeder.start()
        time.sleep(min(3, args.seconds))
        daemons = [daemon.pid for daemon, _ in devices]
        gpsds = [process.pid for process in anchors[:len(fifos)]]
        cpu = measure(daemons + gpsds, args.seconds)
        print(f"{args.devices} devices at {RATE_HZ} Hz, one app each, {args.seconds:g} s "
              f"({args.bin_dir}; load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs)")
        print(f"{'per daemon':34} {'CPU %':>7} {'max %':>7} {'Pss MiB':>8} {'PrivDrt':>8} {'RSS MiB':>8}")
        summary("sextantd (replay → app.sock app)", daemons, cpu)
        if gpsds and all(process.poll() is None for process in anchors[:len(fifos)]):
            summary("gpsd (FIFO → gpspipe -w), anchor", gpsds, cpu)
        elif not args.smoke:
            print("gpsd (anchor): not installed or did not start")
    finally:
        stop.set()
        for process in started:
            process.terminate()
        for process in started:
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
        if feeder:
            feeder.join(timeout=5)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
