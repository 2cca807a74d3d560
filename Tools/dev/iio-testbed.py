#!/usr/bin/python3
"""A umockdev testbed of Linux IIO devices, driven over stdin/stdout (or imported).

Tests use it to run the real sextantd against fake sensors: the testbed is a directory
that umockdev's preload library (LD_PRELOAD=libumockdev-preload.so.0, UMOCKDEV_DIR=root)
shows to a process as /sys and the udev database, and whose devices can be added,
changed and removed while that process runs, with uevents sent to its udev monitors.

As a program, it prints one JSON line once the testbed exists:

    {"ready": true, "root": "/tmp/umockdev.XXXX", "preload": "libumockdev-preload.so.0"}

then reads one JSON command a line on stdin and answers each with one JSON line
({"ok": true, ...} or {"ok": false, "error": "..."}):

    {"op": "add", "name": "iio:device0", "attributes": {"in_accel_x_raw": "0", ...},
     "properties": {"ACCEL_MOUNT_MATRIX": "0, 1, 0; 1, 0, 0; 0, 0, 1"}}
        adds /sys/devices/NAME in subsystem iio and sends an "add" uevent;
        answers {"ok": true, "syspath": "/sys/devices/iio:device0"}
    {"op": "set", "syspath": P, "attributes": {...}}     rewrites attribute files (no uevent)
    {"op": "set-properties", "syspath": P, "properties": {...}}   udev properties (no uevent)
    {"op": "uevent", "syspath": P, "action": "change"}  sends a uevent
    {"op": "remove", "syspath": P, "uevent": true}       sends "remove" (unless false), then
                                                         deletes the device's files
    {"op": "quit"}

It ends, and the testbed directory is deleted, at "quit" or at the end of its input.

Uevents are sent through umockdev's preload in this very process, so the script runs
itself again under LD_PRELOAD when it was not started that way (as umockdev-wrapper does).

As a module: `IIOTestbed` has the same operations as methods, and `environment()` gives
what a process must be started with to see the testbed.
"""

import json
import os
import sys

PRELOAD = "libumockdev-preload.so.0"


def _ensure_preloaded():
    """Re-executes this script with umockdev's preload library, unless it is loaded."""
    if PRELOAD.split(".so")[0] in os.environ.get("LD_PRELOAD", ""):
        return
    env = dict(os.environ)
    env["LD_PRELOAD"] = ":".join(filter(None, [PRELOAD, env.get("LD_PRELOAD")]))
    os.execve(sys.executable, [sys.executable] + sys.argv, env)


class IIOTestbed:
    """A umockdev testbed with helpers for IIO devices (subsystem "iio")."""

    def __init__(self):
        import gi

        gi.require_version("UMockdev", "1.0")
        from gi.repository import UMockdev

        self.testbed = UMockdev.Testbed.new()

    @property
    def root(self):
        return self.testbed.get_root_dir()

    def environment(self, base=None):
        """The environment a process needs to see the testbed instead of the real /sys."""
        env = dict(os.environ if base is None else base)
        env["UMOCKDEV_DIR"] = self.root
        env["LD_PRELOAD"] = ":".join(filter(None, [PRELOAD, env.get("LD_PRELOAD")]))
        return env

    def add(self, name, attributes, properties=None):
        """Adds /sys/devices/NAME; umockdev sends the "add" uevent. Returns its syspath."""
        flat_attributes = [str(x) for pair in attributes.items() for x in pair]
        flat_properties = [str(x) for pair in (properties or {}).items() for x in pair]
        syspath = self.testbed.add_device("iio", name, None, flat_attributes, flat_properties)
        if not syspath:
            raise RuntimeError("umockdev could not add %s" % name)
        return syspath

    def set(self, syspath, attributes):
        for key, value in attributes.items():
            self.testbed.set_attribute(syspath, key, str(value))

    def set_properties(self, syspath, properties):
        for key, value in properties.items():
            self.testbed.set_property(syspath, key, str(value))

    def uevent(self, syspath, action):
        self.testbed.uevent(syspath, action)

    def remove(self, syspath, uevent=True):
        """Removes a device: with uevent, as the kernel does (the event goes first, while
        the device is still there to describe); without, it just vanishes."""
        if uevent:
            self.testbed.uevent(syspath, "remove")
        self.testbed.remove_device(syspath)


def _serve(bed, lines, out):
    def answer(obj):
        out.write(json.dumps(obj) + "\n")
        out.flush()

    answer({"ready": True, "root": bed.root, "preload": PRELOAD})
    for line in lines:
        if not line.strip():
            continue
        try:
            command = json.loads(line)
            op = command.get("op")
            if op == "quit":
                answer({"ok": True})
                return
            elif op == "add":
                syspath = bed.add(command["name"], command.get("attributes", {}), command.get("properties"))
                answer({"ok": True, "syspath": syspath})
            elif op == "set":
                bed.set(command["syspath"], command["attributes"])
                answer({"ok": True})
            elif op == "set-properties":
                bed.set_properties(command["syspath"], command["properties"])
                answer({"ok": True})
            elif op == "uevent":
                bed.uevent(command["syspath"], command["action"])
                answer({"ok": True})
            elif op == "remove":
                bed.remove(command["syspath"], command.get("uevent", True))
                answer({"ok": True})
            else:
                answer({"ok": False, "error": "unknown op %r" % op})
        except Exception as error:  # the test sees the reason instead of a dead pipe
            answer({"ok": False, "error": "%s: %s" % (type(error).__name__, error)})


if __name__ == "__main__":
    _ensure_preloaded()
    _serve(IIOTestbed(), sys.stdin, sys.stdout)
