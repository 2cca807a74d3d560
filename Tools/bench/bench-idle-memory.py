#!/usr/bin/python3
"""An idle sextantd's memory beside an idle gpsd's, and where sextantd's goes.

Starts sextantd (no gpsd, no IIO, no client) and gpsd (on a FIFO, no client), lets
them settle, and prints for each, from /proc/PID/status and /proc/PID/smaps_rollup:
- VmRSS: every resident page, shared library code included (the issue's figure);
- Pss: the same with each shared page divided among the processes that map it;
- Private_Dirty (Anonymous): what this process alone wrote, heap and stacks: what one
  more daemon costs the machine once the code is already in memory;
- threads.
Then the resident pages of sextantd by mapping (the libraries it loaded), and a second
sextantd beside the first: how much each daemon's Pss falls when two share their code.

Usage: Tools/bench/bench-idle-memory.py [--bin-dir .build/release] [--settle 2] [--smoke]
--smoke: the debug build, no gpsd needed: checks that the figures are read.
"""

import argparse
import os
import shutil
import socket
import subprocess
import sys
import tempfile
import time

from proc_figures import rollup_kb, status_kb
import fresh_binary  # beside this script: refuses a stale sextantd or sextantctl

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the repository, above Tools/bench/


def by_mapping(pid, top=8):
    """Resident kB per mapped file (anonymous mappings as '[anonymous]'), largest first."""
    rss, name = {}, "[anonymous]"
    with open(f"/proc/{pid}/smaps") as f:
        for line in f:
            first = line.split(maxsplit=6)
            if "-" in first[0] and len(first) >= 5 and ":" in first[3]:
                name = first[5].strip() if len(first) > 5 else "[anonymous]"
            elif first[0] == "Rss:":
                rss[name] = rss.get(name, 0) + int(first[1])
    return sorted(rss.items(), key=lambda item: -item[1])[:top]


def start_sextantd(bin_dir, work, name):
    runtime = os.path.join(work, name, "run")
    daemon = subprocess.Popen(
        [fresh_binary.program(bin_dir, "sextantd"), "--runtime-dir", runtime, "--state-dir", os.path.join(work, name, "state"),
         "--no-gpsd", "--no-iio", "--log-level", "warning"], stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 30
    while not os.path.exists(os.path.join(runtime, "control.sock")):
        if time.monotonic() > deadline or daemon.poll() is not None:
            sys.exit(f"sextantd did not start ({bin_dir})")
        time.sleep(0.05)
    return daemon


def start_gpsd(work):
    gpsd = shutil.which("gpsd") or "/usr/sbin/gpsd"
    if not os.path.exists(gpsd):
        return None
    fifo = os.path.join(work, "gpsd.fifo")
    os.mkfifo(fifo, 0o666)
    os.chmod(work, 0o755)
    os.chmod(fifo, 0o666)
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return subprocess.Popen([gpsd, "-N", "-n", "-S", str(port), fifo], stderr=subprocess.DEVNULL)


def row(label, pid):
    r = rollup_kb(pid)
    return (f"{label:28} {status_kb(pid, 'VmRSS') / 1024:8.1f} {r['Pss'] / 1024:8.1f} {r['Private_Dirty'] / 1024:8.1f} "
            f"{r['Anonymous'] / 1024:8.1f} {status_kb(pid, 'Threads'):8d}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin-dir", default=None, help="default .build/release (.build/debug with --smoke)")
    parser.add_argument("--settle", type=float, default=2.0, help="seconds to let each daemon settle")
    parser.add_argument("--smoke", action="store_true")
    args = parser.parse_args()
    args.bin_dir = args.bin_dir or os.path.join(ROOT, ".build", "debug" if args.smoke else "release")
    if args.smoke:
        args.settle = 0.5

    work = tempfile.mkdtemp(prefix="sextant-bench-idle-")
    started = []
    try:
        first = start_sextantd(args.bin_dir, work, "first")
        started.append(first)
        gpsd = None if args.smoke else start_gpsd(work)
        if gpsd:
            started.append(gpsd)
        time.sleep(args.settle)
        print(f"idle daemons, MiB ({args.bin_dir}; load average {os.getloadavg()[0]:.2f} on {os.cpu_count()} CPUs)")
        print(f"{'':28} {'VmRSS':>8} {'Pss':>8} {'PrivDrt':>8} {'Anon':>8} {'threads':>8}")
        print(row("sextantd", first.pid))
        if gpsd and gpsd.poll() is None:
            print(row("gpsd -N -n FIFO (anchor)", gpsd.pid))
        elif not args.smoke:
            print("gpsd (anchor): not installed or did not start")
        print("sextantd's resident pages by mapping, MiB:")
        for name, kb in by_mapping(first.pid):
            print(f"  {kb / 1024:6.1f}  {name}")
        second = start_sextantd(args.bin_dir, work, "second")
        started.append(second)
        time.sleep(args.settle)
        print("two sextantd side by side (their code shared):")
        print(row("  sextantd, first", first.pid))
        print(row("  sextantd, second", second.pid))
        if status_kb(first.pid, "VmRSS") <= 0:
            sys.exit("no resident set read")
    finally:
        for process in started:
            process.terminate()
        for process in started:
            process.wait(timeout=10)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
