"""Turns a sampled quadtree's chains of chord leaves into polyline leaves (format 3 on).

A border that bends splits its node into leaves down to the depth limit, each with a chord;
the chords of neighbouring leaves share their ends (where the border crosses the edge between
them), so a node whose subtree holds two zones and whose chords join end to end into one path
from its edge to its edge is the same partition as one polyline with those ends as vertices.
That polyline, on a grid of GRID steps a cell (13.6 m north–south), simplified by
Douglas–Peucker within SIMPLIFY grid steps and then further wherever tzfpy agrees (a run of
vertices becomes one segment when probe pairs the chords' tolerance either side of it, as
tz_sample checks a chord, all fall on its sides), replaces the subtree when it costs fewer
bits.
A node is converted only when every leaf agrees with the polyline (each chord's left zone on
the path's left, each one-zone leaf's centre on its zone's side), so the table answers as the
sampled tree did except within ~20 m of the border (the grid and the simplification), well
inside the chords' own 50 m.

A Polyline(left, right, grid, vertices): vertices are integer (x, y) in 0…grid within the node
(grid = GRID >> depth), the first and last on the node's edge; `left` lies on the path's left.
"""
import collections
import math
from collections import namedtuple

from tz_sample import METRES_PER_DEGREE, Chord, coarse_first, unit_perimeter

GRID = 2048          # vertex steps a cell's edge: 0.25° / 2048 = 13.6 m north–south
SIMPLIFY = 1.0       # Douglas–Peucker tolerance, grid steps
MAX_VERTICES = 255   # a polyline's count is a byte; it also bounds a lookup's work

Polyline = namedtuple("Polyline", "left right grid vertices")


def is_node(tree):
    return isinstance(tree, tuple) and not isinstance(tree, (Chord, Polyline))


def leaves(tree, x0, y0, size, out):
    """(leaf, x0, y0, size) for every leaf under tree, in the node's unit square."""
    if is_node(tree):
        half = size / 2
        for q, child in enumerate(tree):
            leaves(child, x0 + (q & 1) * half, y0 + (q >> 1) * half, half, out)
    else:
        out.append((tree, x0, y0, size))


def on_edge(p):
    return min(p[0], p[1], 1 - p[0], 1 - p[1]) < 1e-9


def perimeter_position(x, y, grid):
    """An edge point's position round the node, anticlockwise from the south-west corner."""
    if y == 0:
        return x
    if x == grid:
        return grid + y
    if y == grid:
        return 3 * grid - x
    return 4 * grid - y


def left_of(vertices, grid, px, py):
    """True when (px, py) lies on the polyline's left: the crossings of the ray east to the
    node's edge, against the side of that edge point (on the left when it lies on the edge's
    arc from the last vertex anticlockwise to the first)."""
    crossings = 0
    for (x1, y1), (x2, y2) in zip(vertices, vertices[1:]):
        if (y1 > py) != (y2 > py) and x1 + (py - y1) * (x2 - x1) / (y2 - y1) > px:
            crossings += 1
    t = grid + py
    a, b = perimeter_position(*vertices[0], grid), perimeter_position(*vertices[-1], grid)
    on_arc = b <= t <= a if b <= a else (t >= b or t <= a)
    return on_arc != (crossings % 2 == 1)


def simplify(v, tol):
    """Douglas–Peucker, keeping the ends."""
    if len(v) <= 2:
        return list(v)
    (x1, y1), (x2, y2) = v[0], v[-1]
    length = math.hypot(x2 - x1, y2 - y1)
    if length == 0:
        far = [math.hypot(x - x1, y - y1) for x, y in v[1:-1]]
    else:
        far = [abs((x2 - x1) * (y1 - y) - (x1 - x) * (y2 - y1)) / length for x, y in v[1:-1]]
    i = max(range(len(far)), key=far.__getitem__)
    if far[i] <= tol:
        return [v[0], v[-1]]
    return simplify(v[:i + 2], tol)[:-1] + simplify(v[i + 1:], tol)


def simplify_checked(v, holds):
    """Douglas–Peucker where a run of vertices becomes one segment only when holds(a, b)."""
    if len(v) <= 2 or holds(v[0], v[-1]):
        return [v[0], v[-1]] if len(v) >= 2 else list(v)
    (x1, y1), (x2, y2) = v[0], v[-1]
    far = [abs((x2 - x1) * (y1 - y) - (x1 - x) * (y2 - y1)) + abs(x - x1) + abs(y - y1) * 1e-9 for x, y in v[1:-1]]
    i = 1 + max(range(len(far)), key=far.__getitem__)
    return simplify_checked(v[:i + 1], holds)[:-1] + simplify_checked(v[i:], holds)


