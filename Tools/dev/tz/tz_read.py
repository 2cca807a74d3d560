"""Reads a version-5 table (docs/timezone.md) independently of the Swift reader, for
measure-error.py and the generator's own measures. No checks: the Swift reader's are the
product's.
"""
import math
import struct

from tz_format import ABSENT, BYTE_PALETTE_FLAG, COUNT_ESCAPE, HEADER, REFINED, SEA_FLAG, SEA_VALUE, VERSION
from tz_poly import COLS, ROWS, lookup, nautical_zone


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

    def signed(self, count):
        value = self.take(count)
        return value - (1 << count) if value >> (count - 1) else value


def edge_point(position, g):
    edge, f = divmod(position, g)
    return [(f, 0), (g, f), (g - f, g), (0, g - f)][edge]


def decode_cell(blob, at, grid_bits):
    """(corner index, [(left index, right index, [(x, y)])])."""
    g = 1 << grid_bits
    first, second = blob[at], blob[at + 1]
    stored, corner = first & 15, first >> 4
    palette = stored + (1 if second & SEA_FLAG else 0)
    count, at = second >> 2, at + 2
    if count == COUNT_ESCAPE:
        more, at = read_varint(blob, at)
        count += more
    at += stored * (1 if second & BYTE_PALETTE_FLAG else 2)
    bits, lines = Bits(blob, at), []
    for _ in range(count):
        n = bits.take(8) + 2
        left, right = (0, 1)
        if palette > 2:
            labels = bits.take(8)
            left, right = labels & 15, labels >> 4
        edge, w = bits.take(1), bits.take(4)
        x, y = edge_point(bits.take(grid_bits + 2), g) if edge else (bits.take(grid_bits), bits.take(grid_bits))
        path = [(x, y)]
        for _ in range(n - 1):
            x, y = x + bits.signed(w), y + bits.signed(w)
            path.append((x, y))
        lines.append((left, right, path))
    return corner, lines


def cell_palette(blob, at):
    first, second = blob[at], blob[at + 1]
    stored, at = first & 15, at + 2
    if second >> 2 == COUNT_ESCAPE:
        _, at = read_varint(blob, at)
    width = 1 if second & BYTE_PALETTE_FLAG else 2
    out = [int.from_bytes(blob[at + width * k:at + width * (k + 1)], "little") for k in range(stored)]
    return out + ([SEA_VALUE] if second & SEA_FLAG else [])


class Table:
    def __init__(self, data):
        (_, version, self.per_degree, self.grid_bits, _, zones, runs, refined, blob, _, _, _) = \
            struct.unpack_from("<4sHHBBHIIIHHI", data)
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

    def cell_at(self, row, col):
        """(value, None) or (None, the refined cell's offset in the blob)."""
        start, value = 0, ABSENT
        for k in range(self.row_runs[row], self.row_runs[row + 1]):
            if self.runs[2 * k] <= col:
                start, value = self.runs[2 * k], self.runs[2 * k + 1]
        if value < REFINED:
            return value, None
        slot = self.row_refined[row] + (value & 0x7FFF) + col - start
        return None, self.row_blob[row] + self.offsets[slot]

    def zone(self, lon, lat):
        y, x = (lat + 90) * self.per_degree, ((lon + 180) % 360) * self.per_degree
        row, col = min(int(y), ROWS - 1), min(int(x), COLS - 1)
        value, at = self.cell_at(row, col)
        if at is not None:
            g = 1 << self.grid_bits
            corner, lines = decode_cell(self.blob, at, self.grid_bits)
            px, py = math.floor((x - col) * g) + 0.5, math.floor((y - row) * g) + 0.5
            value = cell_palette(self.blob, at)[lookup(lines, corner, g, px, py)]
        return self.name(value, lon)

    def name(self, value, lon):
        if value == ABSENT:
            return None
        return nautical_zone(((lon + 180) % 360) - 180) if value == SEA_VALUE else self.names[value]
