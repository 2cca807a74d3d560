"""A boundary table drawn from tzfpy's own polygons (format 5 draft, docs/timezone.md "Size").

tzfpy's answer is the first of its polygons that holds the point, so its borders are its rings'
edges. The edges are grouped by the set of zones whose rings hold them and chained (a new chain
where that set changes or three chains meet); each chain's two sides are asked of tzfpy once
(a point a few metres either side of its longest edge), and a chain with the same answer on both
sides (an edge inside an overlap, the strips of the sea against each other) is dropped. Each chain
is simplified by Douglas-Peucker (LAND_TOLERANCE_M between land zones, SEA_TOLERANCE_M at the
sea's edge), put on a grid of 2^GRID_BITS steps a cell's edge, and cut at the cells' edges (the
cut point rounded to the grid, so both cells hold the same one).

A cell with no piece of a chain is one value (a zone or the sea); a refined cell holds its pieces
as polylines with the zones on their left and right, and the zone at its north-east corner. A
point's zone: the first polyline crossed by the ray east from it to the cell's edge (its side
facing the point); when none, the first crossed going north along the inside of the east edge;
when none, the corner's zone.
"""
import json
import math
from collections import defaultdict

import tzfpy

CELLS_PER_DEGREE = 4
COLS, ROWS = 360 * CELLS_PER_DEGREE, 180 * CELLS_PER_DEGREE
LAND_TOLERANCE_M = 50
SEA_TOLERANCE_M = 500
GRID_BITS = 11          # 2048 steps a cell's edge: 13.6 m north-south
EARTH_M = 6371008.8
SEA = "sea"


def nautical_zone(lon):
    """Etc/GMT±N for a longitude: N = round(lon / 15), with POSIX's inverted sign."""
    hours = max(-12, min(12, round(lon / 15)))
    return "Etc/GMT" if hours == 0 else f"Etc/GMT{'-' if hours > 0 else '+'}{abs(hours)}"


def zone_here(lon, lat):
    """tzfpy's answer, with the sea (the longitude's strip, or no answer) as SEA."""
    lon = max(-180.0, min(180.0, lon))
    lat = max(-90.0, min(90.0, lat))
    zone = tzfpy.get_tz(lon, lat)
    return SEA if not zone or zone == nautical_zone(lon) else zone


def rings(zone):
    for feature in json.loads(tzfpy.get_tz_polygon_geojson(zone))["features"]:
        geometry = feature["geometry"]
        polygons = geometry["coordinates"] if geometry["type"] == "MultiPolygon" else [geometry["coordinates"]]
        for polygon in polygons:
            for ring in polygon:
                yield [tuple(p) for p in ring]


def shared_edges(names):
    """edge (a, b) with a < b -> the zones of `names` whose rings hold it."""
    edges = defaultdict(set)
    for zone in names:
        for ring in rings(zone):
            for a, b in zip(ring, ring[1:]):
                if a != b:
                    edges[(a, b) if a < b else (b, a)].add(zone)
    return edges


def edge_groups():
    """frozenset of zones -> the edges (a, b), a < b, that exactly those zones' rings hold."""
    groups = defaultdict(list)
    for edge, zones in shared_edges(tzfpy.timezonenames()).items():
        groups[frozenset(zones)].append(edge)
    return groups


def chains(edges):
    """Polylines through the edges, broken where the degree is not 2."""
    neighbours = defaultdict(list)
    for a, b in edges:
        neighbours[a].append(b)
        neighbours[b].append(a)
    used, out = set(), []

    def walk(start, nxt):
        line = [start, nxt]
        used.add((start, nxt) if start < nxt else (nxt, start))
        while len(neighbours[line[-1]]) == 2:
            a, b = neighbours[line[-1]]
            step = b if a == line[-2] else a
            key = (line[-1], step) if line[-1] < step else (step, line[-1])
            if key in used:
                break
            used.add(key)
            line.append(step)
        return line

    for v, ns in neighbours.items():
        if len(ns) != 2:
            for n in ns:
                if ((v, n) if v < n else (n, v)) not in used:
                    out.append(walk(v, n))
    for a, b in edges:  # closed loops (an enclave's whole border)
        if (a, b) not in used:
            out.append(walk(a, b))
    return out


PROBE_SPACING_M = 1000  # along a border, where its sides are asked of tzfpy
PROBE_OFFSET_M = 3      # how far either side
BISECTIONS = 20         # where the sides change along an edge: to ~1 m in 1,000 km


def sides_at(a, b, t):
    """(left, right): tzfpy's answers a few metres either side of a→b at fraction t."""
    (ax, ay), (bx, by) = a, b
    mx, my = ax + t * (bx - ax), ay + t * (by - ay)
    c = max(math.cos(math.radians(my)), 1e-6)
    dx, dy = (bx - ax) * c, by - ay
    norm = math.hypot(dx, dy)
    off = min(PROBE_OFFSET_M / 111_320, norm * min(t, 1 - t) / 2)
    nx, ny = -dy / norm * off / c, dx / norm * off
    return zone_here(mx + nx, my + ny), zone_here(mx - nx, my - ny)


