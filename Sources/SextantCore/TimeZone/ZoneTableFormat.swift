/// Why a time-zone table's bytes were refused, with where in them.
public enum ZoneTableError: Error, Equatable, CustomStringConvertible {
    case truncated(needed: Int, have: Int)
    case badMagic
    case unsupportedVersion(UInt16)
    case badGrid(cellsPerDegree: UInt16)
    case checksumMismatch(stored: UInt32, computed: UInt32)
    case badZoneName(index: Int)
    case badStructure(String)

    public var description: String {
        switch self {
        case .truncated(let needed, let have): "time-zone table truncated: needs \(needed) bytes, has \(have)"
        case .badMagic: "not a time-zone table (no SXTZ magic at byte 0)"
        case .unsupportedVersion(let v): "time-zone table version \(v) is not supported (\(ZoneTableHeader.version) is)"
        case .badGrid(let c): "time-zone table grid of \(c) cells per degree is not supported (1…64 are)"
        case .checksumMismatch(let stored, let computed):
            "time-zone table checksum mismatch: header says \(stored), body is \(computed)"
        case .badZoneName(let i): "time-zone table zone name \(i) is not printable ASCII"
        case .badStructure(let what): "time-zone table: \(what)"
        }
    }
}

/// Little-endian reads from a byte array with bounds checks that throw, never trap.
struct ByteReader {
    let bytes: [UInt8]
    var position: Int

    init(_ bytes: [UInt8], at position: Int = 0) {
        self.bytes = bytes
        self.position = position
    }

    mutating func need(_ count: Int) throws {
        guard count >= 0, position + count <= bytes.count else {
            throw ZoneTableError.truncated(needed: position + count, have: bytes.count)
        }
    }

    mutating func u8() throws -> UInt8 {
        try need(1)
        defer { position += 1 }
        return bytes[position]
    }

    mutating func u16() throws -> UInt16 {
        try need(2)
        defer { position += 2 }
        return UInt16(bytes[position]) | UInt16(bytes[position + 1]) << 8
    }

    mutating func u32() throws -> UInt32 {
        try need(4)
        defer { position += 4 }
        var value: UInt32 = 0
        for k in 0..<4 { value |= UInt32(bytes[position + k]) << (8 * k) }
        return value
    }

    mutating func take(_ count: Int) throws -> ArraySlice<UInt8> {
        try need(count)
        defer { position += count }
        return bytes[position..<position + count]
    }

    mutating func u16s(_ count: Int) throws -> [UInt16] {
        try need(count * 2)
        return try (0..<count).map { _ in try u16() }
    }

    mutating func u32s(_ count: Int) throws -> [UInt32] {
        try need(count * 4)
        return try (0..<count).map { _ in try u32() }
    }
}

/// CRC-32 (IEEE 802.3, the one zlib's `crc32` computes), for the table's body; public for
/// the fuzz target, which makes a mutated table's checksum right.
public enum CRC32 {
    static let table: [UInt32] = (0..<256).map { n in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
        return c
    }

    public static func checksum(_ bytes: ArraySlice<UInt8>) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes { c = table[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        return c ^ 0xFFFF_FFFF
    }
}

/// The fixed part at the start of a table (docs/timezone.md, format version 5).
struct ZoneTableHeader {
    static let size = 40
    static let version: UInt16 = 5
    var cellsPerDegree: Int
    var gridShift: Int
    var zoneCount: Int
    var runCount: Int
    var refinedCount: Int
    var blobCount: Int
    var landTolerance: Int
    var seaTolerance: Int
    var checksum: UInt32
    var dataVersion: String

    init(_ reader: inout ByteReader) throws {
        guard try Array(reader.take(4)) == Array("SXTZ".utf8) else { throw ZoneTableError.badMagic }
        let version = try reader.u16()
        guard version == Self.version else { throw ZoneTableError.unsupportedVersion(version) }
        let perDegree = try reader.u16()
        guard (1...64).contains(perDegree) else { throw ZoneTableError.badGrid(cellsPerDegree: perDegree) }
        cellsPerDegree = Int(perDegree)
        gridShift = Int(try reader.u8())
        guard (1...15).contains(gridShift), try reader.u8() == 0 else {
            throw ZoneTableError.badStructure("a grid of 2^\(gridShift) steps a cell, or a reserved byte set")
        }
        zoneCount = Int(try reader.u16())
        guard zoneCount < Int(ZoneTable.sea) else { throw ZoneTableError.badStructure("\(zoneCount) zones") }
        runCount = Int(try reader.u32())
        refinedCount = Int(try reader.u32())
        blobCount = Int(try reader.u32())
        landTolerance = Int(try reader.u16())
        seaTolerance = Int(try reader.u16())
        checksum = try reader.u32()
        dataVersion = String(decoding: try reader.take(8).prefix { $0 != 0 }, as: UTF8.self)
    }
}
