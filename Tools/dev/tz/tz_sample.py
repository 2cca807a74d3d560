"""Samples tzfpy into one quadtree per 0.25° cell: the table's contents before encoding.

A node's 5×5 samples decide it: one zone makes a leaf. With two zones, whose border crosses
the node's edge exactly twice, the generator tries a *chord leaf*: the straight line between
the two crossings (found by bisection along the edge), kept when every sample and every
probe pair (points `tolerance` metres either side of the chord, every 2 × tolerance along
it) falls on the chord's predicted side. Otherwise the node splits, down to `land_depth`
where two land zones meet and `sea_depth` where one side is the sea; at that depth a leaf is
a chord leaf unchecked when the edge is crossed twice, else the zone at its centre.

The sea is one value: tzfpy's Etc/GMT±N strips there are exactly the nautical zones
round(lon / 15) (their edges fall on the cells' edges), which the reader computes from the
longitude, so the strips cost nothing.

A tree is a zone number (a leaf), a tuple of four trees (south-west, south-east, north-west,
north-east), or a Chord(left, right, a, b) with a and b positions round the node's edge in
[0, 4), anticlockwise from its south-west corner.
"""
import math
from collections import namedtuple

import tzfpy

CELLS_PER_DEGREE = 4
COLS, ROWS = 360 * CELLS_PER_DEGREE, 180 * CELLS_PER_DEGREE
SAMPLES = 5             # per side of a node: corners, edges and interior
PERIMETER_SAMPLES = 16  # per edge of a node, to find where the border crosses it
BISECTIONS = 10         # along the perimeter: 1/16384 of an edge
METRES_PER_DEGREE = 111_320
LAND_TOLERANCE_M = 50   # a chord leaf between two land zones is within this of tzfpy's border
SEA_TOLERANCE_M = 500   # ... between a land zone and the sea (docs/timezone.md, rule Z1)

Chord = namedtuple("Chord", "left right a b")


def nautical_zone(lon):
    """Etc/GMT±N for a longitude: N = round(lon / 15), with POSIX's inverted sign."""
    hours = max(-12, min(12, round(lon / 15)))
    return "Etc/GMT" if hours == 0 else f"Etc/GMT{'-' if hours > 0 else '+'}{abs(hours)}"


def unit_perimeter(t):
    """(x, y) in the unit square at perimeter parameter t in [0, 4)."""
    edge, f = int(t) % 4, t - int(t)
    return [(f, 0.0), (1.0, f), (1.0 - f, 1.0), (0.0, 1.0 - f)][edge]


def chord_side(ax, ay, bx, by, x, y):
    """True when (x, y) lies left of the line a→b (or on it)."""
    return (bx - ax) * (y - ay) - (by - ay) * (x - ax) >= 0


