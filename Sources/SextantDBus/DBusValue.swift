/// One D-Bus value with its type: what a method receives and returns, what a property
/// holds, what a signal carries. Its ``signature`` is the D-Bus type string it is sent as.
public indirect enum DBusValue: Sendable, Equatable {
    case bool(Bool)
    case byte(UInt8)
    case int16(Int16)
    case uint16(UInt16)
    case int32(Int32)
    case uint32(UInt32)
    case int64(Int64)
    case uint64(UInt64)
    case double(Double)
    case string(String)
    case objectPath(String)
    case signature(String)
    /// The element signature is kept so that an empty array still has a type.
    case array(element: String, [DBusValue])
    case structure([DBusValue])
    case variant(DBusValue)
    /// A dictionary entry, only inside an array (`a{sv}`).
    case dictEntry(DBusValue, DBusValue)

    /// The D-Bus type string of this value.
    public var signature: String {
        switch self {
        case .bool: return "b"
        case .byte: return "y"
        case .int16: return "n"
        case .uint16: return "q"
        case .int32: return "i"
        case .uint32: return "u"
        case .int64: return "x"
        case .uint64: return "t"
        case .double: return "d"
        case .string: return "s"
        case .objectPath: return "o"
        case .signature: return "g"
        case .array(let element, _): return "a" + element
        case .structure(let members): return "(" + members.map(\.signature).joined() + ")"
        case .variant: return "v"
        case .dictEntry(let key, let value): return "{" + key.signature + value.signature + "}"
        }
    }

    /// `a{sv}` from string keys, as Properties.GetAll and PropertiesChanged carry them.
    public static func propertyMap(_ entries: [(String, DBusValue)]) -> DBusValue {
        .array(element: "{sv}", entries.map { .dictEntry(.string($0.0), .variant($0.1)) })
    }

    public var boolValue: Bool? { if case .bool(let value) = self { return value } else { return nil } }
    public var stringValue: String? {
        switch self {
        case .string(let value), .objectPath(let value): return value
        default: return nil
        }
    }
    public var uint32Value: UInt32? { if case .uint32(let value) = self { return value } else { return nil } }
    public var doubleValue: Double? { if case .double(let value) = self { return value } else { return nil } }
}

extension Array where Element == DBusValue {
    /// The signature of these values sent one after the other (a method's or signal's body).
    public var signature: String { map(\.signature).joined() }
}
