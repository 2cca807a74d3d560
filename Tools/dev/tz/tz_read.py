"""Reads a version-4 table (docs/timezone.md) independently of the Swift reader, for
measure-error.py and the generator's own measures. No checks: the Swift reader's are the
product's.
"""
import struct

from tz_chain import left_of
from tz_format import ABSENT, BYTE_PALETTE_FLAG, GROUP, HEADER, ONE_LINE_FLAG, REFINED, SEA, SEA_FLAG, VERSION, code_bits
from tz_sample import COLS, ROWS, chord_side, nautical_zone, unit_perimeter


def read_varint(data, at):
    value = shift = 0
    while True:
        byte = data[at]
        at += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            return value, at


class Bits:
    def __init__(self, data, at):
        self.data, self.bit = data, 8 * at

    def take(self, count):
        at = self.bit >> 3
        word = int.from_bytes(self.data[at:at + 8], "little")
        value = (word >> (self.bit & 7)) & ((1 << count) - 1)
        self.bit += count
        return value


def polyline_size(blob, at):
    n, kw = blob[at], blob[at + 1]
    return 2 + ((kw & 15) + 2 + 2 * (kw >> 4) * (n - 1) + 7) // 8


def decode_polyline(blob, at):
    n, kw = blob[at], blob[at + 1]
    k, w = kw & 15, kw >> 4
    grid = 1 << k
    bits = Bits(blob, at + 2)
    edge, f = divmod(bits.take(k + 2), grid)
    x, y = [(f, 0), (grid, f), (grid - f, grid), (0, grid - f)][edge]
    vertices = [(x, y)]
    for _ in range(n - 1):
        dx, dy = bits.take(w), bits.take(w)
        x += dx - (1 << w) if dx >> (w - 1) else dx
        y += dy - (1 << w) if dy >> (w - 1) else dy
        vertices.append((x, y))
    return grid, vertices


class Cell:
    """A refined cell's header and the places of its parts."""

    def __init__(self, blob, at):
        flags, self.end_bits = blob[at], blob[at + 1]
        stored, has_sea = flags & 15, bool(flags & SEA_FLAG)
        pos = at + 2
        if flags & ONE_LINE_FLAG:
            self.nodes, self.lines = 0, 1
        else:
            self.nodes, pos = read_varint(blob, pos)
            self.lines, pos = read_varint(blob, pos)
        width = 1 if flags & BYTE_PALETTE_FLAG else 2
        self.palette = list(struct.unpack_from(f"<{stored}{'B' if width == 1 else 'H'}", blob, pos)) + [SEA] * has_sea
        self.p = len(self.palette)
        self.bits = code_bits(self.p)
        self.codes = pos + width * stored
        self.checks = self.codes + (4 * self.nodes * self.bits + 7) // 8
        self.records = self.checks + 4 * max(0, (4 * self.nodes + GROUP - 1) // GROUP - 1)
        self.width = 2 * self.end_bits + (8 if self.p > 2 else 0)
        self.polylines = self.records + (self.lines * self.width + 7) // 8


class Table:
    def __init__(self, data):
        (_, version, self.per_degree, _, _, zones, runs, refined, blob, _, _, _) = struct.unpack_from("<4sHHBBHIIIHHI", data)
        assert version == VERSION, f"table version {version}"
        pos = HEADER
        self.names = []
        for _ in range(zones):
            n = data[pos]
            self.names.append(data[pos + 1:pos + 1 + n].decode())
            pos += 1 + n
        rows = 180 * self.per_degree
        self.row_runs = struct.unpack_from(f"<{rows + 1}I", data, pos); pos += 4 * (rows + 1)
        self.runs = struct.unpack_from(f"<{2 * runs}H", data, pos); pos += 4 * runs
        self.row_refined = struct.unpack_from(f"<{rows + 1}I", data, pos); pos += 4 * (rows + 1)
        self.row_blob = struct.unpack_from(f"<{rows + 1}I", data, pos); pos += 4 * (rows + 1)
        self.offsets = struct.unpack_from(f"<{refined}H", data, pos); pos += 2 * refined
        self.blob = data[pos:pos + blob]

    def zone(self, lon, lat):
        y, x = (lat + 90) * self.per_degree, ((lon + 180) % 360) * self.per_degree
        row, col = min(int(y), ROWS - 1), min(int(x), COLS - 1)
        start, value = 0, ABSENT
        for k in range(self.row_runs[row], self.row_runs[row + 1]):
            if self.runs[2 * k] <= col:
                start, value = self.runs[2 * k], self.runs[2 * k + 1]
        if value < REFINED:
            return self.name(value, lon)
        slot = self.row_refined[row] + (value & 0x7FFF) + col - start
        return self.name(self.descend(self.row_blob[row] + self.offsets[slot], x - col, y - row), lon)

    def name(self, value, lon):
        if value == ABSENT:
            return None
        return nautical_zone(((lon + 180) % 360) - 180) if value == SEA else self.names[value]

    def descend(self, at, x, y):
        cell = Cell(self.blob, at)
        p, bits = cell.p, cell.bits

        def code(e):
            return (self.blob[cell.codes + e * bits // 8] >> (e * bits % 8)) & ((1 << bits) - 1)

        def rank(e, kind):
            g = e // GROUP
            counts = struct.unpack_from("<HH", self.blob, cell.checks + 4 * (g - 1)) if g else (0, 0)
            return counts[kind != p] + sum(code(k) == kind for k in range(GROUP * g, e))
        if cell.nodes == 0:
            return self.line(cell, 0, x, y)
        node = 0
        while True:
            q = (x >= 0.5) + 2 * (y >= 0.5)
            e = 4 * node + q
            c = code(e)
            x, y = 2 * x - (x >= 0.5), 2 * y - (y >= 0.5)
            if c < p:
                return cell.palette[c]
            if c == p:
                node = 1 + rank(e, p)
            else:
                return self.line(cell, rank(e, p + 1), x, y)

    def line(self, cell, k, x, y):
        bits = Bits(self.blob, cell.records)
        bits.bit += k * cell.width
        a, b = bits.take(cell.end_bits), bits.take(cell.end_bits)
        left, right = (0, 1) if cell.p <= 2 else (bits.take(4), bits.take(4))
        if a == b:
            # Polyline a: past the a polylines after the records.
            at = cell.polylines
            for _ in range(a):
                at += polyline_size(self.blob, at)
            grid, vertices = decode_polyline(self.blob, at)
            return cell.palette[left if left_of(vertices, grid, x * grid, y * grid) else right]
        quarter = (1 << cell.end_bits) / 4
        (ax, ay), (bx, by) = (unit_perimeter(v / quarter) for v in (a, b))
        return cell.palette[left if chord_side(ax, ay, bx, by, x, y) else right]
