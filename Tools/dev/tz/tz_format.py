"""The table's bytes (format version 5, docs/timezone.md); tz_read.py reads them back.

The grid's rows as runs of equal values (a zone, the sea, not covered, or refined cells), as
format 4 held them; each refined cell is a blob: a two-byte header (the stored palette's size
and the corner's palette index; the sea in the palette, a byte a palette entry, the polyline
count or 63 and a varint of the rest), its palette of zones (numbered by how many refined
cells hold them, so that most entries take a byte; the sea implied by the header), then its
polylines bit-packed end to end, lowest bit first: the vertex count less 2 (8 bits), the left
and right palette indices (4 bits each, only when the palette holds more than two zones; with
two the polyline runs with entry 0 on its left), whether the first vertex is on the cell's
edge (1 bit), the delta width w (4 bits), the first vertex (its position round the edge,
GRID_BITS + 2 bits, or x and y, GRID_BITS each), then each next vertex as dx, dy in w-bit
two's complement. A cell's offset is 16 bits from its row's first cell.
"""
import struct
import zlib

import tzfpy

from tz_poly import CELLS_PER_DEGREE, GRID_BITS, SEA, RefinedCell, nautical_zone

MAGIC = b"SXTZ"
VERSION = 5
SEA_VALUE = 0x7FFD
ABSENT = 0x7FFE
REFINED = 0x8000        # | the run's first refined cell's rank in its row
MAX_PALETTE = 15
MAX_VERTICES = 257
COUNT_ESCAPE = 63
HEADER = 40
SEA_FLAG, BYTE_PALETTE_FLAG = 0x01, 0x02


def varint(value):
    out = bytearray()
    while True:
        byte, value = value & 0x7F, value >> 7
        out.append(byte | (0x80 if value else 0))
        if not value:
            return bytes(out)


