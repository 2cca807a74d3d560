"""The table's bytes (format version 2, docs/timezone.md): writing them, and a reader
independent of the Swift one (for measure-error.py).

Each refined cell is a blob: its palette of zones, its quadtree in breadth-first order as
2- or 4-bit codes (a leaf's palette index, "node" or "chord") with the counts of node and
chord codes before every eighth node (so a child's index is a count, not a pointer), and its
chord leaves at 3 or 4 bytes.
"""
import struct
import zlib

from tz_sample import COLS, ROWS, Chord, nautical_zone, unit_perimeter, chord_side

MAGIC = b"SXTZ"
VERSION = 2
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

    def __init__(self, root, zone_value):
        self.zone_value = zone_value
        self.palette = []
        self.collect(root)
        assert len(self.palette) <= MAX_PALETTE, f"a cell holds {len(self.palette)} zones"
        self.index = {z: i for i, z in enumerate(self.palette)}
        self.root = root

    def collect(self, tree):
        if isinstance(tree, Chord):
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
        if isinstance(self.root, Chord):
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
        for ch in chords:
            a, b, left, right = quantise(ch.a), quantise(ch.b), self.index[ch.left], self.index[ch.right]
            if p <= 2 and left != 0:
                # With two zones the chord runs so that the first is on its left.
                a, b, left, right = b, a, right, left
            out += struct.pack("<I", a | b << 12)[:3]
            if p > 2:
                out.append(left | right << 4)
        return bytes(out)

    def breadth_first(self):
        p, queue, nodes, chords = len(self.palette), [self.root], [], []
        while len(nodes) < len(queue):
            codes = []
            for child in queue[len(nodes)]:
                if isinstance(child, Chord):
                    codes.append(p + 1)
                    chords.append(child)
                elif isinstance(child, tuple):
                    codes.append(p)
                    queue.append(child)
                else:
                    codes.append(self.index[child])
            nodes.append(codes)
        return nodes, chords


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
    for row in grid:
        row_offsets.append(len(runs))
        row_refined.append(refined_total)
        previous, in_row = None, 0
        for col, tree in enumerate(row):
            if tree is None or isinstance(tree, int):
                value = ABSENT if tree is None else zone_value(tree)
            else:
                offsets.append(len(blob))
                blob += CellEncoder(tree, zone_value).encode()
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
    """Reads a version-2 table (no checks: the Swift reader's are the product's)."""

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
            return self.chord(chords_at, 0, p, palette, x, y)
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
                return self.chord(chords_at, rank(e, p + 1), p, palette, x, y)

    def chord(self, chords_at, k, p, palette, x, y):
        width = 3 if p <= 2 else 4
        at = chords_at + width * k
        word = int.from_bytes(self.blob[at:at + 3], "little")
        left, right = (0, 1) if p <= 2 else (self.blob[at + 3] & 15, self.blob[at + 3] >> 4)
        (ax, ay), (bx, by) = (unit_perimeter((word >> s & 0xFFF) / EDGE_STEPS) for s in (0, 12))
        return palette[left if chord_side(ax, ay, bx, by, x, y) else right]
