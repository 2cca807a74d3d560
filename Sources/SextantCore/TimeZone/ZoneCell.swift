/// One refined cell of a version-4 table, read in place (docs/timezone.md): a two-byte header
/// (the stored palette's size | the sea in it << 4 | one line leaf << 5 | a byte an entry
/// << 6; the bits of a line record's end) and, unless the cell is one line leaf, its node and
/// line counts as varints; a palette of zones, 16 or 8 bits each (the sea, when flagged, is
/// the entry past the stored ones); its quadtree's nodes in breadth-first order, four codes
/// each (a leaf's palette index, `node` = the palette's size, `line` = one more), 2 bits a
/// code for a palette of two, else 4; before every 64th code but the first, the counts of
/// node and line codes so far, so that a child's index is a count rather than a pointer; its
/// line leaves' records, bit-packed (two ends round the leaf's edge, and with more than two
/// zones the left and right palette indices): a chord, or when both ends are equal, polyline
/// k of those that follow the records in order.
struct ZoneCell {
    let storedPalette: Int
    let paletteCount: Int
    let hasSea: Bool
    let paletteWidth: Int
    let nodeCount: Int
    let lineCount: Int
    let bits: Int
    let endBits: Int
    let recordBits: Int
    let palette: Int
    let codes: Int
    let checkpoints: Int
    let records: Int
    /// One past the records: the polylines begin here.
    let recordsEnd: Int

    static let seaFlag = 0x10
    static let oneLineFlag = 0x20
    static let bytePaletteFlag = 0x40
    static let group = 64         // codes between checkpoints
    static let maxEndBits = 12

    /// Reads the cell's header at `offset`; its parts' places follow from the counts. Reads
    /// past the array give 0, so a damaged header never traps (the load's check refuses it).
    init(_ bytes: [UInt8], at offset: Int) {
        let flags = Self.byte(bytes, offset)
        storedPalette = flags & 15
        hasSea = flags & Self.seaFlag != 0
        paletteCount = storedPalette + (hasSea ? 1 : 0)
        paletteWidth = flags & Self.bytePaletteFlag != 0 ? 1 : 2
        endBits = Self.byte(bytes, offset + 1)
        var at = offset + 2
        if flags & Self.oneLineFlag != 0 {
            nodeCount = 0
            lineCount = 1
        } else {
            nodeCount = Self.varint(bytes, &at)
            lineCount = Self.varint(bytes, &at)
        }
        bits = paletteCount <= 2 ? 2 : 4
        recordBits = 2 * endBits + (paletteCount <= 2 ? 0 : 8)
        palette = at
        codes = palette + paletteWidth * storedPalette
        checkpoints = codes + (4 * nodeCount * bits + 7) / 8
        records = checkpoints + 4 * max(0, (4 * nodeCount + Self.group - 1) / Self.group - 1)
        recordsEnd = records + (lineCount * recordBits + 7) / 8
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

    var nodeCode: Int { paletteCount }
    var chordCode: Int { paletteCount + 1 }

    func paletteValue(_ bytes: [UInt8], _ index: Int) -> UInt16 {
        if index == storedPalette { return ZoneTable.sea }
        if paletteWidth == 1 { return UInt16(bytes[palette + index]) }
        return UInt16(bytes[palette + 2 * index]) | UInt16(bytes[palette + 2 * index + 1]) << 8
    }

    func code(_ bytes: [UInt8], _ e: Int) -> Int {
        let bit = e * bits
        return Int(bytes[codes + bit >> 3] >> UInt8(bit & 7)) & (1 << bits - 1)
    }

    /// The counts of node and line codes before code 64 × group (group ≥ 1).
    func checkpoint(_ bytes: [UInt8], group: Int) -> (nodes: Int, chords: Int) {
        let at = checkpoints + 4 * (group - 1)
        return (Int(bytes[at]) | Int(bytes[at + 1]) << 8, Int(bytes[at + 2]) | Int(bytes[at + 3]) << 8)
    }

    /// How many codes before code `e` are `kind` (the node or the line code): the last
    /// checkpoint's count, then the codes since it matched a 64-bit word at a time.
    func rank(_ bytes: [UInt8], _ e: Int, kind: Int) -> Int {
        let group = e / Self.group, first = group * Self.group
        var count = 0
        if group > 0 {
            let counts = checkpoint(bytes, group: group)
            count = kind == nodeCode ? counts.nodes : counts.chords
        }
        let perWord = 64 / bits
        var start = first
        while start < e {
            let n = min(perWord, e - start)
            count += Self.matches(bytes, at: codes + start * bits / 8, codes: n, bits: bits, kind: kind)
            start += n
        }
        return count
    }

    /// How many of the `codes` codes of `bits` bits at byte `at` equal `kind`: each code
    /// XOR kind is zero when it matches; OR-folding a code's bits into its lowest finds them.
    static func matches(_ bytes: [UInt8], at: Int, codes: Int, bits: Int, kind: Int) -> Int {
        var word: UInt64 = 0
        for k in 0..<(codes * bits + 7) / 8 { word |= UInt64(bytes[at + k]) << (8 * k) }
        let low: UInt64 = bits == 2 ? 0x5555_5555_5555_5555 : 0x1111_1111_1111_1111
        var x = word ^ (low * UInt64(kind))
        x |= x >> 1
        if bits == 4 { x |= x >> 2 }
        let used = codes * bits == 64 ? UInt64.max : (UInt64(1) << (codes * bits)) - 1
        return (~x & low & used).nonzeroBitCount
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

    /// Line record k: its two ends (positions round the leaf's edge, `endBits` each, a
    /// quarter of their range an edge) and its left and right palette indices: with two
    /// zones the first is on the left; else 4 bits each say.
    func chord(_ bytes: [UInt8], _ k: Int) -> (a: Int, b: Int, left: Int, right: Int) {
        // A record is at most 32 bits: it lies within the 5 bytes from its first (and within
        // the cell's records, which the load's check keeps inside the table).
        let bit = k * recordBits, at = records + bit >> 3, shift = bit & 7
        var word = 0
        for i in 0..<(shift + recordBits + 7) >> 3 { word |= Int(bytes[at + i]) << (8 * i) }
        word >>= shift
        let mask = 1 << endBits - 1, a = word & mask, b = word >> endBits & mask
        if paletteCount <= 2 { return (a, b, 0, 1) }
        return (a, b, word >> (2 * endBits) & 15, word >> (2 * endBits + 4) & 15)
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
        let quarter = 1 << (endBits - 2)
        let (x1, y1) = Self.perimeterPoint(chord.a, quarter), (x2, y2) = Self.perimeterPoint(chord.b, quarter)
        let side = (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1)
        return paletteValue(bytes, side >= 0 ? chord.left : chord.right)
    }

    /// A point on the unit square's edge, anticlockwise from the south-west corner:
    /// `steps` an edge (south, east, north, west).
    static func perimeterPoint(_ position: Int, _ steps: Int) -> (Double, Double) {
        let edge = position / steps, f = Double(position % steps) / Double(steps)
        switch edge {
        case 0: return (f, 0)
        case 1: return (1, f)
        case 2: return (1 - f, 1)
        default: return (0, 1 - f)
        }
    }
}
