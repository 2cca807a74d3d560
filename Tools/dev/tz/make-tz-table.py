#!/usr/bin/env python3
"""Builds Sextant's offline time-zone boundary table from tzfpy's answers.

Usage: Tools/dev/tz/make-tz-table.py [--land-depth 6] [--sea-depth 3] [--out Traces/tz/zones.sxtz]
       Tools/dev/tz/make-tz-table.py --test-regions --out Traces/tz/test-regions.sxtz
       Tools/dev/tz/make-tz-table.py --points Traces/tz/border-points.tsv   (the tests' expected answers)

Needs tzfpy 2.1.1 (PyPI; MIT code, data ODbL-1.0 from tzf-dist, built from
timezone-boundary-builder): Tools/dev/tz/setup-venv.sh makes a venv with it.

The table is a grid of 0.25° cells. A cell whose 5×5 samples all give one zone holds that
zone; a cell with several is a quadtree, split while a node's samples disagree, down to
`land_depth` (0.25°/2^6, 434 m) where two land zones meet and `sea_depth` (0.25°/2^3, 3.5 km)
where the only other zone is a nautical one (Etc/GMT±N). A leaf still mixed at that depth
holds the chord between the two points where the border crosses its edge (found by
bisection), and a zone each side; a leaf the border crosses more often holds the zone at its
centre. docs/timezone.md describes the format and the error bound; ZoneTable.swift reads it.
"""
import argparse
import math
import struct
import sys
import zlib

import tzfpy

import border_points

CELLS_PER_DEGREE = 4
COLS, ROWS = 360 * CELLS_PER_DEGREE, 180 * CELLS_PER_DEGREE
SAMPLES = 5          # per side of a node: corners, edges and interior
LEAF_FLAG = 0x8000      # a child 0x8000 | zone is a leaf holding that zone
SPLIT_FLAG = 0xC000     # a child 0xC000 | i is the cell's i-th split leaf
NODE_LIMIT = 0x8000     # a child below it is the cell's node of that index
PERIMETER_SAMPLES = 16  # per edge of a split leaf, to find where the border crosses it
BISECTIONS = 12         # along the perimeter: 1/4096 of an edge (0.1 m at depth 6)
REFINED = 0xFFFF
ABSENT = 0xFFFE         # a cell outside the regions a partial table was built for
MAGIC = b"SXTZ"
VERSION = 1


def nautical_zone(lon):
    """Etc/GMT±N for a longitude: N = round(lon / 15), with POSIX's inverted sign."""
    hours = max(-12, min(12, round(lon / 15)))
    return "Etc/GMT" if hours == 0 else f"Etc/GMT{'-' if hours > 0 else '+'}{abs(hours)}"


def is_nautical(zone):
    return zone.startswith("Etc/")


class Builder:
    def __init__(self, land_depth, sea_depth):
        self.land_depth, self.sea_depth = land_depth, sea_depth
        names = set(tzfpy.timezonenames()) | {nautical_zone(lon) for lon in range(-180, 181, 15)}
        self.zones = sorted(names)
        self.index = {z: i for i, z in enumerate(self.zones)}
        self.lookups = 0

    def zone_at(self, lon, lat):
        self.lookups += 1
        zone = tzfpy.get_tz(lon, lat)
        # tzfpy answers "" in a few slivers between its polygons; they are at sea or on a
        # border, where the nautical zone of the meridian is the answer that stays put.
        return self.index[zone or nautical_zone(lon)]

    def samples(self, lon0, lat0, size):
        step = size / (SAMPLES - 1)
        # Sample just inside the node so that a neighbour's edge does not decide it.
        inset = size * 1e-6
        seen = set()
        for j in range(SAMPLES):
            lat = min(max(lat0 + j * step, lat0 + inset), lat0 + size - inset)
            for i in range(SAMPLES):
                lon = min(max(lon0 + i * step, lon0 + inset), lon0 + size - inset)
                seen.add(self.zone_at(lon, lat))
        return seen

    def depth_limit(self, zones):
        land = [z for z in zones if not is_nautical(self.zones[z])]
        return self.land_depth if len(land) >= 2 else self.sea_depth

    def node(self, lon0, lat0, size, depth, cell):
        """A child value: LEAF_FLAG | zone, SPLIT_FLAG | split, or the index of a node in `cell`."""
        zones = self.samples(lon0, lat0, size)
        if len(zones) == 1:
            return LEAF_FLAG | zones.pop()
        if depth >= self.depth_limit(zones):
            return self.deepest_leaf(lon0, lat0, size, cell)
        nodes = cell["nodes"]
        here = len(nodes)
        assert here < NODE_LIMIT, "a cell's quadtree outgrew its 15-bit node indices"
        nodes.append(None)
        half = size / 2
        nodes[here] = [self.node(lon0 + (q & 1) * half, lat0 + (q >> 1) * half, half, depth + 1, cell)
                       for q in range(4)]
        return here

    def perimeter_point(self, lon0, lat0, size, t):
        """The point at perimeter parameter t in [0, 4): bottom, right, top, left, anticlockwise."""
        x, y = unit_perimeter(t)
        return lon0 + x * size, lat0 + y * size

    def deepest_leaf(self, lon0, lat0, size, cell):
        """A leaf at the deepest level: split by the chord where the border crosses its edge
        twice between two zones; else the zone at its centre."""
        steps = 4 * PERIMETER_SAMPLES
        ts = [i / PERIMETER_SAMPLES for i in range(steps)]
        zones = [self.zone_at(*self.perimeter_point(lon0, lat0, size, t)) for t in ts]
        changes = [i for i in range(steps) if zones[i] != zones[(i + 1) % steps]]
        if len(changes) != 2 or len(set(zones)) != 2:
            return LEAF_FLAG | self.zone_at(lon0 + size / 2, lat0 + size / 2)
        crossings = [self.bisect(lon0, lat0, size, ts[i], ts[i] + 1 / PERIMETER_SAMPLES, zones[i])
                     for i in changes]
        # The perimeter runs anticlockwise, so the zone just before the first crossing lies
        # left of the chord from it to the second.
        left, right = zones[changes[0]], zones[(changes[0] + 1) % steps]
        splits = cell["splits"]
        assert len(splits) < NODE_LIMIT // 2, "a cell outgrew its 14-bit split indices"
        splits.append((left, right, *(quantise(t) for t in crossings)))
        return SPLIT_FLAG | (len(splits) - 1)

    def bisect(self, lon0, lat0, size, t0, t1, zone0):
        for _ in range(BISECTIONS):
            middle = (t0 + t1) / 2
            if self.zone_at(*self.perimeter_point(lon0, lat0, size, middle)) == zone0:
                t0 = middle
            else:
                t1 = middle
        return (t0 + t1) / 2

    def cell(self, col, row):
        lon0, lat0 = -180 + col / CELLS_PER_DEGREE, -90 + row / CELLS_PER_DEGREE
        cell = {"nodes": [], "splits": []}
        root = self.node(lon0, lat0, 1 / CELLS_PER_DEGREE, 0, cell)
        return root, cell


