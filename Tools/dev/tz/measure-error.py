#!/usr/bin/env python3
"""Measures a table's agreement with tzfpy by distance from the nearest border.

Usage: Tools/dev/tz/measure-error.py [TABLE] [POINTS]   (Traces/tz/test-regions.sxtz, 20000)

Random points in the test regions (Tools/dev/tz/border_points.py) are sorted by their clearance
(the largest of 25/50/100/200/400 m whose 32-point ring all gives the point's zone, 0 when
even 25 m does not) and the table's answer, decoded here independently of the Swift reader,
is compared with tzfpy's.
"""
import random
import struct
import sys

import tzfpy

import border_points as bp


class Table:
    def __init__(self, data):
        (_, _, self.per_degree, _, _, zones, runs, refined, nodes, splits, _) = struct.unpack_from("<4sHHBBHIIIII", data)
        pos = 40
        self.names = []
        for _ in range(zones):
            n = data[pos]
            self.names.append(data[pos + 1:pos + 1 + n].decode())
            pos += 1 + n
        rows, self.cols = 180 * self.per_degree, 360 * self.per_degree
        self.offsets = struct.unpack_from(f"<{rows + 1}I", data, pos); pos += 4 * (rows + 1)
        self.runs = struct.unpack_from(f"<{2 * runs}H", data, pos); pos += 4 * runs
        r = struct.unpack_from(f"<{3 * refined}I", data, pos); pos += 12 * refined
        self.refined = {r[i]: (r[i + 1], r[i + 2]) for i in range(0, len(r), 3)}
        self.nodes = struct.unpack_from(f"<{4 * nodes}H", data, pos); pos += 8 * nodes
        self.splits = struct.unpack_from(f"<{4 * splits}H", data, pos)

    def zone(self, lon, lat):
        y, x = (lat + 90) * self.per_degree, ((lon + 180) % 360) * self.per_degree
        row, col = min(int(y), 180 * self.per_degree - 1), min(int(x), self.cols - 1)
        value = 0
        for k in range(self.offsets[row], self.offsets[row + 1]):
            if self.runs[2 * k] <= col:
                value = self.runs[2 * k + 1]
        if value == 0xFFFE:
            return None
        if value != 0xFFFF:
            return self.names[value]
        first_node, first_split = self.refined[row * self.cols + col]
        node, x, y = first_node, x - col, y - row
        while True:
            q = (x >= 0.5) + 2 * (y >= 0.5)
            child = self.nodes[4 * node + q]
            x, y = 2 * x - (x >= 0.5), 2 * y - (y >= 0.5)
            if child < 0x8000:
                node = first_node + child
            elif child < 0xC000:
                return self.names[child & 0x3FFF]
            else:
                s = 4 * (first_split + (child & 0x3FFF))
                x1, y1 = unit(self.splits[s + 2]); x2, y2 = unit(self.splits[s + 3])
                left = (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1) >= 0
                return self.names[self.splits[s] if left else self.splits[s + 1]]


def unit(position):
    edge, f = position // 16384, (position % 16384) / 16384
    return [(f, 0.0), (1.0, f), (1.0 - f, 1.0), (0.0, 1.0 - f)][edge]


def clearance(lon, lat):
    best = 0
    for r in (25, 50, 100, 200, 400):
        if not bp.clear(lon, lat, r):
            break
        best = r
    return best


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "Traces/tz/test-regions.sxtz"
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 20000
    table = Table(open(path, "rb").read())
    rng = random.Random(7)
    tally = {}
    regions = list(bp.REGIONS.values())
    # Half the points near borders: within 1 km of a pair's crossing, so that the near bins fill.
    near = [p for p in (bp.lerp(a, b, bp.crossing(a, b)) for a, b in bp.PAIRS.values()
            if bp.zone(*a) != bp.zone(*b))]
    for i in range(count):
        if i % 2:
            w, s, e, n = rng.choice(regions)
            lon, lat = rng.uniform(w, e), rng.uniform(s, n)
        else:
            c = rng.choice(near)
            lon, lat = bp.offset(*c, rng.uniform(-1000, 1000), rng.uniform(-1000, 1000))
        got = table.zone(lon, lat)
        if got is None:
            continue
        bin_ = clearance(lon, lat)
        total, wrong = tally.get(bin_, (0, 0))
        tally[bin_] = (total + 1, wrong + (got != tzfpy.get_tz(lon, lat)))
    for bin_ in sorted(tally):
        total, wrong = tally[bin_]
        label = f"<25 m" if bin_ == 0 else f">={bin_} m"
        print(f"clearance {label:>7}: {wrong} wrong of {total} ({100 * wrong / total:.2f} %)")


if __name__ == "__main__":
    main()