class BitWriter:
    def __init__(self):
        self.value = self.shift = 0

    def put(self, field, bits):
        assert 0 <= field < 1 << bits, (field, bits)
        self.value |= field << self.shift
        self.shift += bits

    def bytes(self):
        return self.value.to_bytes((self.shift + 7) // 8, "little")


def perimeter_position(x, y, g):
    """A point on the cell's edge → its place anticlockwise from the south-west corner."""
    if y == 0 and x < g:
        return x
    if x == g and y < g:
        return g + y
    if y == g and x > 0:
        return 3 * g - x
    return 4 * g - y


def on_edge(x, y, g):
    return x in (0, g) or y in (0, g)


def split_long(path):
    while len(path) > MAX_VERTICES:
        yield path[:MAX_VERTICES]
        path = path[MAX_VERTICES - 1:]
    yield path


def put_polyline(bits, path, labels, g):
    deltas = [(b[0] - a[0], b[1] - a[1]) for a, b in zip(path, path[1:])]
    w = max(max(abs(d) for d in pair).bit_length() + 1 for pair in deltas)
    assert w <= 15
    bits.put(len(path) - 2, 8)
    if labels is not None:
        bits.put(labels[0] | labels[1] << 4, 8)
    edge = on_edge(*path[0], g)
    bits.put(edge, 1)
    bits.put(w, 4)
    if edge:
        bits.put(perimeter_position(*path[0], g), GRID_BITS + 2)
    else:
        bits.put(path[0][0], GRID_BITS)
        bits.put(path[0][1], GRID_BITS)
    for dx, dy in deltas:
        bits.put(dx & ((1 << w) - 1), w)
        bits.put(dy & ((1 << w) - 1), w)


def encode_cell(cell, number):
    """A refined cell's bytes."""
    g = 1 << GRID_BITS
    palette = sorted(cell.zones(), key=lambda z: (z == SEA, number.get(z, 0)))
    assert 2 <= len(palette) <= MAX_PALETTE + 1 and len(palette) - (SEA in palette) <= MAX_PALETTE
    index = {z: i for i, z in enumerate(palette)}
    lines = []
    for left, right, path in cell.polylines:
        if len(palette) <= 2 and index[left] != 0:
            left, right, path = right, left, path[::-1]
        lines += [(index[left], index[right], part) for part in split_long(path)]
    stored = [number[z] for z in palette if z != SEA]
    byte_palette = all(v < 256 for v in stored)
    out = bytearray([len(stored) | index[cell.corner] << 4,
                     (SEA_FLAG if SEA in palette else 0) | (BYTE_PALETTE_FLAG if byte_palette else 0)
                     | min(len(lines), COUNT_ESCAPE) << 2])
    if len(lines) >= COUNT_ESCAPE:
        out += varint(len(lines) - COUNT_ESCAPE)
    for v in stored:
        out += v.to_bytes(1 if byte_palette else 2, "little")
    bits = BitWriter()
    for left, right, path in lines:
        put_polyline(bits, path, (left, right) if len(palette) > 2 else None, g)
    return bytes(out + bits.bytes())


def zone_order(grid):
    """Every zone tzfpy names and the nautical strips, numbered by how many refined cells hold
    them, the most first (so that most palettes fit a byte an entry), then by name."""
    cells = {}
    names = set(tzfpy.timezonenames()) | {nautical_zone(lon) for lon in range(-180, 181, 15)}
    for row in grid:
        for value in row:
            if isinstance(value, RefinedCell):
                for z in value.zones():
                    cells[z] = cells.get(z, 0) + 1
            elif value is not None:
                names.add(value)
    names = (names | set(cells)) - {SEA}
    return sorted(names, key=lambda z: (-cells.get(z, 0), z))


def encode(grid, land_tol, sea_tol, data_version):
    """grid[row][col]: None (not covered), a zone, SEA, or a RefinedCell."""
    order = zone_order(grid)
    number = {z: k for k, z in enumerate(order)}
    runs, row_runs, row_refined, row_blob, offsets, blob = [], [], [], [], [], bytearray()
    refined_total = 0
    for row_index, row in enumerate(grid):
        row_runs.append(len(runs))
        row_refined.append(refined_total)
        row_blob.append(len(blob))
        previous, in_row = None, 0
        for col, cell in enumerate(row):
            if isinstance(cell, RefinedCell):
                offsets.append(len(blob) - row_blob[-1])
                assert offsets[-1] < 1 << 16, f"row {row_index}'s cells pass 64 KiB"
                blob += encode_cell(cell, number)
                value = REFINED
                in_row += 1
                refined_total += 1
            else:
                value = ABSENT if cell is None else SEA_VALUE if cell == SEA else number[cell]
            if value != previous:
                runs.append((col, value | (in_row - 1 if value == REFINED else 0)))
                previous = value
    row_runs.append(len(runs))
    row_refined.append(refined_total)
    row_blob.append(len(blob))
    body = bytearray()
    for name in order:
        body += struct.pack("<B", len(name)) + name.encode("ascii")
    body += struct.pack(f"<{len(row_runs)}I", *row_runs)
    for start, value in runs:
        body += struct.pack("<HH", start, value)
    body += struct.pack(f"<{len(row_refined)}I", *row_refined)
    body += struct.pack(f"<{len(row_blob)}I", *row_blob)
    body += struct.pack(f"<{len(offsets)}H", *offsets)
    body += blob
    version = data_version.encode("ascii")[:8].ljust(8, b"\0")
    header = MAGIC + struct.pack("<HHBBHIIIHH", VERSION, CELLS_PER_DEGREE, GRID_BITS, 0,
                                 len(order), len(runs), refined_total, len(blob), land_tol, sea_tol)
    header += struct.pack("<I", zlib.crc32(bytes(body))) + version
    assert len(header) == HEADER
    return header + bytes(body), {"runs": len(runs), "refined": refined_total, "blob": len(blob),
                                  "zones": len(order)}
