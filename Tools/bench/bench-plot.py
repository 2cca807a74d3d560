#!/usr/bin/python3
"""Measures `sextantctl trace plot --events` as the number of apps in the events grows.

Writes events in the shape of `sextantctl watch --json` for N apps over the demo walk
(Traces/demo-walk.jsonl, 90 fixes): each app receives one fix (the fixes in turn, every
fourth one reduced) and then an authorization change (every third app denied). Plots the
walk with them at N/4, N/2 and N apps and prints, for each, the wall time and peak RSS of
the whole command, and the time's growth from the size before: 2x for twice the apps is
linear, 4x quadratic (issue 28.12: 40,000 apps took 24 s). Each SVG must parse as XML
(Python's xml.etree), and one app id of each run holds control characters.

Usage: Tools/bench/bench-plot.py [--apps 40000] [--bin-dir .build/release] [--smoke]
--smoke: 400 apps at most, the debug build: checks that it runs and the SVG parses.
"""

import argparse
import datetime
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import xml.etree.ElementTree as ElementTree
import fresh_binary  # beside this script: refuses a stale sextantd or sextantctl

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # the repository, above Tools/bench/
TRACE = os.path.join(ROOT, "Traces", "demo-walk.jsonl")


def trace_fixes(path):
    """(time, lat, lon) of each location of the trace, its times as RFC 3339."""
    fixes, start = [], None
    with open(path) as f:
        for line in f:
            if not line.strip() or line.startswith("#"):
                continue
            record = json.loads(line)
            if "start" in record:
                start = record["start"]
            elif "location" in record:
                fixes.append((record["t"], record["location"]["lat"], record["location"]["lon"]))
    base = datetime.datetime.fromisoformat(start.replace("Z", "+00:00"))
    return [((base + datetime.timedelta(seconds=t)).strftime("%Y-%m-%dT%H:%M:%S.%f")[:-3] + "Z", lat, lon) for t, lat, lon in fixes]


def write_events(path, apps, fixes):
    with open(path, "w") as out:
        for i in range(apps):
            app = f"com.example.plot{i}" if i != 1 else "com.example.\u0001esc\u001b[0m"
            when, lat, lon = fixes[i % len(fixes)]
            accuracy = "reduced" if i % 4 == 3 else "full"
            out.write(json.dumps({"jsonrpc": "2.0", "method": "location", "params": {
                "app": app, "lat": lat, "lon": lon, "hAcc": 5, "time": when, "accuracy": accuracy}}) + "\n")
            status = "denied" if i % 3 == 2 else "authorizedWhenInUse"
            out.write(json.dumps({"jsonrpc": "2.0", "method": "authorization", "params": {"app": app, "status": status}}) + "\n")


def plot(ctl, events, svg):
    """Runs the plot; answers (seconds, peak RSS in MiB)."""
    started = time.monotonic()
    child = subprocess.Popen([ctl, "trace", "plot", TRACE, "--events", events, "-o", svg], stdout=subprocess.DEVNULL,
                             stderr=subprocess.PIPE)
    stderr = child.stderr.read()
    _, status, usage = os.wait4(child.pid, 0)
    elapsed = time.monotonic() - started
    if status != 0:
        sys.exit(f"bench-plot: trace plot failed: {stderr.decode().strip()}")
    return elapsed, usage.ru_maxrss / 1024


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--apps", type=int, default=40_000, help="the largest app count (the others are 1/4 and 1/2 of it)")
    parser.add_argument("--bin-dir", default=None, help="default .build/release (.build/debug with --smoke)")
    parser.add_argument("--smoke", action="store_true", help="400 apps at most, the debug build")
    args = parser.parse_args()
    if args.smoke:
        args.apps = min(args.apps, 400)
    args.bin_dir = args.bin_dir or os.path.join(ROOT, ".build", "debug" if args.smoke else "release")
    ctl = fresh_binary.program(args.bin_dir, "sextantctl")
    fixes = trace_fixes(TRACE)
    work = tempfile.mkdtemp(prefix="sextant-bench-plot-")
    try:
        print(f"trace plot --events over {os.path.basename(TRACE)} ({len(fixes)} fixes), {args.bin_dir}")
        previous = None
        for apps in (args.apps // 4, args.apps // 2, args.apps):
            events, svg = os.path.join(work, f"events{apps}.ndjson"), os.path.join(work, f"plot{apps}.svg")
            write_events(events, apps, fixes)
            seconds, peak = plot(ctl, events, svg)
            try:
                ElementTree.parse(svg)
            except ElementTree.ParseError as error:
                sys.exit(f"bench-plot: the SVG for {apps} apps is not well-formed XML: {error}")
            growth = f"{seconds / previous:.2f}x the time for half as many (2x: linear, 4x: quadratic)" if previous else ""
            print(f"apps {apps:>7}: {seconds:7.3f} s, peak RSS {peak:6.1f} MiB, events {os.path.getsize(events) / 1e6:.1f} MB  {growth}")
            previous = seconds
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
