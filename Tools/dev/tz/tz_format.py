"""The table's bytes (format version 4, docs/timezone.md); tz_read.py reads them back.

Each refined cell is a blob: a two-byte header (its palette's size, whether the sea is in it,
whether the cell is one line leaf, the bits of a line record's ends) and its node and line
counts as varints; its palette of zones (a byte each when they allow, the zones being
numbered by how many cells hold them; the sea implied by the header); its quadtree in
breadth-first order as 2- or 4-bit codes (a leaf's palette index, "node" or "line") with the
counts of node and line codes before every 64th code but the first (so a child's index is a
count, not a pointer); its line leaves' records, bit-packed: a chord (two ends round the
leaf's edge, as finely as the cell's shallowest chord needs) or, when both ends are equal,
polyline number k of the cell (tz_chain.py); the polylines' delta-coded vertices follow the
records, one after another. A cell's offset is 16 bits from its row's first cell.
"""
import struct
import zlib

from tz_chain import Polyline, Probe, convert_cell, delta_bits, perimeter_position
from tz_sample import CELLS_PER_DEGREE, Chord

MAGIC = b"SXTZ"
VERSION = 4
SEA = 0x7FFD
ABSENT = 0x7FFE
REFINED = 0x8000        # | the run's first refined cell's rank in its row
MAX_PALETTE = 14        # 4-bit codes: 14 zones, "node", "line"
MAX_END_BITS = 12       # a chord's end: at most 1024 steps an edge of its leaf
STEP_BITS = 12          # chord ends every 1024th of a cell's edge (27 m), round its 4 edges
GROUP = 64              # codes between checkpoints
HEADER = 40
SEA_FLAG, ONE_LINE_FLAG, BYTE_PALETTE_FLAG = 0x10, 0x20, 0x40


def code_bits(palette):
    return 2 if palette <= 2 else 4


