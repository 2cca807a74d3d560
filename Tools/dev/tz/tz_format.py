"""The table's bytes (format version 3, docs/timezone.md): writing them, and a reader
independent of the Swift one (for measure-error.py).

Each refined cell is a blob: its palette of zones, its quadtree in breadth-first order as
2- or 4-bit codes (a leaf's palette index, "node" or "line") with the counts of node and
line codes before every eighth node (so a child's index is a count, not a pointer), and its
line leaves at 3 or 4 bytes each: a chord (two ends round the leaf's edge) or, when both
ends are equal, polyline number k of the cell (tz_chain.py); the polylines' delta-coded
vertices follow the records, one after another.
"""
import struct
import zlib

from tz_chain import Polyline, Probe, convert_cell, delta_bits, left_of
from tz_sample import CELLS_PER_DEGREE, COLS, ROWS, Chord, nautical_zone, unit_perimeter, chord_side

MAGIC = b"SXTZ"
VERSION = 3
SEA = 0x7FFD
ABSENT = 0x7FFE
REFINED = 0x8000        # | the run's first refined cell's rank in its row
MAX_PALETTE = 14        # 4-bit codes: 14 zones, "node", "chord"
EDGE_STEPS = 1024       # chord ends: 10 bits an edge, 12 round the square
GROUP = 32              # codes between checkpoints
HEADER = 40


def code_bits(palette):
    return 2 if palette <= 2 else 4


def quantise(t):
    return int(round(t * EDGE_STEPS)) % (4 * EDGE_STEPS)


class CellEncoder:
    """One refined cell's blob."""

    def __init__(self, root, zone_value, probe=None):
        self.probe = probe
        self.zone_value = zone_value
        self.palette = []
        self.collect(root)
        assert len(self.palette) <= MAX_PALETTE, f"a cell holds {len(self.palette)} zones"
        self.index = {z: i for i, z in enumerate(self.palette)}
        self.root = root

    def collect(self, tree):
        if isinstance(tree, (Chord, Polyline)):
            zones = [tree.left, tree.right]
        elif isinstance(tree, tuple):
            for child in tree:
                self.collect(child)
            return
        else:
            zones = [tree]
        for z in zones:
            if z not in self.palette:
                self.palette.append(z)

    def encode(self):
        p = len(self.palette)
        self.root = convert_cell(self.root, code_bits(p), 8 * record_width(p), self.probe)
        if isinstance(self.root, (Chord, Polyline)):
            nodes, chords = [], [self.root]
        else:
            nodes, chords = self.breadth_first()
        codes = [c for node in nodes for c in node]
        out = bytearray(struct.pack("<BHH", p, len(nodes), len(chords)))
        for z in self.palette:
            out += struct.pack("<H", self.zone_value(z))
        out += pack_codes(codes, code_bits(p))
        internal = chord = 0
        for e, c in enumerate(codes):
            if e % GROUP == 0:
                out += struct.pack("<HH", internal, chord)
            internal += c == p
            chord += c == p + 1
        lines = []
        for ch in chords:
            left, right = self.index[ch.left], self.index[ch.right]
            if isinstance(ch, Polyline):
                vertices = ch.vertices
                if p <= 2 and left != 0:
                    # With two zones a line runs so that the first is on its left.
                    vertices, left, right = vertices[::-1], right, left
                a = b = len(lines)
                lines.append(encode_polyline(ch.grid, vertices))
            else:
                a, b = quantise(ch.a), quantise(ch.b)
                if p <= 2 and left != 0:
                    a, b, left, right = b, a, right, left
                if a == b:   # equal ends mark a polyline: a chord this short is nudged
                    b = (b + 1) % (4 * EDGE_STEPS)
            out += struct.pack("<I", a | b << 12)[:3]
            if p > 2:
                out.append(left | right << 4)
        assert len(lines) < 4 * EDGE_STEPS, f"a cell holds {len(lines)} polylines"
        for line in lines:
            out += line
        assert len(out) < 1 << 16, f"a cell of {len(out)} bytes"
        return bytes(out)

    def breadth_first(self):
        p, queue, nodes, chords = len(self.palette), [self.root], [], []
        while len(nodes) < len(queue):
            codes = []
            for child in queue[len(nodes)]:
                if isinstance(child, (Chord, Polyline)):
                    codes.append(p + 1)
                    chords.append(child)
                elif isinstance(child, tuple):
                    codes.append(p)
                    queue.append(child)
                else:
                    codes.append(self.index[child])
            nodes.append(codes)
        return nodes, chords


