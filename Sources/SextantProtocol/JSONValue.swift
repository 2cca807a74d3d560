/// A JSON value as it travels on the wire.
///
/// Integers and floating-point numbers are kept apart so that a request `id` of `7`
/// comes back as `7`, not `7.0`.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
    /// A number kept as the text it came in, because neither `.int` nor `.double` would
    /// write it back the same (`-0`, `1.0`, `1e2`, `18446744073709551616`). The parser
    /// makes one only for the `id` of a top-level object: a JSON-RPC id must come back
    /// exactly as the client sent it.
    case numberText(String)
}

extension JSONValue {
    public subscript(key: String) -> JSONValue? {
        if case .object(let members) = self { return members[key] }
        return nil
    }

    public var isNull: Bool { if case .null = self { return true } else { return false } }

    public var stringValue: String? { if case .string(let s) = self { return s } else { return nil } }

    public var boolValue: Bool? { if case .bool(let b) = self { return b } else { return nil } }

    /// The value as a Double, for either kind of number.
    public var doubleValue: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .double(let d): return d
        case .numberText(let text): return Double(text)
        default: return nil
        }
    }

    /// The value as an Int, for an integer or a float that holds a whole number.
    public var intValue: Int? {
        switch self {
        case .int(let i): return Int(exactly: i)
        case .double(let d): return d.rounded() == d && abs(d) < 9e15 ? Int(d) : nil
        case .numberText: return doubleValue.flatMap { JSONValue.double($0).intValue }
        default: return nil
        }
    }

    public var arrayValue: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }

    public var objectValue: [String: JSONValue]? { if case .object(let o) = self { return o } else { return nil } }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    public init(nilLiteral: ()) { self = .null }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(integerLiteral value: Int64) { self = .int(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(stringLiteral value: String) { self = .string(value) }
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension JSONValue {
    /// `.double`, or `.null` when absent: for optional numeric fields.
    public init(_ value: Double?) { self = value.map(JSONValue.double) ?? .null }
    public init(_ value: Int) { self = .int(Int64(value)) }
    public init(_ value: String?) { self = value.map(JSONValue.string) ?? .null }
}

// MARK: - Serialisation

extension JSONValue {
    /// Compact JSON text with object keys sorted, so output is stable and diffable.
    ///
    /// Written as UTF-8 bytes, made a String once: appending to a String a piece at a time
    /// (each key, quote and comma) went through the String's capacity and flags checks every
    /// time, a third of what a `status` answer cost.
    public func serialized() -> String {
        var out: [UInt8] = []
        out.reserveCapacity(256)
        write(to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Writes compact JSON into `out`, as UTF-8.
    public func write(to out: inout [UInt8]) {
        switch self {
        case .null: JSONValue.put("null", &out)
        case .bool(let b): JSONValue.put(b ? "true" : "false", &out)
        case .int(let i): out.append(contentsOf: String(i).utf8)
        case .double(let d): JSONValue.writeNumber(d, to: &out)
        case .numberText(let text): out.append(contentsOf: text.utf8)
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                item.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            // The pairs sorted by key: no second lookup (and hash) of each key for its value.
            for (index, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.writeString(member.key, to: &out)
                out.append(UInt8(ascii: ":"))
                member.value.write(to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func put(_ text: StaticString, _ out: inout [UInt8]) {
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    static func writeNumber(_ d: Double, to out: inout [UInt8]) {
        guard d.isFinite else {
            put("null", &out)  // JSON has no NaN or infinity.
            return
        }
        if d.rounded() == d, abs(d) < 1e15 {
            out.append(contentsOf: String(Int64(d)).utf8)
        } else {
            out.append(contentsOf: d.description.utf8)
        }
    }

    /// `s` quoted, with `"`, `\` and the control characters escaped. Byte by byte: every
    /// byte of a character outside ASCII is 0x80 or above, so only ASCII bytes can need it.
    static func writeString(_ s: String, to out: inout [UInt8]) {
        var s = s
        out.append(UInt8(ascii: "\""))
        s.withUTF8 { bytes in
            // Most strings (keys, names, times) need no escape: appended whole.
            guard bytes.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
                out.append(contentsOf: bytes)
                return
            }
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "\""): put("\\\"", &out)
                case UInt8(ascii: "\\"): put("\\\\", &out)
                case UInt8(ascii: "\n"): put("\\n", &out)
                case UInt8(ascii: "\r"): put("\\r", &out)
                case UInt8(ascii: "\t"): put("\\t", &out)
                case ..<0x20:
                    put("\\u00", &out)
                    out.append(hexDigit(byte >> 4))
                    out.append(hexDigit(byte & 0xF))
                default: out.append(byte)
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}

extension JSONValue: CustomStringConvertible {
    public var description: String { serialized() }
}