def quantise(t, end_bits):
    steps = 1 << end_bits
    return int(round(t * steps / 4)) % steps


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
        assert 0 <= field < 1 << bits
        self.value |= field << self.shift
        self.shift += bits

    def bytes(self):
        return self.value.to_bytes((self.shift + 7) // 8, "little")


class CellEncoder:
    """One refined cell's blob."""

    def __init__(self, root, zone_value, sea, probe=None):
        self.probe = probe
        self.zone_value = zone_value
        self.sea = sea
        zones = []
        self.collect(root, zones)
        # The sea, when present, is the palette's last entry and is not stored.
        self.palette = [z for z in zones if z != sea] + [z for z in zones if z == sea]
        assert len(self.palette) <= MAX_PALETTE, f"a cell holds {len(self.palette)} zones"
        self.index = {z: i for i, z in enumerate(self.palette)}
        self.root = root

    def collect(self, tree, zones):
        if isinstance(tree, tuple) and not isinstance(tree, (Chord, Polyline)):
            for child in tree:
                self.collect(child, zones)
            return
        for z in [tree.left, tree.right] if isinstance(tree, (Chord, Polyline)) else [tree]:
            if z not in zones:
                zones.append(z)

    def encode(self):
        p = len(self.palette)
        self.root = convert_cell(self.root, code_bits(p), 8 * record_width(p), self.probe)
        if isinstance(self.root, (Chord, Polyline)):
            nodes, lines = [], [(self.root, 0)]
        else:
            nodes, lines = self.breadth_first()
        codes = [c for node in nodes for c in node]
        end_bits = self.end_bits(lines)
        has_sea = self.sea in self.palette
        stored = [self.zone_value(z) for z in self.palette[:p - has_sea]]
        narrow = all(v < 256 for v in stored)
        out = bytearray([(p - has_sea) | SEA_FLAG * has_sea | ONE_LINE_FLAG * (not nodes) | BYTE_PALETTE_FLAG * narrow,
                         end_bits])
        if nodes:
            out += varint(len(nodes)) + varint(len(lines))
        out += bytes(stored) if narrow else struct.pack(f"<{len(stored)}H", *stored)
        out += pack_codes(codes, code_bits(p))
        out += checkpoints(codes, p)
        records, polylines = self.records(lines, end_bits)
        out += records
        for line in polylines:
            out += line
        assert len(out) < 1 << 16, f"a cell of {len(out)} bytes"
        return bytes(out)

    def end_bits(self, lines):
        """Bits of a record's end: as fine as the shallowest chord needs (its leaf's edge in
        steps of a 1024th of the cell's), and enough to number the cell's polylines."""
        bits, polylines = 2, 0
        for line, depth in lines:
            if isinstance(line, Polyline):
                polylines += 1
                bits = max(bits, (polylines - 1).bit_length())
            else:
                bits = max(bits, min(MAX_END_BITS, STEP_BITS - depth))
        return bits

    def records(self, lines, end_bits):
        p, writer, polylines = len(self.palette), BitWriter(), []
        for line, _ in lines:
            left, right = self.index[line.left], self.index[line.right]
            if isinstance(line, Polyline):
                vertices = line.vertices
                if p <= 2 and left != 0:
                    # With two zones a line runs so that the first is on its left.
                    vertices, left, right = vertices[::-1], right, left
                a = b = len(polylines)
                polylines.append(encode_polyline(line.grid, vertices))
            else:
                a, b = quantise(line.a, end_bits), quantise(line.b, end_bits)
                if p <= 2 and left != 0:
                    a, b, left, right = b, a, right, left
                if a == b:   # equal ends mark a polyline: a chord this short is nudged
                    b = (b + 1) % (1 << end_bits)
            writer.put(a, end_bits)
            writer.put(b, end_bits)
            if p > 2:
                writer.put(left, 4)
                writer.put(right, 4)
        return writer.bytes(), polylines

    def breadth_first(self):
        """The nodes' codes in breadth-first order, and the line leaves with their depths."""
        p, queue, nodes, lines = len(self.palette), [(self.root, 0)], [], []
        while len(nodes) < len(queue):
            tree, depth = queue[len(nodes)]
            codes = []
            for child in tree:
                if isinstance(child, (Chord, Polyline)):
                    codes.append(p + 1)
                    lines.append((child, depth + 1))
                elif isinstance(child, tuple):
                    codes.append(p)
                    queue.append((child, depth + 1))
                else:
                    codes.append(self.index[child])
            nodes.append(codes)
        return nodes, lines


def checkpoints(codes, p):
    """Before every GROUP-th code but the first: the node and line codes before it."""
    out, internal, line = bytearray(), 0, 0
    for e, c in enumerate(codes):
        if e % GROUP == 0 and e:
            out += struct.pack("<HH", internal, line)
        internal += c == p
        line += c == p + 1
    return out


def record_width(palette):
    """The cost model's bits of a record (tz_chain.convert): 3 bytes, 4 with a side byte."""
    return 3 if palette <= 2 else 4


def encode_polyline(grid, vertices):
    """n, log2(grid) | delta bits << 4, then bits from the lowest: the first vertex's position
    round the node's edge (log2(grid) + 2 bits), and each next vertex's dx, dy in two's
    complement."""
    k, w = grid.bit_length() - 1, delta_bits(vertices)
    assert 2 <= len(vertices) <= 255 and 1 << k == grid and k <= 15 and w <= 15
    writer = BitWriter()
    writer.put(perimeter_position(*vertices[0], grid), k + 2)
    for (x1, y1), (x2, y2) in zip(vertices, vertices[1:]):
        writer.put((x2 - x1) & ((1 << w) - 1), w)
        writer.put((y2 - y1) & ((1 << w) - 1), w)
    return bytes([len(vertices), k | w << 4]) + writer.bytes()


def pack_codes(codes, bits):
    out = bytearray((len(codes) * bits + 7) // 8)
    for e, c in enumerate(codes):
        out[e * bits // 8] |= c << (e * bits % 8)
    return out


def zones_in(tree, out):
    if isinstance(tree, (Chord, Polyline)):
        out |= {tree.left, tree.right}
    elif isinstance(tree, tuple):
        for child in tree:
            zones_in(child, out)
    elif tree is not None:
        out.add(tree)
    return out


def zone_order(sampler, grid):
    """The zones numbered by how many refined cells hold them, the most first, so that most
    palettes fit a byte an entry."""
    cells = {}
    for row in grid:
        for tree in row:
            if isinstance(tree, tuple):
                for z in zones_in(tree, set()):
                    cells[z] = cells.get(z, 0) + 1
    return sorted(range(len(sampler.zones)), key=lambda z: (-cells.get(z, 0), sampler.zones[z]))


def encode(sampler, grid, land_tol, sea_tol, data_version):
    """grid[row][col]: a tree, or None where a partial table has no answer."""
    order = zone_order(sampler, grid)
    number = {z: k for k, z in enumerate(order)}

    def zone_value(z):
        return SEA if z == sampler.sea else number[z]
    runs, row_runs, row_refined, row_blob, offsets, blob = [], [], [], [], [], bytearray()
    refined_total = 0
    for row_index, row in enumerate(grid):
        row_runs.append(len(runs))
        row_refined.append(refined_total)
        row_blob.append(len(blob))
        previous, in_row = None, 0
        for col, tree in enumerate(row):
            if tree is None or isinstance(tree, int):
                value = ABSENT if tree is None else zone_value(tree)
            else:
                offsets.append(len(blob) - row_blob[-1])
                assert offsets[-1] < 1 << 16, f"row {row_index}'s cells pass 64 KiB"
                probe = Probe(sampler, -180 + col / CELLS_PER_DEGREE, -90 + row_index / CELLS_PER_DEGREE,
                              1 / CELLS_PER_DEGREE)
                blob += CellEncoder(tree, zone_value, sampler.sea, probe).encode()
                value = REFINED
                in_row += 1
                refined_total += 1
            if value != previous:
                runs.append((col, value | (in_row - 1 if value == REFINED else 0)))
                previous = value
    row_runs.append(len(runs))
    row_refined.append(refined_total)
    row_blob.append(len(blob))
    body = bytearray()
    for name in (sampler.zones[z] for z in order):
        body += struct.pack("<B", len(name)) + name.encode("ascii")
    body += struct.pack(f"<{len(row_runs)}I", *row_runs)
    for start, value in runs:
        body += struct.pack("<HH", start, value)
    body += struct.pack(f"<{len(row_refined)}I", *row_refined)
    body += struct.pack(f"<{len(row_blob)}I", *row_blob)
    body += struct.pack(f"<{len(offsets)}H", *offsets)
    body += blob
    version = data_version.encode("ascii")[:8].ljust(8, b"\0")
    header = MAGIC + struct.pack("<HHBBHIIIHH", VERSION, 4, sampler.land_depth, sampler.sea_depth,
                                 len(sampler.zones), len(runs), refined_total, len(blob), land_tol, sea_tol)
    header += struct.pack("<I", zlib.crc32(bytes(body))) + version
    assert len(header) == HEADER
    return header + bytes(body), {"runs": len(runs), "refined": refined_total, "blob": len(blob)}
