/// What a peer hands the daemon, read from a method call and bounded in one place: every
/// string in a method's arguments or in a property's new value, at any depth, is at most
/// ``stringLimit`` bytes, as app.sock bounds its lines. A peer can then make the daemon
/// neither keep (a GeoClue client's `DesktopId`) nor echo (an error naming what it sent) a
/// string of any size; the bus bounds the message as a whole.
public enum DBusPeerInput {
    /// The longest string a peer may hand the daemon, in bytes (UTF-8).
    public static let stringLimit = 4096

    /// Every value in `message`'s body, or InvalidArgs naming the value that holds a string
    /// past the limit — `name(its index, the values read)` — and the limit. The values are
    /// checked in order, so `name` may quote the ones before.
    public static func read(_ message: OpaquePointer, naming name: (Int, [DBusValue]) -> String) throws(DBusError) -> [DBusValue] {
        let values = try DBusMessageCoding.readAll(message)
        for (index, value) in values.enumerated() {
            let longest = value.longestString
            if longest > stringLimit {
                throw .invalidArgs("\(name(index, values)): a string of \(longest) bytes; at most \(stringLimit) are taken")
            }
        }
        return values
    }
}

extension DBusValue {
    /// The length in bytes of the longest string (`s`, `o`, `g`) in this value, at any depth; 0 without one.
    var longestString: Int {
        switch self {
        case .string(let text), .objectPath(let text), .signature(let text): return text.utf8.count
        case .array(_, let items), .structure(let items): return items.lazy.map(\.longestString).max() ?? 0
        case .variant(let inner): return inner.longestString
        case .dictEntry(let key, let value): return Swift.max(key.longestString, value.longestString)
        case .bool, .byte, .int16, .uint16, .int32, .uint32, .int64, .uint64, .double: return 0
        }
    }
}
