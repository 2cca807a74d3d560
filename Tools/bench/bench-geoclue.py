#!/usr/bin/python3
"""Measures the time from a location entering sextantd to LocationUpdated at a GeoClue client.

Starts a private dbus-daemon and a sextantd on it (`--dbus ADDRESS`), and one GeoClue
client written here with GLib's Gio (the library GeoClue's own clients use): GetClient,
DesktopId, Start, then LocationUpdated. Each round sets a new location by hand
(`device.set` on the control socket: the manual source, a sample entering the hub) and
times it from just before the request is written to the moment the client's main loop
receives the signal. Both ends run in this process on the same monotonic clock; the
figure includes the control socket's write and parse (tens of microseconds).

Usage: Tools/bench/bench-geoclue.py [--bin-dir .build/debug] [--rounds 500] [--smoke]
Needs /usr/bin/python3 with python3-gi (Gio), dbus-daemon, the built sextantd.
"""

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the repository, above Tools/bench/
sys.path.insert(0, os.path.join(ROOT, "clients", "python", "src"))

from gi.repository import Gio, GLib  # noqa: E402
from sextant.control import Control  # noqa: E402
import fresh_binary  # noqa: E402  (beside this script: refuses a stale sextantd or sextantctl)

APP = "org.example.BenchGeoClue"


def start_bus():
    bus = subprocess.Popen(
        ["dbus-daemon", "--session", "--nofork", "--nopidfile", "--print-address=1", "--address=unix:tmpdir=/tmp"],
        stdout=subprocess.PIPE, text=True)
    return bus, bus.stdout.readline().strip()


def start_daemon(bin_dir, work, address):
    daemon = subprocess.Popen(
        [fresh_binary.program(bin_dir, "sextantd"), "--runtime-dir", work + "/run", "--state-dir", work + "/state",
         "--no-iio", "--no-gpsd", "--dbus", address],
        stdout=subprocess.DEVNULL, stderr=open(work + "/sextantd.log", "w"))
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with Control(work + "/run") as control:
                dbus = control.call("status").get("dbus") or {}
                if "org.freedesktop.GeoClue2" in dbus.get("names", []):
                    return daemon
        except OSError:
            pass
        time.sleep(0.05)
    sys.exit("sextantd did not hold org.freedesktop.GeoClue2 within 30 s")


class Client:
    """A GeoClue client on its own GLib main loop thread; `updated` is set on each signal."""

    def __init__(self, address):
        flags = Gio.DBusConnectionFlags.AUTHENTICATION_CLIENT | Gio.DBusConnectionFlags.MESSAGE_BUS_CONNECTION
        self.bus = Gio.DBusConnection.new_for_address_sync(address, flags, None, None)
        self.updated = threading.Event()
        self.arrival = 0.0
        self.context = GLib.MainContext.new()
        self.loop = GLib.MainLoop.new(self.context, False)

    def call(self, path, interface, method, args, reply="()"):
        return self.bus.call_sync("org.freedesktop.GeoClue2", path, interface, method, args,
                                  GLib.VariantType.new(reply), Gio.DBusCallFlags.NONE, 25000, None)

    def start(self):
        path = self.call("/org/freedesktop/GeoClue2/Manager", "org.freedesktop.GeoClue2.Manager", "GetClient",
                         None, "(o)").unpack()[0]
        props = "org.freedesktop.DBus.Properties"
        self.call(path, props, "Set", GLib.Variant("(ssv)", ("org.freedesktop.GeoClue2.Client", "DesktopId", GLib.Variant("s", APP))))
        # EXACT: the default, CITY, would get the 2 km grid, a location only per new cell.
        self.call(path, props, "Set", GLib.Variant("(ssv)", ("org.freedesktop.GeoClue2.Client", "RequestedAccuracyLevel", GLib.Variant("u", 8))))
        self.context.push_thread_default()
        self.bus.signal_subscribe("org.freedesktop.GeoClue2", "org.freedesktop.GeoClue2.Client", "LocationUpdated", path,
                                  None, Gio.DBusSignalFlags.NONE, self.on_signal)
        self.context.pop_thread_default()
        threading.Thread(target=self.loop.run, daemon=True).start()
        self.call(path, "org.freedesktop.GeoClue2.Client", "Start", None)

    def on_signal(self, *args):
        self.arrival = time.monotonic()
        self.updated.set()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin-dir", default=os.path.join(ROOT, ".build", "debug"))
    parser.add_argument("--rounds", type=int, default=500)
    parser.add_argument("--smoke", action="store_true", help="20 rounds: checks that the bench runs")
    args = parser.parse_args()
    rounds = 20 if args.smoke else args.rounds
    work = tempfile.mkdtemp(prefix="sextant-bench-geoclue-")
    bus, address = start_bus()
    daemon = None
    try:
        daemon = start_daemon(args.bin_dir, work, address)
        control = Control(work + "/run")
        control.set_permission(APP, "authorizedWhenInUse")
        client = Client(address)
        client.start()
        latencies = []
        for index in range(rounds + 1):
            client.updated.clear()
            sent = time.monotonic()
            control.set_location(48.0 + index * 0.001, 2.35)
            if not client.updated.wait(5):
                sys.exit(f"round {index}: no LocationUpdated within 5 s\n" + open(work + "/sextantd.log").read()[-3000:])
            if index > 0:  # the first round warms the path up
                latencies.append((client.arrival - sent) * 1e6)
        latencies.sort()
        p99 = latencies[min(len(latencies) - 1, int(round(0.99 * len(latencies))) - 1)]
        print(f"sample (device.set) -> LocationUpdated at a Gio client, {len(latencies)} rounds: "
              f"median {statistics.median(latencies):.0f} us, p99 {p99:.0f} us, max {latencies[-1]:.0f} us")
    finally:
        if daemon:
            daemon.terminate()
            daemon.wait(10)
        bus.terminate()
        bus.wait(10)
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