class Sampler:
    def __init__(self, land_depth, sea_depth):
        self.land_depth, self.sea_depth = land_depth, sea_depth
        names = set(tzfpy.timezonenames()) | {nautical_zone(lon) for lon in range(-180, 181, 15)}
        self.zones = sorted(names)
        self.index = {z: i for i, z in enumerate(self.zones)}
        self.sea = len(self.zones)   # the sea: a value past the names
        self.lookups = 0
        self.odd_nautical = 0        # nautical answers that are not the longitude's strip

    def zone_at(self, lon, lat):
        self.lookups += 1
        # tzfpy answers "" in a few slivers between its polygons; they are at sea or on a
        # border, where the sea is the answer that stays put.
        zone = tzfpy.get_tz(lon, lat)
        if not zone or zone == nautical_zone(lon):
            return self.sea
        if zone.startswith("Etc/"):
            self.odd_nautical += 1
        return self.index[zone]

    def samples(self, lon0, lat0, size):
        """(x, y, zone) on a 5×5 lattice just inside the node (x, y in 0…1)."""
        step, inset = 1 / (SAMPLES - 1), 1e-6
        out = []
        for j in range(SAMPLES):
            y = min(max(j * step, inset), 1 - inset)
            for i in range(SAMPLES):
                x = min(max(i * step, inset), 1 - inset)
                out.append((x, y, self.zone_at(lon0 + x * size, lat0 + y * size)))
        return out

    def depth_limit(self, zones):
        land = [z for z in zones if z != self.sea]
        return self.land_depth if len(land) >= 2 else self.sea_depth

    def tolerance(self, zones):
        return SEA_TOLERANCE_M if self.sea in zones else LAND_TOLERANCE_M

    def edge_zones(self, lon0, lat0, size):
        """The zones just inside the node's edge (so that a border on the edge itself, a
        meridian between two cells, does not count)."""
        inset = size * 1e-6
        return {self.zone_at(*self.at(lon0 + inset, lat0 + inset, size - 2 * inset, i / PERIMETER_SAMPLES))
                for i in range(4 * PERIMETER_SAMPLES)}

    def node(self, lon0, lat0, size, depth, strict=False):
        """A tree for the node. A cell (depth 0) whose 5 × 5 samples agree is also sampled
        round its edge (16 an edge, 1.7 km apart): a border that crosses the edge between the
        lattice's points (a river's bend, a cape) makes the cell *strict*, where every node
        is so checked, down to the depth limit."""
        samples = self.samples(lon0, lat0, size)
        zones = {z for _, _, z in samples}
        if len(zones) == 1:
            if not strict and depth > 0:
                return zones.pop()
            zones |= self.edge_zones(lon0, lat0, size)
            if len(zones) == 1:
                return zones.pop()
            strict = True
        deepest = depth >= self.depth_limit(zones)
        if len(zones) == 2 or deepest:
            chord = self.chord(lon0, lat0, size)
            if chord and (deepest or self.chord_holds(chord, lon0, lat0, size, samples, self.tolerance(zones))):
                return chord
        if deepest:
            return self.zone_at(lon0 + size / 2, lat0 + size / 2)
        half = size / 2
        return tuple(self.node(lon0 + (q & 1) * half, lat0 + (q >> 1) * half, half, depth + 1, strict)
                     for q in range(4))

    def chord(self, lon0, lat0, size):
        """The chord between the edge's two crossings, or None when it is crossed otherwise."""
        steps = 4 * PERIMETER_SAMPLES
        ts = [i / PERIMETER_SAMPLES for i in range(steps)]
        zones = [self.zone_at(*self.at(lon0, lat0, size, t)) for t in ts]
        changes = [i for i in range(steps) if zones[i] != zones[(i + 1) % steps]]
        if len(changes) != 2 or len(set(zones)) != 2:
            return None
        a, b = (self.bisect(lon0, lat0, size, ts[i], ts[i] + 1 / PERIMETER_SAMPLES, zones[i]) for i in changes)
        # The perimeter runs anticlockwise, so the zone just before the first crossing lies
        # left of the chord from it to the second.
        return Chord(zones[changes[0]], zones[(changes[0] + 1) % steps], a, b)

    def at(self, lon0, lat0, size, t):
        x, y = unit_perimeter(t)
        return lon0 + x * size, lat0 + y * size

    def bisect(self, lon0, lat0, size, t0, t1, zone0):
        for _ in range(BISECTIONS):
            middle = (t0 + t1) / 2
            if self.zone_at(*self.at(lon0, lat0, size, middle)) == zone0:
                t0 = middle
            else:
                t1 = middle
        return ((t0 + t1) / 2) % 4

    def chord_holds(self, chord, lon0, lat0, size, samples, tolerance_m):
        (ax, ay), (bx, by) = unit_perimeter(chord.a), unit_perimeter(chord.b)
        for x, y, z in samples:
            if z != (chord.left if chord_side(ax, ay, bx, by, x, y) else chord.right):
                return False
        # Metres in node units, east and north, at the node's latitude.
        lat = lat0 + size / 2
        mx = size * METRES_PER_DEGREE * max(math.cos(math.radians(lat)), 0.01)
        my = size * METRES_PER_DEGREE
        length = math.hypot((bx - ax) * mx, (by - ay) * my)
        if length < 1:
            return False
        nx, ny = -(by - ay) * my / length, (bx - ax) * mx / length   # unit normal, leftward, metres
        count = max(2, int(length / (2 * tolerance_m)))
        for f in coarse_first(count):
            px, py = ax + (bx - ax) * f, ay + (by - ay) * f
            for side, zone in ((1, chord.left), (-1, chord.right)):
                qx, qy = px + side * tolerance_m * nx / mx, py + side * tolerance_m * ny / my
                if 0 <= qx <= 1 and 0 <= qy <= 1 and self.zone_at(lon0 + qx * size, lat0 + qy * size) != zone:
                    return False
        return True

    def cell(self, col, row):
        lon0, lat0 = -180 + col / CELLS_PER_DEGREE, -90 + row / CELLS_PER_DEGREE
        return self.node(lon0, lat0, 1 / CELLS_PER_DEGREE, 0)


def coarse_first(count):
    """Fractions k / count for 0 < k < count, halving the spacing each pass (a failure shows early)."""
    seen, step = set(), 1
    while step * 2 < count:
        step *= 2
    out = []
    while step >= 1:
        for k in range(step, count, step):
            if k not in seen:
                seen.add(k)
                out.append(k / count)
        step //= 2
    return out