def edge_runs(a, b):
    """[(t0, t1, (left, right))]: the stretches of the edge a→b with the same sides. The sides
    are asked every PROBE_SPACING_M (at least once) and a change is found by bisection: where
    tzfpy's polygons overlap, the ring that wins changes along an edge that crosses another."""
    length = math.dist(a, b) * 111_320
    n = max(1, math.ceil(length / PROBE_SPACING_M))
    ts = [(k + 0.5) / n for k in range(n)]
    labels = [sides_at(a, b, t) for t in ts]
    runs, begin = [], 0.0
    for k in range(1, n):
        if labels[k] != labels[k - 1]:
            lo, hi = ts[k - 1], ts[k]
            for _ in range(BISECTIONS):
                mid = (lo + hi) / 2
                lo, hi = (mid, hi) if sides_at(a, b, mid) == labels[k - 1] else (lo, mid)
            runs.append((begin, hi, labels[k - 1]))
            begin = hi
    runs.append((begin, 1.0, labels[-1]))
    return runs


def labelled(line):
    """[(left, right, sub-line)]: the chain cut where its sides change."""
    out, current, path = [], None, [line[0]]
    for a, b in zip(line, line[1:]):
        for t0, t1, sides in edge_runs(a, b):
            p = b if t1 == 1.0 else (a[0] + t1 * (b[0] - a[0]), a[1] + t1 * (b[1] - a[1]))
            if sides != current and len(path) > 1:
                out.append((*current, path))
                path = [path[-1]]
            current = sides
            path.append(p)
    out.append((*current, path))
    return out


def metres(line):
    lat0 = math.radians(sum(p[1] for p in line) / len(line))
    k = math.pi / 180 * EARTH_M
    return [((p[0] - line[0][0]) * k * math.cos(lat0), (p[1] - line[0][1]) * k) for p in line]


def douglas_peucker(xy, tolerance):
    """Indices kept; iterative, so a border of 100,000 vertices does not recurse."""
    keep = [False] * len(xy)
    keep[0] = keep[-1] = True
    stack = [(0, len(xy) - 1)]
    while stack:
        i, j = stack.pop()
        (ax, ay), (bx, by) = xy[i], xy[j]
        dx, dy = bx - ax, by - ay
        norm = math.hypot(dx, dy)
        worst, at = -1.0, -1
        for m in range(i + 1, j):
            px, py = xy[m]
            d = abs(dx * (py - ay) - dy * (px - ax)) / norm if norm > 0 else math.hypot(px - ax, py - ay)
            if d > worst:
                worst, at = d, m
        if worst > tolerance:
            keep[at] = True
            stack += [(i, at), (at, j)]
    return [m for m in range(len(xy)) if keep[m]]


def near_regions(line, regions, margin=0.01):
    """True when a segment's bounding box meets a region's (the test table's cells only)."""
    for (ax, ay), (bx, by) in zip(line, line[1:]):
        for w, s, e, n in regions:
            if min(ax, bx) <= e + margin and max(ax, bx) >= w - margin and \
                    min(ay, by) <= n + margin and max(ay, by) >= s - margin:
                return True
    return False


def borders(groups, regions=None, land_tol=LAND_TOLERANCE_M, sea_tol=SEA_TOLERANCE_M):
    """[(left, right, [(lon, lat), ...])]: the simplified chains whose sides differ."""
    out = []
    for zones, edges in groups.items():
        for line in chains(edges):
            if regions is not None and not near_regions(line, regions):
                continue
            if all(abs(x) == 180 for x, _ in line) or all(abs(y) == 90 for _, y in line):
                continue
            for left, right, path in labelled(line):
                if left == right:
                    continue
                tol = sea_tol if SEA in (left, right) else land_tol
                kept = douglas_peucker(metres(path), tol) if len(path) > 2 else [0, 1]
                out.append((left, right, [path[m] for m in kept]))
    return out


def to_grid(line, units):
    q = []
    for lon, lat in line:
        p = (round((lon + 180) * units), round((lat + 90) * units))
        if not q or q[-1] != p:
            q.append(p)
    return q


def cut_points(a, b, g):
    """The segment a→b's points where it crosses the cells' edges, rounded to the grid, in order."""
    (ax, ay), (bx, by) = a, b
    ts = set()
    for lo, hi, d in ((ax, bx, bx - ax), (ay, by, by - ay)):
        if d == 0:
            continue
        first, last = sorted((lo, hi))
        k = first // g + 1
        while k * g < last:
            ts.add((k * g - lo) / d)
            k += 1
    pts = []
    for t in sorted(ts):
        x, y = ax + t * (bx - ax), ay + t * (by - ay)
        # one coordinate is on a cell's edge exactly: keep it exact, round the other
        p = (round(x), round(y))
        if not pts or pts[-1] != p:
            pts.append(p)
    return [a] + [p for p in pts if p != a and p != b] + [b]