def record_width(palette):
    return 3 if palette <= 2 else 4


def encode_polyline(grid, vertices):
    """n, log2(grid) | delta bits << 4, then bits from the lowest: the first vertex's position
    round the node's edge (log2(grid) + 2 bits), and each next vertex's dx, dy in two's
    complement."""
    from tz_chain import perimeter_position
    k, w = grid.bit_length() - 1, delta_bits(vertices)
    assert 2 <= len(vertices) <= 255 and 1 << k == grid and k <= 15 and w <= 15
    fields = [(perimeter_position(*vertices[0], grid), k + 2)]
    for (x1, y1), (x2, y2) in zip(vertices, vertices[1:]):
        fields += [((x2 - x1) & ((1 << w) - 1), w), ((y2 - y1) & ((1 << w) - 1), w)]
    value = shift = 0
    for field, bits in fields:
        value |= field << shift
        shift += bits
    return bytes([len(vertices), k | w << 4]) + value.to_bytes((shift + 7) // 8, "little")


def polyline_size(blob, at):
    n, kw = blob[at], blob[at + 1]
    return 2 + ((kw & 15) + 2 + 2 * (kw >> 4) * (n - 1) + 7) // 8


def decode_polyline(blob, at):
    n, kw = blob[at], blob[at + 1]
    k, w = kw & 15, kw >> 4
    grid = 1 << k
    size = (k + 2 + 2 * w * (n - 1) + 7) // 8
    value = int.from_bytes(blob[at + 2:at + 2 + size], "little")
    t = value & ((1 << (k + 2)) - 1)
    value >>= k + 2
    edge, f = divmod(t, grid)
    x, y = [(f, 0), (grid, f), (grid - f, grid), (0, grid - f)][edge]
    vertices = [(x, y)]
    for _ in range(n - 1):
        dx, dy = value & ((1 << w) - 1), (value >> w) & ((1 << w) - 1)
        value >>= 2 * w
        x += dx - (1 << w) if dx >> (w - 1) else dx
        y += dy - (1 << w) if dy >> (w - 1) else dy
        vertices.append((x, y))
    return grid, vertices


def pack_codes(codes, bits):
    out = bytearray((len(codes) * bits + 7) // 8)
    for e, c in enumerate(codes):
        out[e * bits // 8] |= c << (e * bits % 8)
    return out


def encode(sampler, grid, land_tol, sea_tol, data_version):
    """grid[row][col]: a tree, or None where a partial table has no answer."""
    def zone_value(z):
        return SEA if z == sampler.sea else z
    runs, row_offsets, row_refined, offsets, blob = [], [], [], [], bytearray()
    refined_total = 0
    for row_index, row in enumerate(grid):
        row_offsets.append(len(runs))
        row_refined.append(refined_total)
        previous, in_row = None, 0
        for col, tree in enumerate(row):
            if tree is None or isinstance(tree, int):
                value = ABSENT if tree is None else zone_value(tree)
            else:
                offsets.append(len(blob))
                probe = Probe(sampler, -180 + col / CELLS_PER_DEGREE, -90 + row_index / CELLS_PER_DEGREE,
                              1 / CELLS_PER_DEGREE)
                blob += CellEncoder(tree, zone_value, probe).encode()
                value = REFINED
                in_row += 1
                refined_total += 1
            if value != previous:
                runs.append((col, value | (in_row - 1 if value == REFINED else 0)))
                previous = value
    row_offsets.append(len(runs))
    row_refined.append(refined_total)
    offsets.append(len(blob))
    body = bytearray()
    for name in sampler.zones:
        body += struct.pack("<B", len(name)) + name.encode("ascii")
    body += struct.pack(f"<{len(row_offsets)}I", *row_offsets)
    for start, value in runs:
        body += struct.pack("<HH", start, value)
    body += struct.pack(f"<{len(row_refined)}I", *row_refined)
    body += struct.pack(f"<{len(offsets)}I", *offsets)
    body += blob
    version = data_version.encode("ascii")[:8].ljust(8, b"\0")
    header = MAGIC + struct.pack("<HHBBHIIIHH", VERSION, 4, sampler.land_depth, sampler.sea_depth,
                                 len(sampler.zones), len(runs), refined_total, len(blob), land_tol, sea_tol)
    header += struct.pack("<I", zlib.crc32(bytes(body))) + version
    assert len(header) == HEADER
    return header + bytes(body), {"runs": len(runs), "refined": refined_total, "blob": len(blob)}


class Table:
    """Reads a version-3 table (no checks: the Swift reader's are the product's)."""

    def __init__(self, data):
        (_, version, self.per_degree, _, _, zones, runs, refined, blob, _, _, _) = struct.unpack_from("<4sHHBBHIIIHHI", data)
        assert version == VERSION, f"table version {version}"
        pos = HEADER
        self.names = []
        for _ in range(zones):
            n = data[pos]
            self.names.append(data[pos + 1:pos + 1 + n].decode())
            pos += 1 + n
        rows, self.cols = 180 * self.per_degree, 360 * self.per_degree
        self.row_runs = struct.unpack_from(f"<{rows + 1}I", data, pos); pos += 4 * (rows + 1)
        self.runs = struct.unpack_from(f"<{2 * runs}H", data, pos); pos += 4 * runs
        self.row_refined = struct.unpack_from(f"<{rows + 1}I", data, pos); pos += 4 * (rows + 1)
        self.offsets = struct.unpack_from(f"<{refined + 1}I", data, pos); pos += 4 * (refined + 1)
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
        return self.name(self.descend(self.offsets[slot], x - col, y - row), lon)

    def name(self, value, lon):
        if value == ABSENT:
            return None
        return nautical_zone(((lon + 180) % 360) - 180) if value == SEA else self.names[value]

    def descend(self, at, x, y):
        p, n, _ = struct.unpack_from("<BHH", self.blob, at)
        palette = struct.unpack_from(f"<{p}H", self.blob, at + 5)
        bits = code_bits(p)
        codes_at = at + 5 + 2 * p
        checks_at = codes_at + (4 * n * bits + 7) // 8
        chords_at = checks_at + 4 * ((4 * n + GROUP - 1) // GROUP)

        def code(e):
            return (self.blob[codes_at + e * bits // 8] >> (e * bits % 8)) & ((1 << bits) - 1)

        def rank(e, kind):
            g = e // GROUP
            internal, chord = struct.unpack_from("<HH", self.blob, checks_at + 4 * g)
            count = internal if kind == p else chord
            return count + sum(code(k) == kind for k in range(GROUP * g, e))
        if n == 0:
            return self.chord(at, chords_at, 0, p, palette, x, y)
        node = 0
        while True:
            q = (x >= 0.5) + 2 * (y >= 0.5)
            e = 4 * node + q
            c = code(e)
            x, y = 2 * x - (x >= 0.5), 2 * y - (y >= 0.5)
            if c < p:
                return palette[c]
            if c == p:
                node = 1 + rank(e, p)
            else:
                return self.chord(at, chords_at, rank(e, p + 1), p, palette, x, y)

    def chord(self, cell, chords_at, k, p, palette, x, y):
        width = record_width(p)
        at = chords_at + width * k
        word = int.from_bytes(self.blob[at:at + 3], "little")
        left, right = (0, 1) if p <= 2 else (self.blob[at + 3] & 15, self.blob[at + 3] >> 4)
        a, b = word & 0xFFF, word >> 12
        if a == b:
            # Polyline a: past the a polylines after the records.
            n = struct.unpack_from("<HH", self.blob, cell + 1)[1]
            at = chords_at + width * n
            for _ in range(a):
                at += polyline_size(self.blob, at)
            grid, vertices = decode_polyline(self.blob, at)
            return palette[left if left_of(vertices, grid, x * grid, y * grid) else right]
        (ax, ay), (bx, by) = (unit_perimeter(v / EDGE_STEPS) for v in (a, b))
        return palette[left if chord_side(ax, ay, bx, by, x, y) else right]
