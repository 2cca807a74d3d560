#!/usr/bin/env python3
"""Measures a table's agreement with tzfpy by distance from the nearest border, land and sea apart.

Usage: Tools/dev/tz/measure-error.py [TABLE] [POINTS] [--world] [--show]
       (Traces/tz/test-regions.sxtz, 20000; --world: points over the whole globe)

Half the points are uniform (in the test regions, or on the globe with --world), half within
1 km of a border crossing (the border points' pairs, or with --world crossings found by
bisection on random 4 km segments that change zone). Each point is binned by its clearance
(the largest of 25/50/100/200/400 m, 1/2/3.5/5 km whose 32-point ring all gives the point's zone, 0 when
even 25 m does not) and by the border that limits it: "land" when the first ring that leaves
the point's zone meets only land zones, "sea" when the sea (Etc/GMT±N) is on either side.
The table's answer, decoded here independently of the Swift reader (tz_read.Table), is
compared with tzfpy's.
"""
import math
import random
import sys

import tzfpy

import border_points as bp
from tz_read import Table
from tz_poly import nautical_zone

RADII = (25, 50, 100, 200, 400, 1000, 2000, 3500, 5000)


def ring_zones(lon, lat, radius_m):
    return {bp.zone(*bp.offset(lon, lat, radius_m * math.cos(a), radius_m * math.sin(a)))
            for a in (2 * math.pi * k / bp.RING for k in range(bp.RING))}


def clearance(lon, lat):
    """(bin, kind): the largest clear radius, and "land" or "sea" for the border beyond it."""
    here, best = bp.zone(lon, lat), 0
    for r in RADII:
        zones = ring_zones(lon, lat, r) | {here}
        if len(zones) > 1:
            return best, "sea" if any(not z or z.startswith("Etc/") for z in zones) else "land"
        best = r
    return best, "clear"


def world_crossing(rng):
    """A point on a border: bisection along a random 4 km segment whose ends differ."""
    while True:
        lon, lat = rng.uniform(-180, 180), math.degrees(math.asin(rng.uniform(-1, 1)))
        a = (lon, lat)
        angle = rng.uniform(0, 2 * math.pi)
        b = bp.offset(lon, lat, 4000 * math.cos(angle), 4000 * math.sin(angle))
        if abs(b[1]) < 89 and bp.zone(*a) != bp.zone(*b):
            return bp.lerp(a, b, bp.crossing(a, b))


def points(count, world, rng):
    regions = list(bp.REGIONS.values())
    near = [bp.lerp(a, b, bp.crossing(a, b)) for a, b in bp.PAIRS.values() if bp.zone(*a) != bp.zone(*b)]
    for i in range(count):
        if i % 2 and world:
            yield rng.uniform(-180, 180), math.degrees(math.asin(rng.uniform(-1, 1)))
        elif i % 2:
            w, s, e, n = rng.choice(regions)
            yield rng.uniform(w, e), rng.uniform(s, n)
        else:
            c = world_crossing(rng) if world else rng.choice(near)
            yield bp.offset(*c, rng.uniform(-1000, 1000), rng.uniform(-1000, 1000))


def main():
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    world = "--world" in sys.argv
    show = "--show" in sys.argv   # print each wrong point at least 100 m from a border
    path = args[0] if args else "Traces/tz/test-regions.sxtz"
    count = int(args[1]) if len(args) > 1 else 20000
    table = Table(open(path, "rb").read())
    tally = {}
    for lon, lat in points(count, world, random.Random(7)):
        if abs(lat) > 89.9:
            continue
        got = table.zone(lon, lat)
        if got is None:
            continue
        key = clearance(lon, lat)
        want = tzfpy.get_tz(lon, lat) or nautical_zone(lon)
        total, wrong = tally.get(key, (0, 0))
        tally[key] = (total + 1, wrong + (got != want))
        if got != want and show and key[0] >= 100:
            print(f"wrong: {lon:.6f} {lat:.6f} table {got} tzfpy {want}, {key[1]} border, clear {key[0]} m")
    for kind in ("land", "sea", "clear"):
        for bin_ in sorted(b for b, k in tally if k == kind):
            total, wrong = tally[(bin_, kind)]
            label = "<25 m" if bin_ == 0 else f">={bin_} m"
            print(f"{kind:>5} border, clearance {label:>7}: {wrong} wrong of {total} ({100 * wrong / total:.2f} %)")


if __name__ == "__main__":
    main()