def unit_perimeter(t):
    """(x, y) in the unit square at perimeter parameter t in [0, 4)."""
    edge, f = int(t) % 4, t - int(t)
    return [(f, 0.0), (1.0, f), (1.0 - f, 1.0), (0.0, 1.0 - f)][edge]


def quantise(t):
    """A perimeter parameter as u16: 65536 steps round the square."""
    return int(round(t * 16384)) % 65536


def encode_runs(grid):
    """Each row as runs (start column u16, value u16); row r's runs start at offsets[r]."""
    offsets, runs = [], []
    for row in grid:
        offsets.append(len(runs))
        previous = None
        for col, value in enumerate(row):
            if value != previous:
                runs.append((col, value))
                previous = value
    offsets.append(len(runs))
    return offsets, runs


def in_regions(col, row, regions):
    lon, lat = -180 + (col + 0.5) / CELLS_PER_DEGREE, -90 + (row + 0.5) / CELLS_PER_DEGREE
    return regions is None or any(w <= lon <= e and s <= lat <= n for w, s, e, n in regions)


def build(builder, progress, regions=None):
    grid = [[ABSENT] * COLS for _ in range(ROWS)]
    refined, all_nodes, all_splits = [], [], []
    for row in range(ROWS):
        for col in range(COLS):
            if not in_regions(col, row, regions):
                continue
            root, cell = builder.cell(col, row)
            if not cell["nodes"]:
                # A cell with no node is one leaf; a split one is refined to a lone node.
                if root & SPLIT_FLAG != SPLIT_FLAG:
                    grid[row][col] = root & ~LEAF_FLAG
                    continue
                cell["nodes"].append([root] * 4)
            grid[row][col] = REFINED
            refined.append((row * COLS + col, len(all_nodes), len(all_splits)))
            all_nodes.extend(cell["nodes"])
            all_splits.extend(cell["splits"])
        if progress and row % 40 == 0:
            print(f"row {row}/{ROWS}: {len(refined)} refined cells, {len(all_nodes)} nodes, "
                  f"{len(all_splits)} splits, {builder.lookups} lookups", file=sys.stderr)
    return grid, refined, all_nodes, all_splits


def serialise(builder, grid, refined, nodes, splits):
    offsets, runs = encode_runs(grid)
    body = bytearray()
    for name in builder.zones:
        encoded = name.encode("ascii")
        body += struct.pack("<B", len(encoded)) + encoded
    body += struct.pack(f"<{len(offsets)}I", *offsets)
    for start, value in runs:
        body += struct.pack("<HH", start, value)
    for cell_id, first_node, first_split in refined:
        body += struct.pack("<III", cell_id, first_node, first_split)
    for children in nodes:
        body += struct.pack("<4H", *children)
    for split in splits:
        body += struct.pack("<4H", *split)
    version = tzfpy.data_version().encode("ascii")[:8].ljust(8, b"\0")
    header = MAGIC + struct.pack(
        "<HHBBHIIII", VERSION, CELLS_PER_DEGREE, builder.land_depth, builder.sea_depth,
        len(builder.zones), len(runs), len(refined), len(nodes), len(splits))
    header += struct.pack("<I", zlib.crc32(bytes(body))) + version
    return header + bytes(body)


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--land-depth", type=int, default=6)
    parser.add_argument("--sea-depth", type=int, default=3)
    parser.add_argument("--out", default="Traces/tz/zones.sxtz")
    parser.add_argument("--quiet", action="store_true")
    parser.add_argument("--test-regions", action="store_true",
                        help="only the cells round the border points (the tests' table)")
    parser.add_argument("--points", help="write the border points and tzfpy's answers there")
    args = parser.parse_args()
    if args.points:
        border_points.write(args.points)
        return
    builder = Builder(args.land_depth, args.sea_depth)
    regions = border_points.REGIONS.values() if args.test_regions else None
    grid, refined, nodes, splits = build(builder, not args.quiet, regions)
    table = serialise(builder, grid, refined, nodes, splits)
    with open(args.out, "wb") as out:
        out.write(table)
    print(f"{args.out}: {len(table)} bytes ({len(zlib.compress(table, 9))} zlib), "
          f"{len(builder.zones)} zones, {len(refined)} refined cells, {len(nodes)} nodes, "
          f"{len(splits)} splits, "
          f"{builder.lookups} tzfpy lookups, data {tzfpy.data_version()}", file=sys.stderr)


if __name__ == "__main__":
    main()
