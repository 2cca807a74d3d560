/// A polyline leaf of a version-4 table, read in place (docs/timezone.md): the border through
/// a leaf as a path of vertices on a grid of `grid` steps an edge, from the leaf's edge to its
/// edge, its left zone on its left. Two bytes (the vertex count; log2 of the grid | the delta
/// width << 4), then bits from the lowest: the first vertex's position round the leaf's edge
/// (anticlockwise from the south-west corner, log2(grid) + 2 bits), and each next vertex as
/// dx, dy in two's complement of `deltaBits` each.
struct ZonePolyline {
    let count: Int
    let gridShift: Int
    let deltaBits: Int
    /// The first byte of the bits.
    let data: Int

    static let headerSize = 2

    init(_ bytes: [UInt8], at offset: Int) {
        count = Int(bytes[offset])
        gridShift = Int(bytes[offset + 1] & 15)
        deltaBits = Int(bytes[offset + 1] >> 4)
        data = offset + Self.headerSize
    }

    var grid: Int { 1 << gridShift }
    /// The polyline's bytes, header included (whole bytes: the last is padded with zeros).
    var byteCount: Int { Self.headerSize + (gridShift + 2 + 2 * deltaBits * (count - 1) + 7) / 8 }
    /// One past its last byte: where the next polyline of the cell starts.
    var end: Int { data - Self.headerSize + byteCount }

    /// True when (x, y), 0…1 in the leaf, lies on the left of the path: the path and the
    /// leaf's edge from its last vertex anticlockwise to its first bound the left part, so
    /// the point is there when the ray east to the edge crosses the path an even number of
    /// times and the ray's end lies on that stretch of the edge, or an odd number and not.
    func isLeft(_ bytes: [UInt8], x: Double, y: Double) -> Bool {
        var reader = BitReader(bytes, at: data)
        let first = reader.take(gridShift + 2)
        var (vx, vy) = Self.edgePoint(first, grid: grid)
        let px = x * Double(grid), py = y * Double(grid)
        var crossings = 0
        for _ in 1..<count {
            let nx = vx + reader.signed(deltaBits), ny = vy + reader.signed(deltaBits)
            let y1 = Double(vy), y2 = Double(ny)
            if (y1 > py) != (y2 > py), Double(vx) + (py - y1) * Double(nx - vx) / (y2 - y1) > px { crossings += 1 }
            vx = nx
            vy = ny
        }
        let t = Double(grid) + py
        let a = Double(first), b = Double(Self.edgePosition(vx, vy, grid: grid) ?? 0)  // on the edge: checked at load
        let onArc = b <= a ? (b <= t && t <= a) : (t >= b || t <= a)
        return onArc != (crossings % 2 == 1)
    }

    /// The vertices in order (the table's check; lookups decode as they go).
    func vertices(_ bytes: [UInt8]) -> [(x: Int, y: Int)] {
        var reader = BitReader(bytes, at: data)
        var (x, y) = Self.edgePoint(reader.take(gridShift + 2), grid: grid)
        var out = [(x: x, y: y)]
        for _ in 1..<count {
            x += reader.signed(deltaBits)
            y += reader.signed(deltaBits)
            out.append((x: x, y: y))
        }
        return out
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

    /// An edge point's position round the square, or nil when it is not on the edge.
    static func edgePosition(_ x: Int, _ y: Int, grid: Int) -> Int? {
        if y == 0 { return x }
        if x == grid { return grid + y }
        if y == grid { return 3 * grid - x }
        if x == 0 { return 4 * grid - y }
        return nil
    }
}

/// Reads fields of up to 17 bits, lowest bits first, from `bytes` at a byte offset.
struct BitReader {
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
            // Up to 16 bits from any bit offset lie within the next 4 bytes: one read.
            let word = Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16 | Int(bytes[at + 3]) << 24
            return word >> shift & (1 << count - 1)
        }
        var value = 0, got = 0, position = 8 * at + shift
        while got < count {
            let offset = position & 7, step = min(8 - offset, count - got)
            value |= (Int(bytes[position >> 3]) >> offset & (1 << step - 1)) << got
            got += step
            position += step
        }
        return value
    }

    mutating func signed(_ count: Int) -> Int {
        let value = take(count)
        return value >> (count - 1) != 0 ? value - 1 << count : value
    }
}

/// A cell's polylines fill the bytes after its records exactly, one after another, and each is whole:
/// at least two vertices, a grid of 2…2^15 steps, deltas of 1…15 bits, every vertex inside
/// the leaf and both ends on its edge (so a lookup reads only the polyline's own bytes and
/// `isLeft` always finds its last vertex's place round the edge).
struct ZonePolylineCheck {
    let bytes: [UInt8]
    let cell: ZoneCell
    /// One past the cell's last byte.
    let end: Int
    let count: Int

    func run(_ fail: (String) -> ZoneTableError) throws {
        var next = cell.recordsEnd
        for k in 0..<count {
            guard next + ZonePolyline.headerSize <= end else { throw fail("polyline \(k) starts past its end") }
            let line = ZonePolyline(bytes, at: next)
            guard line.count >= 2, (1...15).contains(line.gridShift), (1...15).contains(line.deltaBits),
                  next + line.byteCount <= end else {
                throw fail("polyline \(k) has \(line.count) vertices, grid 2^\(line.gridShift), \(line.deltaBits)-bit deltas in \(end - next) bytes")
            }
            let vertices = line.vertices(bytes)
            guard vertices.allSatisfy({ (0...line.grid).contains($0.x) && (0...line.grid).contains($0.y) }),
                  ZonePolyline.edgePosition(vertices[vertices.count - 1].x, vertices[vertices.count - 1].y, grid: line.grid) != nil else {
                throw fail("polyline \(k) leaves its leaf or does not end on its edge")
            }
            next += line.byteCount
        }
        guard next == end else { throw fail("parts do not fill its bytes") }
    }
}
