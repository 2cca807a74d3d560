import SextantProtocol

/// One line of a GnssLogger file cut at its commas, without copying it: the kind (the first
/// field) and the fields after it, by position.
struct GnssLoggerFields {
    private(set) var ranges: [Range<Int>] = []
    let bytes: UnsafeBufferPointer<UInt8>

    init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        var start = 0
        for k in 0..<bytes.count where bytes[k] == UInt8(ascii: ",") {
            ranges.append(start..<k)
            start = k + 1
        }
        ranges.append(start..<bytes.count)
    }

    var count: Int { ranges.count }

    /// Field `k` as text, trimmed of spaces; "" past the end of the line.
    func text(_ k: Int) -> String {
        guard k < ranges.count else { return "" }
        var range = ranges[k]
        while let first = range.first, bytes[first] == UInt8(ascii: " ") { range = (first + 1)..<range.upperBound }
        while let last = range.last, bytes[last] == UInt8(ascii: " ") { range = range.lowerBound..<last }
        return String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }
}

/// The columns a GnssLogger header names for one kind of row (`# Fix,Provider,…`): each
/// name (lower case, trimmed) and its position in the row, the kind being position 0.
struct GnssLoggerColumns: Sendable {
    private var positions: [String: Int] = [:]

    init(_ header: GnssLoggerFields) {
        for k in 1..<header.count where positions[header.text(k).lowercased()] == nil { positions[header.text(k).lowercased()] = k }
    }

    /// The position of the first of `names` the header has (versions name a column
    /// differently: `Latitude` in 1.4, `LatitudeDegrees` in v2 and later).
    func position(_ names: String...) -> Int? {
        for name in names { if let k = positions[name] { return k } }
        return nil
    }
}

/// Why a field of a row cannot be read: the column's name and what it holds.
struct GnssLoggerFieldProblem: Error {
    var reason: String
}

extension GnssLoggerFields {
    /// The number in column `position`; nil when the column is absent or the field empty.
    func number(at position: Int?, column: String) throws(GnssLoggerFieldProblem) -> Double? {
        guard let position else { return nil }
        let field = text(position)
        if field.isEmpty { return nil }
        guard let value = Double(field), value.isFinite else {
            throw GnssLoggerFieldProblem(reason: "\(column) is not a number: \"\(field.prefix(40))\"")
        }
        return value
    }

    /// The number in column `position`, which must be there.
    func required(at position: Int?, column: String, kind: String) throws(GnssLoggerFieldProblem) -> Double {
        guard position != nil else { throw GnssLoggerFieldProblem(reason: "the header names no \(column) column for \(kind) rows") }
        guard let value = try number(at: position, column: column) else { throw GnssLoggerFieldProblem(reason: "\(kind) row without \(column)") }
        return value
    }

    /// The UTC instant in milliseconds since 1970 in column `position` (`UnixTimeMillis`,
    /// `utcTimeMillis`, 1.4's `(UTC)TimeInMs`), as a timestamp.
    func time(at position: Int?, kind: String) throws(GnssLoggerFieldProblem) -> Timestamp {
        let millis = try required(at: position, column: "its UTC time (UnixTimeMillis, utcTimeMillis or (UTC)TimeInMs)", kind: kind)
        // From 1980 (GNSS time's epoch) to 2200: a zero or a garbled time is no time.
        guard millis >= 315_964_800_000, millis < 7_258_118_400_000 else {
            throw GnssLoggerFieldProblem(reason: "\(kind) row with no usable UTC time (\(millis) ms since 1970)")
        }
        // Whole milliseconds exactly (a double holds them; their nanoseconds it would round).
        let whole = millis.rounded(.down)
        return Timestamp(nanoseconds: Int64(whole) * 1_000_000 + Int64(((millis - whole) * 1_000_000).rounded()))
    }
}
