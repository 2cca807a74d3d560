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
    public func serialized() -> String {
        var out = ""
        out.reserveCapacity(128)
        write(to: &out)
        return out
    }

    /// Writes compact JSON into `out`.
    public func write(to out: inout String) {
        switch self {
        case .null: out += "null"
        case .bool(let b): out += b ? "true" : "false"
        case .int(let i): out += String(i)
        case .double(let d): JSONValue.writeNumber(d, to: &out)
        case .numberText(let text): out += text
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .array(let items):
            out += "["
            for (index, item) in items.enumerated() {
                if index > 0 { out += "," }
                item.write(to: &out)
            }
            out += "]"
        case .object(let members):
            out += "{"
            for (index, key) in members.keys.sorted().enumerated() {
                if index > 0 { out += "," }
                JSONValue.writeString(key, to: &out)
                out += ":"
                members[key]!.write(to: &out)
            }
            out += "}"
        }
    }

    static func writeNumber(_ d: Double, to out: inout String) {
        guard d.isFinite else {
            out += "null"  // JSON has no NaN or infinity.
            return
        }
        if d.rounded() == d, abs(d) < 1e15 {
            out += String(Int64(d))
        } else {
            out += "\(d)"
        }
    }

    static func writeString(_ s: String, to out: inout String) {
        out += "\""
        // Most strings (keys, names, times) need no escape: appended whole, not a scalar at
        // a time (which was a quarter of the time of encoding a location event).
        if !s.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) {
            out += s
            out += "\""
            return
        }
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        out += "\""
    }
}

extension JSONValue: CustomStringConvertible {
    public var description: String { serialized() }
}
