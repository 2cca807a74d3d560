/// One refined cell of a version-3 table, read in place (docs/timezone.md): a palette of
/// zones; its quadtree's nodes in breadth-first order, four codes each (a leaf's palette
/// index, `node` = the palette's size, `chord` = one more: a line leaf), 2 bits a code for a
/// palette of two, else 4; before every eighth node the counts of node and line codes so far,
/// so that a child's index is a count rather than a pointer; then its line leaves' records
/// (3 bytes, 4 with more than two zones): a chord, or when both ends are equal, polyline k
/// of those that follow the records in order. A cell with no node is one line leaf.
struct ZoneCell {
    let paletteCount: Int
    let nodeCount: Int
    let chordCount: Int
    let bits: Int
    let palette: Int
    let codes: Int
    let checkpoints: Int
    let chords: Int
    let chordWidth: Int
    /// One past the records: the polylines begin here.
    let recordsEnd: Int

    static let headerSize = 5
    static let edgeSteps = 1024   // chord ends: 10 bits an edge, 12 round the square
    static let group = 32         // codes between checkpoints

    /// Reads the cell's header at `offset`; its parts' places follow from the counts.
    init(_ bytes: [UInt8], at offset: Int) {
        paletteCount = Int(bytes[offset])
        nodeCount = Int(bytes[offset + 1]) | Int(bytes[offset + 2]) << 8
        chordCount = Int(bytes[offset + 3]) | Int(bytes[offset + 4]) << 8
        bits = paletteCount <= 2 ? 2 : 4
        palette = offset + Self.headerSize
        codes = palette + 2 * paletteCount
        checkpoints = codes + (4 * nodeCount * bits + 7) / 8
        chords = checkpoints + 4 * ((4 * nodeCount + Self.group - 1) / Self.group)
        chordWidth = paletteCount <= 2 ? 3 : 4
        recordsEnd = chords + chordWidth * chordCount
    }

    var nodeCode: Int { paletteCount }
    var chordCode: Int { paletteCount + 1 }

    func paletteValue(_ bytes: [UInt8], _ index: Int) -> UInt16 {
        UInt16(bytes[palette + 2 * index]) | UInt16(bytes[palette + 2 * index + 1]) << 8
    }

    func code(_ bytes: [UInt8], _ e: Int) -> Int {
        let bit = e * bits
        return Int(bytes[codes + bit >> 3] >> UInt8(bit & 7)) & (1 << bits - 1)
    }

    /// The counts of node and chord codes before code 32 × group.
    func checkpoint(_ bytes: [UInt8], group: Int) -> (nodes: Int, chords: Int) {
        let at = checkpoints + 4 * group
        return (Int(bytes[at]) | Int(bytes[at + 1]) << 8, Int(bytes[at + 2]) | Int(bytes[at + 3]) << 8)
    }

    /// How many codes before code `e` are `kind` (the node or the chord code).
    func rank(_ bytes: [UInt8], _ e: Int, kind: Int) -> Int {
        let group = e / Self.group, first = group * Self.group
        let counts = checkpoint(bytes, group: group)
        var count = kind == nodeCode ? counts.nodes : counts.chords
        if bits == 2 {
            // The codes before e in the group fit one 64-bit word: count those equal to kind
            // with one popcount (2 bits a code: its high and low bits both match).
            let at = codes + first / 4
            var word: UInt64 = 0
            for k in 0..<(2 * (e - first) + 7) / 8 { word |= UInt64(bytes[at + k]) << (8 * k) }
            let before = (e - first == 32 ? UInt64.max : (UInt64(1) << (2 * (e - first))) - 1) & 0x5555_5555_5555_5555
            let high = (word >> 1) & before, low = word & before
            let highMatch = kind & 2 != 0 ? high : ~high & before, lowMatch = kind & 1 != 0 ? low : ~low & before
            return count + (highMatch & lowMatch).nonzeroBitCount
        }
        for k in first..<e where code(bytes, k) == kind { count += 1 }
        return count
    }

    /// The zone value (a zone number or the sea) at x, y in the cell, 0..<1 each.
    func zoneValue(_ bytes: [UInt8], x: Double, y: Double) -> UInt16 {
        if nodeCount == 0 { return chordZone(bytes, 0, x: x, y: y) }
        var node = 0, x = x, y = y
        while true {
            let east = x >= 0.5, north = y >= 0.5
            let e = node * 4 + (east ? 1 : 0) + (north ? 2 : 0)
            x = east ? 2 * x - 1 : 2 * x
            y = north ? 2 * y - 1 : 2 * y
            let c = code(bytes, e)
            if c < paletteCount { return paletteValue(bytes, c) }
            if c == nodeCode {
                node = 1 + rank(bytes, e, kind: nodeCode)
            } else {
                return chordZone(bytes, rank(bytes, e, kind: chordCode), x: x, y: y)
            }
        }
    }

    /// The chord's two ends (positions round the edge, 12 bits each) and its left and right
    /// palette indices: with two zones the first is on the left; else a fourth byte says.
    func chord(_ bytes: [UInt8], _ k: Int) -> (a: Int, b: Int, left: Int, right: Int) {
        let at = chords + chordWidth * k
        let word = Int(bytes[at]) | Int(bytes[at + 1]) << 8 | Int(bytes[at + 2]) << 16
        let sides = chordWidth == 3 ? (0, 1) : (Int(bytes[at + 3] & 15), Int(bytes[at + 3] >> 4))
        return (word & 0xFFF, word >> 12, sides.0, sides.1)
    }

    /// Polyline k of the cell (its record's ends are both k): past the k before it, each
    /// sized by its header (a cell's polylines are few; no offsets are stored).
    func polyline(_ bytes: [UInt8], _ k: Int) -> ZonePolyline {
        var line = ZonePolyline(bytes, at: recordsEnd)
        for _ in 0..<k { line = ZonePolyline(bytes, at: line.end) }
        return line
    }

    /// A leaf a border crosses: the zone on the point's side of the chord or polyline. x, y in 0…1.
    func chordZone(_ bytes: [UInt8], _ k: Int, x: Double, y: Double) -> UInt16 {
        let chord = chord(bytes, k)
        if chord.a == chord.b {
            return paletteValue(bytes, polyline(bytes, chord.a).isLeft(bytes, x: x, y: y) ? chord.left : chord.right)
        }
        let (x1, y1) = Self.perimeterPoint(chord.a), (x2, y2) = Self.perimeterPoint(chord.b)
        let side = (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1)
        return paletteValue(bytes, side >= 0 ? chord.left : chord.right)
    }

    /// A point on the unit square's edge, anticlockwise from the south-west corner:
    /// 1024 steps an edge (south, east, north, west).
    static func perimeterPoint(_ position: Int) -> (Double, Double) {
        let edge = position / edgeSteps, f = Double(position % edgeSteps) / Double(edgeSteps)
        switch edge {
        case 0: return (f, 0)
        case 1: return (1, f)
        case 2: return (1 - f, 1)
        default: return (0, 1 - f)
        }
    }
}
