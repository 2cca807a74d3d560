"""Where tzfpy's polygons overlap, the table is drawn from tzfpy's answers (tz_poly.build)."""
import math

from tz_poly import (CELLS_PER_DEGREE, COLS, ROWS, SEA, SEA_TOLERANCE_M, RefinedCell, cell_centre, chains,
                     corner_zone, lookup, zone_here)


# Where tzfpy's polygons overlap (Asia/Urumqi over Asia/Shanghai, Africa/Juba and
# Africa/Khartoum round Abyei, America/Sitka and America/Vancouver in Dixon Entrance), its
# answer inside the overlap follows its own index's tiles rather than any polygon's edge. The
# edges there lie on one ring only (or on three): the cells within their bounding boxes are
# checked against tzfpy on a CHECK_LATTICE² lattice, and one that disagrees somewhere at least CHECK_CLEAR_M
# from a change of answer (SEA_TOLERANCE_M + 100 m where the sea is one of the two) is drawn instead from RASTER² answers of tzfpy: the edges between
# pixels of different answers, merged into straight runs.
CHECK_LATTICE = 24
CHECK_CLEAR_M = 150
RASTER = 256


def overlap_cells(groups):
    """The cells within the bounding box of a chain of edges on one ring only or on three
    (the nautical strips' own edges left out): where tzfpy's polygons may overlap."""
    cells = set()
    for zones, edges in groups.items():
        if len(zones) == 2 or all(z.startswith("Etc/GMT") for z in zones):
            continue
        for line in chains(edges):
            if all(abs(x) == 180 for x, _ in line) or all(abs(y) == 90 for _, y in line):
                continue
            xs, ys = [x for x, _ in line], [y for _, y in line]
            c0, c1 = int((min(xs) + 180) * CELLS_PER_DEGREE), int((max(xs) + 180) * CELLS_PER_DEGREE)
            r0, r1 = int((min(ys) + 90) * CELLS_PER_DEGREE), int((max(ys) + 90) * CELLS_PER_DEGREE)
            cells |= {(c % COLS, min(r, ROWS - 1)) for c in range(c0, c1 + 1) for r in range(r0, r1 + 1)}
    return sorted(cells)


def cell_point(col, row, fx, fy):
    return -180 + (col + fx) / CELLS_PER_DEGREE, -90 + (row + fy) / CELLS_PER_DEGREE


def disagrees(col, row, polylines, grid_bits):
    g = 1 << grid_bits
    corner = corner_zone(col, row, grid_bits)
    for i in range(CHECK_LATTICE):
        for j in range(CHECK_LATTICE):
            fx, fy = (i + 0.5) / CHECK_LATTICE, (j + 0.5) / CHECK_LATTICE
            lon, lat = cell_point(col, row, fx, fy)
            want = zone_here(lon, lat)
            got = lookup(polylines, corner, g, int(fx * g) + 0.5, int(fy * g) + 0.5) if polylines \
                else zone_here(*cell_centre(col, row))
            # a difference within the simplification's tolerance (and the grid's) is no overlap
            radius = SEA_TOLERANCE_M + 100 if SEA in (got, want) else CHECK_CLEAR_M
            if got != want and clear(lon, lat, want, radius):
                return True
    return False


def clear(lon, lat, zone, radius_m):
    d = radius_m / 111_320
    c = max(math.cos(math.radians(lat)), 1e-6)
    return all(zone_here(lon + dx / c, lat + dy) == zone for dx, dy in ((d, 0), (-d, 0), (0, d), (0, -d)))


def raster_cell(col, row, grid_bits):
    n, step = RASTER, (1 << grid_bits) // RASTER
    label = [[zone_here(*cell_point(col, row, (i + 0.5) / n, (j + 0.5) / n)) for j in range(n)] for i in range(n)]
    lines = []
    for i in range(n - 1):      # vertical runs between columns i and i + 1, going north
        j = 0
        while j < n:
            west, east = label[i][j], label[i + 1][j]
            k = j
            while k < n and (label[i][k], label[i + 1][k]) == (west, east):
                k += 1
            if west != east:
                lines.append((west, east, [((i + 1) * step, j * step), ((i + 1) * step, k * step)]))
            j = k
    for j in range(n - 1):      # horizontal runs between rows j and j + 1, going east
        i = 0
        while i < n:
            south, north = label[i][j], label[i][j + 1]
            k = i
            while k < n and (label[k][j], label[k][j + 1]) == (south, north):
                k += 1
            if south != north:
                lines.append((north, south, [(i * step, (j + 1) * step), (k * step, (j + 1) * step)]))
            i = k
    return RefinedCell(label[n - 1][n - 1], lines)
