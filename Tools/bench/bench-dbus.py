#!/usr/bin/python3
"""Measures how long a decision of Sextant's takes to reach a D-Bus client.

Runs a private dbus-daemon, a sextantd serving iio-sensor-proxy's face on it (`--dbus`),
and three readers whose arrival times are taken on one monotonic clock in this process:
  - a control-socket `watch` of `deviceOrientation` (the judge's decision, as the hub
    publishes it),
  - `gdbus monitor` of net.hadess.SensorProxy (PropertiesChanged, as any D-Bus client
    sees it),
and it turns the device with `device.set` (a held accelerometer reading, RULES O4a),
alternating landscapeLeft and portrait.

Two figures per turn:
  - sample in -> PropertiesChanged: from `device.set`'s answer (the reading entered the
    hub) to gdbus monitor's line. It includes RULES O2's settle (the judge waits for the
    reading to hold), so it is mostly the rules' time, not the bus's;
  - decision -> PropertiesChanged: from the `deviceOrientation` event to gdbus monitor's
    line: what the D-Bus face and the bus add (hub loop -> bus thread -> dbus-daemon ->
    client).

Usage: Tools/bench/bench-dbus.py [--bin-dir .build/debug] [--turns 100] [--smoke]
"""

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import fresh_binary  # beside this script: refuses a stale sextantd or sextantctl

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the repository, above Tools/bench/


class Lines:
    """A reader thread stamping each line of a stream with the monotonic clock."""

    def __init__(self, stream):
        self.lines = []
        self.cond = threading.Condition()
        threading.Thread(target=self._read, args=(stream,), daemon=True).start()

    def _read(self, stream):
        for line in iter(stream.readline, b""):
            with self.cond:
                self.lines.append((time.monotonic(), line.decode(errors="replace").rstrip("\n")))
                self.cond.notify_all()

    def wait(self, start, predicate, timeout=10):
        """The first (index, time, line) from `start` on that matches, within `timeout` s."""
        deadline = time.monotonic() + timeout
        with self.cond:
            index = start
            while True:
                while index < len(self.lines):
                    stamp, line = self.lines[index]
                    if predicate(line):
                        return index, stamp, line
                    index += 1
                remaining = deadline - time.monotonic()
                if remaining <= 0 or not self.cond.wait(remaining):
                    raise SystemExit(f"bench-dbus: timed out waiting; last lines: {self.lines[-3:]}")


def rpc(sock_file, sock, method, params, ident):
    sock.sendall((json.dumps({"jsonrpc": "2.0", "id": ident, "method": method, "params": params}) + "\n").encode())
    while True:
        message = json.loads(sock_file.readline())
        if message.get("id") == ident:
            if "error" in message:
                raise SystemExit(f"bench-dbus: {method}: {message['error']}")
            return message


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--bin-dir", default=os.path.join(ROOT, ".build", "debug"))
    parser.add_argument("--turns", type=int, default=100)
    parser.add_argument("--smoke", action="store_true", help="a few turns, to check the script runs")
    args = parser.parse_args()
    turns = 4 if args.smoke else args.turns
    if turns < 1 or turns > 100_000:
        raise SystemExit("bench-dbus: --turns must be from 1 to 100000")

    work = tempfile.mkdtemp(prefix="sextant-bench-dbus-")
    children = []
    try:
        bus = subprocess.Popen(
            ["dbus-daemon", "--session", "--nofork", "--nopidfile", "--print-address=1", f"--address=unix:path={work}/bus"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        children.append(bus)
        bus.stdout.readline()
        address = f"unix:path={work}/bus"
        runtime = os.path.join(work, "run")
        daemon = subprocess.Popen(
            [fresh_binary.program(args.bin_dir, "sextantd"), "--runtime-dir", runtime, "--ephemeral", "--no-gpsd", "--no-iio",
             "--dbus", address, "--log-level", "warning"], stderr=subprocess.DEVNULL)
        children.append(daemon)
        if subprocess.run(["gdbus", "wait", "--address", address, "--timeout", "20", "net.hadess.SensorProxy"]).returncode != 0:
            raise SystemExit("bench-dbus: sextantd did not take net.hadess.SensorProxy")
        monitor = subprocess.Popen(
            ["stdbuf", "-oL", "gdbus", "monitor", "--address", address, "--dest", "net.hadess.SensorProxy"],
            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        children.append(monitor)
        dbus_lines = Lines(monitor.stdout)

        watcher = socket.socket(socket.AF_UNIX)
        watcher.connect(os.path.join(runtime, "control.sock"))
        watcher_file = watcher.makefile("rb")
        rpc(watcher_file, watcher, "watch", {"topics": ["deviceOrientation"]}, 1)
        events = Lines(watcher_file)
        control = socket.socket(socket.AF_UNIX)
        control.connect(os.path.join(runtime, "control.sock"))
        control_file = control.makefile("rb")

        # gdbus monitor's match may reach the bus after it prints anything: turn the device
        # until a PropertiesChanged is seen, then measure.
        dbus_index = 0
        for warmup in range(50):
            target = "landscapeLeft" if warmup % 2 == 0 else "portrait"
            rpc(control_file, control, "device.set", {"orientation": target}, 10_000 + warmup)
            try:
                dbus_index = dbus_lines.wait(0, lambda line: "AccelerometerOrientation" in line, timeout=2)[0] + 1
                break
            except SystemExit:
                continue
        else:
            raise SystemExit("bench-dbus: gdbus monitor never saw a PropertiesChanged")
        events.wait(0, lambda line: target in line and "deviceOrientation" in line)
        event_index = len(events.lines)

        in_to_bus, decision_to_bus = [], []
        for turn in range(1, turns + 1):
            target = "portrait" if target == "landscapeLeft" else "landscapeLeft"
            rpc(control_file, control, "device.set", {"orientation": target}, 100 + turn)
            entered = time.monotonic()
            event_index, decided, _ = events.wait(event_index, lambda line: target in line and "deviceOrientation" in line)
            dbus_index, seen, _ = dbus_lines.wait(dbus_index, lambda line: "PropertiesChanged" in line and "AccelerometerOrientation" in line)
            event_index += 1
            dbus_index += 1
            in_to_bus.append((seen - entered) * 1000)
            decision_to_bus.append((seen - decided) * 1000)

        for name, values in (("sample in -> PropertiesChanged", in_to_bus), ("decision -> PropertiesChanged", decision_to_bus)):
            print(f"{name}: median {statistics.median(values):.2f} ms, p99 {percentile(values, 0.99):.2f} ms over {len(values)} turns")
    finally:
        for child in reversed(children):
            child.kill()
            child.wait()
        subprocess.run(["rm", "-rf", work])


if __name__ == "__main__":
    main()
