/// The offline time-zone boundary table: which IANA zone holds a point, without the network.
///
/// Built by Tools/dev/tz/make-tz-table.py from tzfpy's answers (timezone-boundary-builder's data,
/// ODbL-1.0); docs/timezone.md gives the format and the error bound. The caller hands over
/// the file's bytes (this type does no I/O). A grid of cells holds a zone each, or a quadtree
/// down to leaves that hold a zone or a chord where the border crosses them.
public struct ZoneTable: Sendable {
    /// IANA ids (and Etc/GMT±N at sea), indexed by the table's zone numbers.
    public let zoneNames: [String]
    /// The source data's version (tzfpy's `data_version()`, e.g. "2026e").
    public let dataVersion: String
    public let cellsPerDegree: Int
    /// The deepest quadtree level between two land zones, and where one side is at sea.
    public let landDepth: Int
    public let seaDepth: Int
    public let byteCount: Int

    let columns: Int
    let rows: Int
    let rowOffsets: [UInt32]
    let runStarts: [UInt16]
    let runValues: [UInt16]
    let refinedCells: [UInt32]
    let refinedFirstNode: [UInt32]
    let refinedFirstSplit: [UInt32]
    /// Four children a node (south-west, south-east, north-west, north-east).
    let nodes: [UInt16]
    /// Four values a split leaf: left zone, right zone, the chord's two perimeter positions.
    let splits: [UInt16]

    static let refined: UInt16 = 0xFFFF
    static let absent: UInt16 = 0xFFFE

    public init(bytes: [UInt8]) throws {
        var reader = ByteReader(bytes)
        let header = try ZoneTableHeader(&reader)
        let computed = CRC32.checksum(bytes[min(ZoneTableHeader.size, bytes.count)...])
        guard computed == header.checksum else {
            throw ZoneTableError.checksumMismatch(stored: header.checksum, computed: computed)
        }
        zoneNames = try (0..<header.zoneCount).map { try Self.readName(&reader, index: $0) }
        dataVersion = header.dataVersion
        cellsPerDegree = header.cellsPerDegree
        landDepth = header.landDepth
        seaDepth = header.seaDepth
        byteCount = bytes.count
        columns = 360 * header.cellsPerDegree
        rows = 180 * header.cellsPerDegree
        rowOffsets = try reader.u32s(rows + 1)
        let runs = try reader.u16s(header.runCount * 2)
        runStarts = stride(from: 0, to: runs.count, by: 2).map { runs[$0] }
        runValues = stride(from: 1, to: runs.count, by: 2).map { runs[$0] }
        let refinedTriples = try reader.u32s(header.refinedCount * 3)
        refinedCells = stride(from: 0, to: refinedTriples.count, by: 3).map { refinedTriples[$0] }
        refinedFirstNode = stride(from: 1, to: refinedTriples.count, by: 3).map { refinedTriples[$0] }
        refinedFirstSplit = stride(from: 2, to: refinedTriples.count, by: 3).map { refinedTriples[$0] }
        nodes = try reader.u16s(header.nodeCount * 4)
        splits = try reader.u16s(header.splitCount * 4)
        guard reader.position == bytes.count else {
            throw ZoneTableError.badStructure("\(bytes.count - reader.position) bytes after the splits")
        }
        try ZoneTableCheck(self).run()
    }

    private static func readName(_ reader: inout ByteReader, index: Int) throws -> String {
        let length = Int(try reader.u8())
        let name = try reader.take(length)
        guard length > 0, name.allSatisfy({ (0x21...0x7E).contains($0) }) else {
            throw ZoneTableError.badZoneName(index: index)
        }
        return String(decoding: name, as: UTF8.self)
    }

    /// The zone at a point, or nil where the table has no answer (a partial table's absent
    /// cells, or a coordinate that is not a number). Latitude is clamped to ±90°; longitude
    /// is taken modulo 360°.
    public func zone(latitude: Double, longitude: Double) -> String? {
        zoneIndex(latitude: latitude, longitude: longitude).map { zoneNames[$0] }
    }

    public func zoneIndex(latitude: Double, longitude: Double) -> Int? {
        guard latitude.isFinite, longitude.isFinite else { return nil }
        let perDegree = Double(cellsPerDegree)
        let y = (min(max(latitude, -90), 90) + 90) * perDegree
        var lon = (longitude + 180).truncatingRemainder(dividingBy: 360)
        if lon < 0 { lon += 360 }
        let x = lon * perDegree
        let row = min(rows - 1, Int(y)), column = min(columns - 1, Int(x))
        let value = gridValue(row: row, column: column)
        if value == Self.absent { return nil }
        if value != Self.refined { return Int(value) }
        return descend(cell: row * columns + column, x: x - Double(column), y: y - Double(row))
    }

    func gridValue(row: Int, column: Int) -> UInt16 {
        var low = Int(rowOffsets[row]), high = Int(rowOffsets[row + 1]) - 1
        // The last run of the row that starts at or before the column.
        while low < high {
            let middle = (low + high + 1) / 2
            if Int(runStarts[middle]) <= column { low = middle } else { high = middle - 1 }
        }
        return runValues[low]
    }

    /// Walks a refined cell's quadtree; x and y are the point's place in the cell, 0..<1.
    func descend(cell: Int, x: Double, y: Double) -> Int? {
        guard let slot = refinedSlot(of: UInt32(cell)) else { return nil }
        let firstNode = Int(refinedFirstNode[slot]), firstSplit = Int(refinedFirstSplit[slot])
        var node = firstNode, x = x, y = y
        while true {
            let east = x >= 0.5, north = y >= 0.5
            let child = nodes[node * 4 + (east ? 1 : 0) + (north ? 2 : 0)]
            x = east ? 2 * x - 1 : 2 * x
            y = north ? 2 * y - 1 : 2 * y
            switch child {
            case ..<0x8000: node = firstNode + Int(child)
            case ..<0xC000: return Int(child & 0x3FFF)
            default: return splitZone(firstSplit + Int(child & 0x3FFF), x: x, y: y)
            }
        }
    }

    func refinedSlot(of cell: UInt32) -> Int? {
        var low = 0, high = refinedCells.count - 1
        while low <= high {
            let middle = (low + high) / 2
            if refinedCells[middle] == cell { return middle }
            if refinedCells[middle] < cell { low = middle + 1 } else { high = middle - 1 }
        }
        return nil
    }

    /// A leaf the border crosses: the zone on the point's side of the chord. x, y in 0…1.
    func splitZone(_ split: Int, x: Double, y: Double) -> Int {
        let base = split * 4
        let (x1, y1) = Self.perimeterPoint(splits[base + 2])
        let (x2, y2) = Self.perimeterPoint(splits[base + 3])
        let side = (x2 - x1) * (y - y1) - (y2 - y1) * (x - x1)
        return Int(side >= 0 ? splits[base] : splits[base + 1])
    }

    /// A point on the unit square's edge, anticlockwise from the south-west corner:
    /// 16384 steps an edge (south, east, north, west).
    static func perimeterPoint(_ position: UInt16) -> (Double, Double) {
        let edge = Int(position) / 16384, f = Double(Int(position) % 16384) / 16384
        switch edge {
        case 0: return (f, 0)
        case 1: return (1, f)
        case 2: return (1 - f, 1)
        default: return (0, 1 - f)
        }
    }
}
