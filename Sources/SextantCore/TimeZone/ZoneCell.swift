/// One refined cell of a version-5 table, read in place (docs/timezone.md): a two-byte
/// header (the stored palette's size | the corner's palette index << 4; the sea in the
/// palette | a byte a palette entry << 1 | the polyline count << 2, 63 meaning "63 and a
/// varint of the rest"), a palette of zones, 8 or 16 bits each (the sea, when flagged, is
/// the entry past the stored ones), then the cell's polylines bit-packed end to end: tzfpy's
/// borders through the cell on a grid of 2^gridShift steps an edge, each with the zones on
/// its left and right.
struct ZoneCell {
    let storedPalette: Int
    let paletteCount: Int
    let paletteWidth: Int
    /// The palette entry of the zone at the cell's north-east corner.
    let corner: Int
    let lineCount: Int
    /// Where the palette and the polylines' bits start.
    let palette: Int
    let lines: Int

    static let seaFlag = 0x01
    static let bytePaletteFlag = 0x02
    static let countEscape = 63

    /// Reads the cell's header at `offset`. Reads past the array give 0, so a damaged
    /// header never traps (the load's check refuses it).
    init(_ bytes: [UInt8], at offset: Int) {
        let first = Self.byte(bytes, offset), second = Self.byte(bytes, offset + 1)
        storedPalette = first & 15
        corner = first >> 4
        paletteCount = storedPalette + (second & Self.seaFlag != 0 ? 1 : 0)
        paletteWidth = second & Self.bytePaletteFlag != 0 ? 1 : 2
        var at = offset + 2
        var count = second >> 2
        if count == Self.countEscape { count += Self.varint(bytes, &at) }
        lineCount = count
        palette = at
        lines = palette + paletteWidth * storedPalette
    }

    static func byte(_ bytes: [UInt8], _ at: Int) -> Int { at < bytes.count ? Int(bytes[at]) : 0 }

    /// An unsigned LEB128 of at most 3 bytes (the check refuses a count over 65535).
    static func varint(_ bytes: [UInt8], _ at: inout Int) -> Int {
        var value = 0
        for k in 0..<3 {
            let b = byte(bytes, at)
            at += 1
            value |= (b & 0x7F) << (7 * k)
            if b & 0x80 == 0 { break }
        }
        return value
    }

    func paletteValue(_ bytes: [UInt8], _ index: Int) -> UInt16 {
        if index == storedPalette { return ZoneTable.sea }
        if paletteWidth == 1 { return UInt16(bytes[palette + index]) }
        return UInt16(bytes[palette + 2 * index]) | UInt16(bytes[palette + 2 * index + 1]) << 8
    }

    /// The zone value (a zone number or the sea) at x, y in the cell, 0..<1 each. The point
    /// is put at the middle of its grid step (so it never lies on a vertex's row or column);
    /// its zone is the side facing it of the first polyline the ray east to the cell's edge
    /// crosses; when none, of the first one going north from there along the inside of the
    /// east edge; when none, the corner's.
    func zoneValue(_ bytes: [UInt8], gridShift: Int, x: Double, y: Double) -> UInt16 {
        let grid = 1 << gridShift
        let px = (x * Double(grid)).rounded(.down) + 0.5, py = (y * Double(grid)).rounded(.down) + 0.5
        var east = ZoneRay(), north = ZoneEdgeRay()
        bytes.withUnsafeBufferPointer { buffer in
            var reader = WordReader(buffer, at: lines)
            for _ in 0..<lineCount {
                let line = ZoneLineHeader(&reader, gridShift: gridShift, threeOrMore: paletteCount > 2)
                let w = line.deltaBits, mask = 1 << w - 1, sign = 1 << (w - 1)
                var ax = line.x, ay = line.y
                for _ in 1..<line.count {
                    // dx and dy in one read: w bits each, dx the lower.
                    let pair = reader.take(2 * w)
                    let bx = ax + ((pair & mask) ^ sign) - sign, by = ay + ((pair >> w) ^ sign) - sign
                    east.meet(ax, ay, bx, by, px: px, py: py, left: line.left, right: line.right)
                    north.meet(ax, ay, bx, by, grid: grid, py: py, left: line.left, right: line.right)
                    ax = bx
                    ay = by
                }
            }
        }
        return paletteValue(bytes, east.zone ?? north.zone ?? corner)
    }
}

/// A polyline's fields before its deltas: the vertex count less 2 (8 bits), the left and
/// right palette indices (4 bits each, only with three zones or more; else 0 and 1), whether
/// the first vertex is on the cell's edge (1 bit), the delta width (4 bits), the first vertex
/// (its place round the edge anticlockwise from the south-west corner in gridShift + 2 bits,
/// or x and y in gridShift bits each).
struct ZoneLineHeader {
    let count: Int
    let left: Int
    let right: Int
    let deltaBits: Int
    let x: Int
    let y: Int

    static let maxVertices = 257

