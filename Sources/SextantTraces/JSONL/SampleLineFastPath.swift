#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SextantCore
import SextantProtocol

/// Reads the fixed shape of a JSONL sample line straight from its bytes, without building
/// a `JSONValue`: `{"t":1.5,"location":{"lat":48.8,"lon":2.2,"hAcc":5}}`, keys in any
/// order, spaces or tabs between tokens, numbers, `null` and (for `gps.state`) a plain
/// string as values.
///
/// Anything else — an escape, a byte outside ASCII, an unknown or repeated key, a number
/// whose value it cannot compute exactly, a line that breaks a rule — makes it answer nil,
/// and the general parser reads the line (and gives the error, if there is one). What it
/// does answer is what the general parser answers for the same line: the sample is built
/// by the same code (`SextantTraceFormat.makeSample`), and numbers are converted exactly
/// (an integer through `Int64`, as `JSONValue.int`; a decimal only when it is a
/// correctly rounded product or quotient of two exact doubles, as `strtod` rounds).
///
/// Sensor kinds come from the table it is handed (``SensorKinds/all`` unless told): a
/// kind's key and its fields' keys are compared as packed integers (`SensorKind.ID`,
/// `SensorKind.packedFieldNames`), so a kind added to the table is read here with no line
/// of this file changed.
enum SampleLineFastPath {
    static func read(_ line: UnsafeBufferPointer<UInt8>, start: Timestamp, sensors: SensorKindTable = SensorKinds.all) -> TraceSample? {
        var scanner = ByteScanner(line)
        guard scanner.take(UInt8(ascii: "{")) else { return nil }
        var t: Double?
        var kind: SextantTraceFormat.SampleKind?
        var fields = SampleFields()
        repeat {
            scanner.skipSpace()
            guard let key = scanner.plainString() else { return nil }
            scanner.skipSpace()
            guard scanner.take(UInt8(ascii: ":")) else { return nil }
            scanner.skipSpace()
            if key.count == 1, key[0] == UInt8(ascii: "t") {
                guard t == nil, let value = scanner.number() else { return nil }
                t = value
            } else {
                guard kind == nil, let named = SampleFields.kind(key, sensors), scanner.take(UInt8(ascii: "{")) else { return nil }
                kind = named
                guard scanner.readBody(of: named, into: &fields) else { return nil }
            }
            scanner.skipSpace()
        } while scanner.take(UInt8(ascii: ","))
        guard scanner.take(UInt8(ascii: "}")), scanner.atEnd, let t, let kind, t.isFinite, t >= 0 else { return nil }
        let ignore: (String) -> TraceError = { TraceError(path: "", line: 0, reason: $0) }
        do {
            let offset = try SextantTraceFormat.readOffset(seconds: t, start: start, fail: ignore)
            let value = try SextantTraceFormat.makeSample(
                kind: kind, offset: offset, start: start, number: { fields.numbers[$0] }, state: fields.state, fail: ignore)
            return TraceSample(offset: offset, value: value)
        } catch {
            return nil
        }
    }
}

/// The members of a sample's body: numbers by slot (nil when absent or null), and a state.
struct SampleFields {
    /// Slots 0..<7 for a fix's numbers, 0..<`SensorReading.capacity` for a reading's.
    var numbers = InlineArray<7, Double?>(repeating: nil)
    /// Which slots (bit `slot`) and whether `state` (bit `stateSlot`) came already.
    var seen: UInt16 = 0
    var state: String?

    static let stateSlot = 11

    /// The slot of a key this kind may carry: `stateSlot` for `state`.
    static func slot(of key: UnsafeBufferPointer<UInt8>, in kind: SextantTraceFormat.SampleKind) -> Int? {
        guard let packed = pack(key) else { return nil }
        switch kind {
        case .sensor(let sensor):
            // A kind's few field names, one integer comparison each.
            for index in 0..<sensor.fieldCount where sensor.packedFieldNames[index] == packed { return index }
            return nil
        case .gps:
            return packed == 0x65_7461_7473 ? stateSlot : nil
        case .record:
            // A record's body is its kind's to read: the general parser reads it.
            return nil
        case .location:
            // The names' bytes, little-endian, as one integer: one comparison a name (comparing
            // through `String.UTF8View` took a quarter of the time of a sample line).
            switch packed {
            case 0x74616c: return 0  // lat
            case 0x6e6f6c: return 1  // lon
            case 0x746c61: return 2  // alt
            case 0x6363_4168: return 3  // hAcc
            case 0x6363_4176: return 4  // vAcc
            case 0x64_6565_7073: return 5  // speed
            case 0x6573_7275_6f63: return 6  // course
            default: return nil
            }
        }
    }

    static func kind(_ key: UnsafeBufferPointer<UInt8>, _ sensors: SensorKindTable) -> SextantTraceFormat.SampleKind? {
        guard let packed = pack(key) else { return nil }
        switch packed {
        case 0x6e6f_6974_6163_6f6c: return .location
        case 0x737067: return .gps
        default: return sensors.kind(packedName: packed).map { .sensor($0) }
        }
    }

    /// Up to 8 bytes as one little-endian integer (as `SensorKind.pack`); nil for a longer key.
    static func pack(_ key: UnsafeBufferPointer<UInt8>) -> UInt64? {
        guard key.count <= 8 else { return nil }
        var packed: UInt64 = 0
        for (i, byte) in key.enumerated() { packed |= UInt64(byte) << (8 * i) }
        return packed
    }
}