class Probe:
    """tzfpy's answers either side of a segment in a node of a cell (tz_sample's chord check)."""

    def __init__(self, sampler, lon0, lat0, cell_size):
        self.sampler, self.lon0, self.lat0, self.cell_size = sampler, lon0, lat0, cell_size

    def holds(self, node, grid, left, right):
        """A function of two grid points in the node: True when the segment between them has
        `left` on its left and `right` on its right at every probe pair."""
        x0, y0, size = node
        degrees = self.cell_size * size / grid
        lon0, lat0 = self.lon0 + self.cell_size * x0, self.lat0 + self.cell_size * y0
        tolerance = self.sampler.tolerance({left, right})
        extent = self.cell_size * size

        def holds(a, b):
            (ax, ay), (bx, by) = ((lon0 + x * degrees, lat0 + y * degrees) for x, y in (a, b))
            mx = METRES_PER_DEGREE * max(math.cos(math.radians((ay + by) / 2)), 0.01)
            dx, dy = (bx - ax) * mx, (by - ay) * METRES_PER_DEGREE
            length = math.hypot(dx, dy)
            if length < 1:
                return False
            nx, ny = -dy / length * tolerance / mx, dx / length * tolerance / METRES_PER_DEGREE
            for f in coarse_first(max(2, int(length / (2 * tolerance)))):
                px, py = ax + (bx - ax) * f, ay + (by - ay) * f
                for side, zone in ((1, left), (-1, right)):
                    qx, qy = px + side * nx, py + side * ny
                    if (lon0 <= qx <= lon0 + extent and lat0 <= qy <= lat0 + extent
                            and self.sampler.zone_at(qx, qy) != zone):
                        return False
            return True
        return holds


def chain(segments, grid):
    """The segments (a, b) joined end to end from the one starting on the edge, or None."""
    starts = [i for i, (a, _) in enumerate(segments) if on_edge(a)]
    if len(starts) != 1:
        return None
    key = lambda p: (round(p[0] * grid), round(p[1] * grid))
    by_start = collections.defaultdict(list)
    for i, (a, _) in enumerate(segments):
        by_start[key(a)].append(i)
    used, current = {starts[0]}, starts[0]
    path = list(segments[current])
    while not on_edge(segments[current][1]):
        b = segments[current][1]
        kx, ky = key(b)
        near = [(math.dist(segments[j][0], b), j) for dx in (-1, 0, 1) for dy in (-1, 0, 1)
                for j in by_start.get((kx + dx, ky + dy), ()) if j not in used]
        near = [n for n in near if n[0] < 1.5 / grid]
        if not near:
            return None
        current = min(near)[1]
        used.add(current)
        path.append(segments[current][1])
    return path if len(used) == len(segments) else None


def polyline(tree, grid, node=(0.0, 0.0, 1.0), probe=None):
    """The node as one Polyline, or None when its leaves do not make one path. node: its
    corner and size in the cell; probe: a Probe of the cell, to simplify further."""
    found = []
    leaves(tree, 0.0, 0.0, 1.0, found)
    zones = set()
    for leaf, *_ in found:
        zones |= {leaf.left, leaf.right} if isinstance(leaf, Chord) else {leaf}
    if len(zones) != 2 or any(isinstance(leaf, Polyline) for leaf, *_ in found):
        return None
    left, right = sorted(zones)
    segments = []
    for leaf, x0, y0, size in found:
        if isinstance(leaf, Chord):
            (ax, ay), (bx, by) = unit_perimeter(leaf.a), unit_perimeter(leaf.b)
            a, b = (x0 + ax * size, y0 + ay * size), (x0 + bx * size, y0 + by * size)
            segments.append((a, b) if leaf.left == left else (b, a))
    path = chain(segments, grid) if len(segments) >= 2 else None
    if path is None:
        return None
    vertices = [(round(x * grid), round(y * grid)) for x, y in path]
    vertices = simplify([p for i, p in enumerate(vertices) if i == 0 or p != vertices[i - 1]], SIMPLIFY)
    if probe is not None:
        vertices = simplify_checked(vertices, probe.holds(node, grid, left, right))
    if len(vertices) < 2 or len(vertices) > MAX_VERTICES or vertices[0] == vertices[-1]:
        return None
    for leaf, x0, y0, size in found:
        if not isinstance(leaf, Chord) and left_of(vertices, grid, (x0 + size / 2) * grid,
                                                   (y0 + size / 2) * grid) != (leaf == left):
            return None
    return Polyline(left, right, grid, vertices)


def signed_bits(value):
    """Bits of a two's complement field that holds value."""
    return (value if value >= 0 else -value - 1).bit_length() + 1


def delta_bits(vertices):
    return max(signed_bits(c) for (x1, y1), (x2, y2) in zip(vertices, vertices[1:]) for c in (x2 - x1, y2 - y1))


def polyline_bits(line, record_bits):
    """A polyline leaf's cost: its record, its offset, its two header bytes and its vertices."""
    start = (line.grid.bit_length() - 1) + 2
    return record_bits + 16 + 16 + start + 2 * delta_bits(line.vertices) * (len(line.vertices) - 1)


def convert(tree, depth, code_bits, record_bits, node=(0.0, 0.0, 1.0), probe=None):
    """(tree, bits): the cheaper of the subtree as sampled (with its nodes converted) and the
    node as one polyline leaf."""
    if not is_node(tree):
        return tree, record_bits if isinstance(tree, Chord) else 0
    x0, y0, size = node
    half = size / 2
    children = [convert(child, depth + 1, code_bits, record_bits,
                        (x0 + (q & 1) * half, y0 + (q >> 1) * half, half), probe) for q, child in enumerate(tree)]
    # A node: its four codes and its share of the checkpoints (32 bits every 32 codes).
    kept = tuple(c for c, _ in children), 4 * code_bits + 4 + sum(b for _, b in children)
    line = polyline(tree, GRID >> depth, node, probe) if GRID >> depth >= 4 else None
    if line is None:
        return kept
    bits = polyline_bits(line, record_bits)
    return (line, bits) if bits < kept[1] else kept


def convert_cell(tree, code_bits, record_bits, probe=None):
    return convert(tree, 0, code_bits, record_bits, probe=probe)[0]
