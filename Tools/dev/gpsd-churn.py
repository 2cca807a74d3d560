#!/usr/bin/env python3
"""Connection churn on sextantd's gpsd face (issue 28.1): opens and closes connections as
fast as it can for a while, and says what that did to the daemon.

    Tools/dev/gpsd-churn.py PORT SECONDS [--reset] [--pid PID] [--control "COMMAND ..."]

--reset closes each connection with SO_LINGER 0 (a reset, issue 28.6) instead of a FIN.
--pid PID: the daemon's resident memory (VmRSS, KiB) before, at the end and its peak.
--control: a command run once a second while the churn goes on (`sextantctl status`,
`sextantctl replay start FILE`), and how long each run took.
Prints "churning" after its first 100 connections, then one JSON object. Run it as the user to measure (`setpriv --reuid=65534 ...`).
"""
import json
import socket
import struct
import subprocess
import sys
import threading
import time


def rss(pid, field="VmRSS"):
    try:
        with open(f"/proc/{pid}/status") as status:
            for line in status:
                if line.startswith(field + ":"):
                    return int(line.split()[1])
    except OSError:
        return None
    return None


def churn(port, seconds, reset, stop):
    count = refused = 0
    linger = struct.pack("ii", 1, 0)
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and not stop.is_set():
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        try:
            s.connect(("127.0.0.1", port))
            if reset:
                s.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, linger)
            count += 1
            if count == 100:
                print("churning", flush=True)
        except OSError:
            refused += 1
        finally:
            s.close()
    return count, refused


def main():
    args = sys.argv[1:]
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        return 64
    port, seconds = int(args[0]), float(args[1])
    reset = "--reset" in args
    pid = int(args[args.index("--pid") + 1]) if "--pid" in args else None
    control = args[args.index("--control") + 1].split() if "--control" in args else None
    result = {"seconds": seconds, "reset": reset}
    if pid:
        result["rssBeforeKiB"] = rss(pid)
    stop = threading.Event()
    timings = []

    def poll_control():
        while not stop.is_set():
            start = time.monotonic()
            done = subprocess.run(control, capture_output=True)
            timings.append({"seconds": round(time.monotonic() - start, 3), "status": done.returncode})
            stop.wait(1)

    poller = threading.Thread(target=poll_control) if control else None
    if poller:
        poller.start()
    start = time.monotonic()
    count, refused = churn(port, seconds, reset, stop)
    elapsed = time.monotonic() - start
    stop.set()
    if poller:
        poller.join()
    result.update({"connections": count, "refused": refused, "perSecond": round(count / elapsed)})
    if pid:
        result["rssAfterKiB"] = rss(pid)
        result["rssPeakKiB"] = rss(pid, "VmHWM")
    if control:
        result["control"] = timings
    print(json.dumps(result))
    return 0


if __name__ == "__main__":
    sys.exit(main())