/// A cursor over one line's bytes.
struct ByteScanner {
    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    var atEnd: Bool { index == bytes.count }

    mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    mutating func skipSpace() {
        while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
    }

    /// A string of printable ASCII without escapes, its bytes without the quotes.
    mutating func plainString() -> UnsafeBufferPointer<UInt8>? {
        guard take(UInt8(ascii: "\"")) else { return nil }
        let first = index
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\"") {
                index += 1
                return UnsafeBufferPointer(rebasing: bytes[first..<index - 1])
            }
            guard byte >= 0x20, byte < 0x7F, byte != UInt8(ascii: "\\") else { return nil }
            index += 1
        }
        return nil
    }

    /// The members of a body after its `{`, through its `}`.
    mutating func readBody(of kind: SextantTraceFormat.SampleKind, into fields: inout SampleFields) -> Bool {
        skipSpace()
        if take(UInt8(ascii: "}")) { return true }
        repeat {
            skipSpace()
            guard let key = plainString(), let slot = SampleFields.slot(of: key, in: kind), fields.seen & (1 << slot) == 0 else { return false }
            fields.seen |= 1 << slot
            skipSpace()
            guard take(UInt8(ascii: ":")) else { return false }
            skipSpace()
            if slot == SampleFields.stateSlot {
                guard let text = plainString() else { return false }
                fields.state = String(decoding: text, as: UTF8.self)
            } else if !takeNull() {
                guard let value = number() else { return false }
                fields.numbers[slot] = value
            }
            skipSpace()
        } while take(UInt8(ascii: ","))
        return take(UInt8(ascii: "}"))
    }

    mutating func takeNull() -> Bool {
        guard bytes.count - index >= 4, bytes[index] == UInt8(ascii: "n"), bytes[index + 1] == UInt8(ascii: "u"),
            bytes[index + 2] == UInt8(ascii: "l"), bytes[index + 3] == UInt8(ascii: "l")
        else { return false }
        index += 4
        return true
    }

    /// A JSON number whose value is computed exactly here, else nil (the general parser
    /// reads it). Integers of up to 18 digits go through `Int64` as the parser's `.int`
    /// does (so `-0` is 0); a decimal of up to 15 significant digits scaled by at most
    /// 10²² is one correctly rounded operation on two exact doubles, which is what a
    /// correctly rounding `strtod` gives.
    mutating func number() -> Double? {
        let negative = take(UInt8(ascii: "-"))
        var mantissa: Int64 = 0
        var digits = 0
        guard index < bytes.count, isDigit(bytes[index]) else { return nil }
        if bytes[index] == UInt8(ascii: "0") {
            index += 1
        } else {
            while index < bytes.count, isDigit(bytes[index]) {
                // 18 digits at most, so that the mantissa stays under 10¹⁸.
                if digits == 18 { return nil }
                mantissa = mantissa * 10 + Int64(bytes[index] - 48)
                digits += 1
                index += 1
            }
        }
        var exponent = 0
        var isInteger = true
        if take(UInt8(ascii: ".")) {
            isInteger = false
            guard index < bytes.count, isDigit(bytes[index]) else { return nil }
            while index < bytes.count, isDigit(bytes[index]) {
                // Checked before the digit is added, so that the mantissa stays under 10¹⁶.
                if mantissa > 0 || bytes[index] != 48 { digits += 1 }
                exponent -= 1
                if digits > 15 || exponent < -22 { return nil }
                mantissa = mantissa * 10 + Int64(bytes[index] - 48)
                index += 1
            }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            let negativeExponent = take(UInt8(ascii: "-"))
            if !negativeExponent { _ = take(UInt8(ascii: "+")) }
            guard index < bytes.count, isDigit(bytes[index]) else { return nil }
            var written = 0
            while index < bytes.count, isDigit(bytes[index]) {
                written = written * 10 + Int(bytes[index] - 48)
                index += 1
                if written > 1000 { return nil }
            }
            exponent += negativeExponent ? -written : written
        }
        if isInteger { return Double(negative ? -mantissa : mantissa) }
        guard digits <= 15, (-22...22).contains(exponent) else { return nil }
        let magnitude = exponent < 0 ? Double(mantissa) / Self.powersOfTen[-exponent] : Double(mantissa) * Self.powersOfTen[exponent]
        return negative ? -magnitude : magnitude
    }

    /// 10⁰ … 10²², each exact in a double.
    static let powersOfTen: [Double] = (0...22).map { power in (0..<power).reduce(1.0) { value, _ in value * 10 } }

    func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }
}

extension SextantTraceFormat {
    /// For the fuzz target: true unless the fast path reads `line` otherwise than the
    /// general parser (a sample it refuses, or another sample — compared as written, so
    /// that 0 and -0 differ).
    @_spi(Fuzzing)
    public static func fastPathAgrees(_ line: UnsafeBufferPointer<UInt8>, start: Timestamp, sensors: SensorKindTable = SensorKinds.all) -> Bool {
        guard let fast = SampleLineFastPath.read(line, start: start, sensors: sensors) else { return true }
        let fail: (String) -> TraceError = { TraceError(path: "", line: 0, reason: $0) }
        guard let text = String(validating: line, as: UTF8.self), case .object(let o)? = try? JSONValue.parse(text),
            let (offset, value) = try? readSample(o, start: start, sensors: sensors, fail: fail)
        else { return false }
        return offset == fast.offset && value == fast.value
            && Self.line(offset: offset, value: value, sensors: sensors) == Self.line(offset: fast.offset, value: fast.value, sensors: sensors)
    }
}
