/// The offline time-zone boundary table: which IANA zone holds a point, without the network.
///
/// Built by Tools/dev/tz/make-tz-table.py from tzfpy's polygons and answers
/// (timezone-boundary-builder's data, ODbL-1.0); docs/timezone.md gives the format (version 5) and the error bound. The
/// caller hands over the file's bytes (this type does no I/O) and they are read in place: a
/// grid of cells holds a zone each, the sea, or the borders that cross the cell as polylines
/// with a zone either side. The sea is one value: its zone, Etc/GMT±N, is computed from the
/// longitude (`NauticalZone`).
public struct ZoneTable: Sendable {
    /// IANA ids (and Etc/GMT±N at sea), indexed by the table's zone numbers.
    public let zoneNames: [String]
    /// The source data's version (tzfpy's `data_version()`, e.g. "2026e").
    public let dataVersion: String
    public let cellsPerDegree: Int
    /// log2 of the steps of a refined cell's edge that its polylines' vertices lie on.
    public let gridShift: Int
    /// How far a polyline may stray from tzfpy's border it stands for, in metres, between two
    /// land zones and at the sea's edge (the generator's simplification; docs/timezone.md).
    public let landToleranceMetres: Int
    public let seaToleranceMetres: Int
    public let byteCount: Int

    let bytes: [UInt8]
    let layout: ZoneTableLayout
    let columns: Int
    let rows: Int
    /// The zone numbers of Etc/GMT+12 … Etc/GMT-12, by hours east of UTC + 12.
    let nauticalIndex: [Int]

    static let sea: UInt16 = 0x7FFD
    static let absent: UInt16 = 0x7FFE
    static let refined: UInt16 = 0x8000

    public init(bytes: [UInt8]) throws {
        var reader = ByteReader(bytes)
        let header = try ZoneTableHeader(&reader)
        let computed = CRC32.checksum(bytes[min(ZoneTableHeader.size, bytes.count)...])
        guard computed == header.checksum else {
            throw ZoneTableError.checksumMismatch(stored: header.checksum, computed: computed)
        }
        let names = try (0..<header.zoneCount).map { try Self.readName(&reader, index: $0) }
        zoneNames = names
        dataVersion = header.dataVersion
        cellsPerDegree = header.cellsPerDegree
        gridShift = header.gridShift
        landToleranceMetres = header.landTolerance
        seaToleranceMetres = header.seaTolerance
        byteCount = bytes.count
        columns = 360 * header.cellsPerDegree
        rows = 180 * header.cellsPerDegree
        layout = try ZoneTableLayout(header: header, rows: rows, at: reader.position, byteCount: bytes.count)
        self.bytes = bytes
        nauticalIndex = try (-12...12).map { hours in
            let name = hours == 0 ? "Etc/GMT" : "Etc/GMT\(hours > 0 ? "-" : "+")\(abs(hours))"
            guard let index = names.firstIndex(of: name) else { throw ZoneTableError.badStructure("no zone \(name) for the sea") }
            return index
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
        let (start, value) = run(row: row, column: column)
        var zone = value
        if value >= Self.refined {
            let slot = Int(layout.u32(bytes, layout.rowRefined + 4 * row)) + Int(value & 0x7FFF) + column - start
            let cell = ZoneCell(bytes, at: layout.cellStart(bytes, row: row, slot: slot))
            zone = cell.zoneValue(bytes, gridShift: gridShift, x: x - Double(column), y: y - Double(row))
        }
        switch zone {
        case Self.absent: return nil
        case Self.sea: return nauticalZoneIndex(lon - 180)
        default: return Int(zone)
        }
    }

    /// Etc/GMT±N for a longitude in −180…180: N = round(lon / 15), the strips tzfpy's data
    /// draws at sea (their edges lie on the cells' edges).
    func nauticalZoneIndex(_ longitude: Double) -> Int {
        let hours = min(12, max(-12, Int((longitude / 15).rounded())))
        return nauticalIndex[hours + 12]
    }

    /// The run of the row that holds the column: its first column and its value.
    func run(row: Int, column: Int) -> (start: Int, value: UInt16) {
        var low = Int(layout.u32(bytes, layout.rowRuns + 4 * row))
        var high = Int(layout.u32(bytes, layout.rowRuns + 4 * row + 4)) - 1
        // The last run of the row that starts at or before the column.
        while low < high {
            let middle = (low + high + 1) / 2
            if Int(layout.u16(bytes, layout.runs + 4 * middle)) <= column { low = middle } else { high = middle - 1 }
        }
        return (Int(layout.u16(bytes, layout.runs + 4 * low)), layout.u16(bytes, layout.runs + 4 * low + 2))
    }
}

/// Where each part of a version-5 table starts, in bytes from the file's start.
struct ZoneTableLayout: Sendable {
    let rowRuns: Int, runs: Int, rowRefined: Int, rowCells: Int, cellOffsets: Int, blob: Int
    let refinedCount: Int, blobCount: Int
    var runCount: Int { (rowRefined - runs) / 4 }

    init(header: ZoneTableHeader, rows: Int, at start: Int, byteCount: Int) throws {
        rowRuns = start
        runs = rowRuns + 4 * (rows + 1)
        rowRefined = runs + 4 * header.runCount
        rowCells = rowRefined + 4 * (rows + 1)
        cellOffsets = rowCells + 4 * (rows + 1)
        blob = cellOffsets + 2 * header.refinedCount
        refinedCount = header.refinedCount
        blobCount = header.blobCount
        guard blob + blobCount == byteCount else {
            throw blob + blobCount > byteCount ? ZoneTableError.truncated(needed: blob + blobCount, have: byteCount)
                : ZoneTableError.badStructure("\(byteCount - blob - blobCount) bytes after the cells")
        }
    }

    /// Where the row's cells start in the cells' bytes (the row past the last: their end).
    func rowCellsStart(_ bytes: [UInt8], row: Int) -> Int { Int(u32(bytes, rowCells + 4 * row)) }

    /// Where refined cell `slot` of `row` starts in the file: 16 bits from its row's first.
    func cellStart(_ bytes: [UInt8], row: Int, slot: Int) -> Int {
        blob + rowCellsStart(bytes, row: row) + Int(u16(bytes, cellOffsets + 2 * slot))
    }

    func u16(_ bytes: [UInt8], _ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }

    func u32(_ bytes: [UInt8], _ at: Int) -> UInt32 {
        UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
    }
}
