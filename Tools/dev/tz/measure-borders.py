#!/usr/bin/env python3
"""Measures what a table that is right 100 m from a land border needs at least: tzfpy's
borders between different zones, simplified (Douglas-Peucker) at a tolerance, their length,
vertex count and the bytes of a delta-coded polyline encoding.

Usage: Tools/dev/tz/measure-borders.py [--tolerances 50,100] [--sea-tolerance 2500] [--grid 1e-4]

A border is an edge (two consecutive vertices) that rings of two different zones share,
exactly as tzfpy stores it (its polygons are cut from timezone-boundary-builder's along shared
edges); "land" when both zones are civil zones, "sea" when one is a nautical Etc/GMT±N strip
(rule Z1's 5 km bound: simplified at --sea-tolerance); an edge three zones share (tzfpy's
Asia/Urumqi overlaps Asia/Shanghai) is a border of the three. Edges of one ring only (a zone's edge
against another's that does not share its vertices) are counted apart. Shared edges are
chained into polylines per pair of zones, each simplified in a local equirectangular frame
(metres), then coded as: a header (two zone numbers, 2 bytes each, a vertex count as a
varint), the first vertex (2 × 4 bytes), and each next vertex as zigzag varints of its
delta on a grid of --grid degrees (1e-4°: 11 m, within the margin the tolerance leaves).
The bytes are a lower bound for any table built on such polylines: a lookup index over them
(which cells hold which polylines) comes on top.
"""
import argparse
import lzma
import math
import sys
import time
from collections import defaultdict

import tzfpy

from tz_poly import chains, douglas_peucker, metres, rings, shared_edges  # beside this script (its folder is first on sys.path)



def is_sea(zone):
    return zone.startswith("Etc/GMT")


def length_m(xy):
    return sum(math.dist(p, q) for p, q in zip(xy, xy[1:]))


def varint(n):
    z, out = (n << 1) ^ (n >> 63), bytearray()
    while z >= 0x80:
        out.append(z & 0x7F | 0x80)
        z >>= 7
    out.append(z)
    return bytes(out)


def encoded(line, grid):
    """The polyline's bytes: header (zone numbers left as zeros), first vertex, deltas."""
    q = [(round(p[0] / grid), round(p[1] / grid)) for p in line]
    body = b"".join(varint(b[0] - a[0]) + varint(b[1] - a[1]) for a, b in zip(q, q[1:]))
    return bytes(4) + varint(len(q)) + q[0][0].to_bytes(4, "little", signed=True) + q[0][1].to_bytes(4, "little", signed=True) + body


def measure(lines, tolerance, grid):
    """Vertices kept, bytes, and those bytes through xz (what an entropy coder would save)."""
    vertices, stream = 0, bytearray()
    for line in lines:
        kept = douglas_peucker(metres(line), tolerance)
        vertices += len(kept)
        stream += encoded([line[m] for m in kept], grid)
    return vertices, len(stream), len(lzma.compress(bytes(stream), preset=9 | lzma.PRESET_EXTREME))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tolerances", default="50,100", help="land tolerances, metres")
    parser.add_argument("--sea-tolerance", type=float, default=2500)
    parser.add_argument("--grid", type=float, default=1e-4, help="the delta code's grid, degrees")
    args = parser.parse_args()
    started = time.process_time()
    names = tzfpy.timezonenames()
    edges = shared_edges(names)
    pairs, single = defaultdict(list), 0
    for edge, zones in edges.items():
        if len(zones) >= 2:  # three where zones overlap (Asia/Urumqi over Asia/Shanghai): a border too
            pairs[tuple(sorted(zones))].append(edge)
        else:
            single += 1
    land = [line for pair, es in pairs.items() if not any(map(is_sea, pair)) for line in chains(es)]
    sea = [line for pair, es in pairs.items() if any(map(is_sea, pair)) and not all(map(is_sea, pair)) for line in chains(es)]
    print(f"tzfpy {tzfpy.data_version()}: {len(names)} zones, {len(edges):,} distinct edges, "
          f"{single:,} on one ring only, {sum(len(z) > 2 for z in edges.values())} on three or more")
    for kind, lines in (("land", land), ("sea", sea)):
        source = sum(len(line) for line in lines)
        km = sum(length_m(metres(line)) for line in lines) / 1000
        print(f"{kind} borders: {len(lines):,} polylines, {km:,.0f} km, {source:,} vertices in tzfpy "
              f"({measure(lines, 0, args.grid)[1]:,} bytes delta-coded unsimplified)")
    for tolerance in [float(t) for t in args.tolerances.split(",")]:
        vertices, size, xz = measure(land, tolerance, args.grid)
        print(f"land, Douglas-Peucker {tolerance:g} m: {vertices:,} vertices, {size:,} bytes on a {args.grid:g}° grid (xz: {xz:,})")
    vertices, size, xz = measure(sea, args.sea_tolerance, args.grid * 10)
    print(f"sea's edge, Douglas-Peucker {args.sea_tolerance:g} m: {vertices:,} vertices, {size:,} bytes on a {args.grid * 10:g}° grid (xz: {xz:,})")
    print(f"{time.process_time() - started:.0f} s CPU", file=sys.stderr)


if __name__ == "__main__":
    main()