    init<Reader: ZoneBits>(_ reader: inout Reader, gridShift: Int, threeOrMore: Bool) {
        count = reader.take(8) + 2
        if threeOrMore {
            let labels = reader.take(8)
            left = labels & 15
            right = labels >> 4
        } else {
            left = 0
            right = 1
        }
        let onEdge = reader.take(1) == 1
        deltaBits = reader.take(4)
        if onEdge {
            (x, y) = Self.edgePoint(reader.take(gridShift + 2), grid: 1 << gridShift)
        } else {
            x = reader.take(gridShift)
            y = reader.take(gridShift)
        }
    }

    /// The point at `position` round the edge of a square of side `grid`.
    static func edgePoint(_ position: Int, grid: Int) -> (Int, Int) {
        let f = position % grid
        switch position / grid {
        case 0: return (f, 0)
        case 1: return (grid, f)
        case 2: return (grid - f, grid)
        default: return (0, grid - f)
        }
    }
}

/// The nearest crossing of the ray east from (px, py): py is half a step off the grid, so
/// the ray meets no vertex.
struct ZoneRay {
    var nearest = Double.infinity
    var zone: Int?

    mutating func meet(_ ax: Int, _ ay: Int, _ bx: Int, _ by: Int, px: Double, py: Double, left: Int, right: Int) {
        let y1 = Double(ay), y2 = Double(by)
        guard (y1 > py) != (y2 > py) else { return }
        let x = Double(ax) + (py - y1) * Double(bx - ax) / (y2 - y1)
        if x >= px, x < nearest {
            nearest = x
            // Going north, the segment has the point (west of it) on its left.
            zone = by > ay ? left : right
        }
    }
}

/// The nearest segment above py that reaches the east edge, met going north just inside it:
/// by the height of its end on the edge, then by its slope.
struct ZoneEdgeRay {
    var height = Int.max
    var slope = Double.infinity
    var zone: Int?

    mutating func meet(_ ax: Int, _ ay: Int, _ bx: Int, _ by: Int, grid: Int, py: Double, left: Int, right: Int) {
        guard (ax == grid) != (bx == grid) else { return }
        let (ex, ey, ox, oy) = ax == grid ? (ax, ay, bx, by) : (bx, by, ax, ay)
        let s = Double(oy - ey) / Double(ex - ox)
        guard Double(ey) > py, ey < height || (ey == height && s < slope) else { return }
        height = ey
        slope = s
        // Going east, the segment has the point (below it) on its right.
        zone = bx > ax ? right : left
    }
}

/// Fields of bits, lowest first.
protocol ZoneBits {
    mutating func take(_ count: Int) -> Int
}

extension ZoneBits {
    /// A field of `count` bits from bit `position` on, a byte at a time: a field near the
    /// end of the bytes, where a whole-word read would run past them.
    @inline(__always)
    func bitByBit(_ count: Int, from position: Int, byte: (Int) -> UInt8) -> Int {
        var value = 0, got = 0, position = position
        while got < count {
            let offset = position & 7, step = min(8 - offset, count - got)
            value |= (Int(byte(position >> 3)) >> offset & (1 << step - 1)) << got
            got += step
            position += step
        }
        return value
    }
}

/// Reads fields of up to 56 bits, lowest bits first, from a buffer at a byte offset: one
/// unaligned 8-byte load where the buffer holds 8 bytes from the field's first, else byte by
/// byte (the load's check keeps every field of a cell within the table).
struct WordReader: ZoneBits {
    let buffer: UnsafeBufferPointer<UInt8>
    var bit: Int

    init(_ buffer: UnsafeBufferPointer<UInt8>, at offset: Int) {
        self.buffer = buffer
        bit = 8 * offset
    }

    @inline(__always)
    mutating func take(_ count: Int) -> Int {
        let at = bit >> 3, shift = bit & 7
        bit += count
        if at + 8 <= buffer.count, let base = buffer.baseAddress {
            let word = UInt64(littleEndian: UnsafeRawPointer(base + at).loadUnaligned(as: UInt64.self))
            return Int(truncatingIfNeeded: word >> UInt64(shift)) & (1 << count - 1)
        }
        return bitByBit(count, from: 8 * at + shift) { buffer[$0] }
    }
}

/// Reads fields of up to 17 bits, lowest bits first, from `bytes` at a byte offset.
struct BitReader: ZoneBits {
    let bytes: [UInt8]
    var bit: Int

    init(_ bytes: [UInt8], at offset: Int) {
        self.bytes = bytes
        bit = 8 * offset
    }

    mutating func take(_ count: Int) -> Int {
        let at = bit >> 3, shift = bit & 7
        bit += count
        if at + 4 <= bytes.count {
            // Up to 17 bits from any bit offset lie within the next 4 bytes: one read.
            let word = Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
            return word >> shift & (1 << count - 1)
        }
        return bitByBit(count, from: 8 * at + shift) { bytes[$0] }
    }

    mutating func signed(_ count: Int) -> Int {
        let value = take(count)
        return value >> (count - 1) != 0 ? value - 1 << count : value
    }
}