def pieces(borders_, grid_bits=GRID_BITS):
    """(col, row) -> [(left, right, [(x, y) local])]: the chains cut at the cells' edges."""
    g = 1 << grid_bits
    units = CELLS_PER_DEGREE * g
    cells = defaultdict(list)
    for left, right, line in borders_:
        q = to_grid(line, units)
        current, path = None, []
        for a, b in zip(q, q[1:]):
            pts = cut_points(a, b, g)
            for p, r in zip(pts, pts[1:]):
                if p == r:
                    continue
                mx, my = (p[0] + r[0]) / 2, (p[1] + r[1]) / 2
                if (p[0] == r[0] and p[0] % g == 0) or (p[1] == r[1] and p[1] % g == 0):
                    cell = None     # along a cell's edge: bounds neither cell's inside
                else:
                    cell = (int(mx // g) % COLS, min(int(my // g), ROWS - 1))
                if cell != current or not path or path[-1] != p:
                    if current is not None and len(path) > 1:
                        cells[current].append((left, right, path))
                    current, path = cell, [p]
                path.append(r)
        if current is not None and len(path) > 1:
            cells[current].append((left, right, path))
    local = {}
    for (col, row), ps in cells.items():
        x0 = col * g
        y0 = row * g
        out = []
        for left, right, path in ps:
            pts = [((x - x0) % (COLS * g) if x - x0 < 0 else x - x0, y - y0) for x, y in path]
            if pts[0][0] > g or pts[-1][0] > g:     # a wrap past 180°
                pts = [(x % (COLS * g) if x > g else x, y) for x, y in pts]
            out.append((left, right, pts))
        local[(col, row)] = out
    return local


def lookup(polylines, corner, g, px, py):
    """The zone at (px, py) in a refined cell's units (px, py not on the grid's lines)."""
    best = None
    for left, right, pts in polylines:
        for (ax, ay), (bx, by) in zip(pts, pts[1:]):
            if (ay > py) != (by > py):
                x = ax + (py - ay) * (bx - ax) / (by - ay)
                if x >= px and (best is None or x < best[0]):
                    best = (x, left if by > ay else right)
    if best:
        return best[1]
    best = None
    for left, right, pts in polylines:
        for (ax, ay), (bx, by) in zip(pts, pts[1:]):
            if (ax == g) == (bx == g):
                continue
            e, o = ((ax, ay), (bx, by)) if ax == g else ((bx, by), (ax, ay))
            key = (e[1], (o[1] - e[1]) / (g - o[0]))
            if e[1] > py and (best is None or key < best[0]):
                best = (key, right if bx > ax else left)
    return best[1] if best else corner



def cell_centre(col, row):
    return -180 + (col + 0.5) / CELLS_PER_DEGREE, -90 + (row + 0.5) / CELLS_PER_DEGREE


def in_regions(col, row, regions):
    lon, lat = cell_centre(col, row)
    return regions is None or any(w <= lon <= e and s <= lat <= n for w, s, e, n in regions)


def corner_zone(col, row, grid_bits):
    """The zone just inside the cell's north-east corner (1.5 grid steps in)."""
    step = 1.5 / (CELLS_PER_DEGREE << grid_bits)
    return zone_here(-180 + (col + 1) / CELLS_PER_DEGREE - step, -90 + (row + 1) / CELLS_PER_DEGREE - step)


def build(regions=None, land_tol=LAND_TOLERANCE_M, sea_tol=SEA_TOLERANCE_M, grid_bits=GRID_BITS):
    """grid[row][col]: None (not covered), a zone or SEA, or a RefinedCell."""
    from tz_overlap import disagrees, overlap_cells, raster_cell   # it builds on this module
    groups = edge_groups()
    cut = pieces(borders(groups, regions, land_tol, sea_tol), grid_bits)
    for col, row in overlap_cells(groups):
        if in_regions(col, row, regions) and disagrees(col, row, cut.get((col, row)), grid_bits):
            cut[(col, row)] = raster_cell(col, row, grid_bits)
    grid = []
    for row in range(ROWS):
        line = []
        for col in range(COLS):
            if not in_regions(col, row, regions):
                line.append(None)
            elif isinstance(cut.get((col, row)), RefinedCell):
                cell = cut[(col, row)]
                line.append(cell if cell.polylines else cell.corner)
            elif (col, row) in cut:
                line.append(RefinedCell(corner_zone(col, row, grid_bits), cut[(col, row)]))
            else:
                line.append(zone_here(*cell_centre(col, row)))
        grid.append(line)
    return grid


class RefinedCell:
    """A cell that borders cross: its polylines (left, right, [(x, y)]) and its corner's zone."""

    def __init__(self, corner, polylines):
        self.corner, self.polylines = corner, polylines

    def zones(self):
        return {self.corner} | {z for left, right, _ in self.polylines for z in (left, right)}
