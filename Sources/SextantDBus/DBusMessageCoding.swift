import CSystemd

/// Writes and reads ``DBusValue``s in an sd-bus message through its non-variadic calls
/// (append_basic, read_basic, containers), one value at a time, recursively.
enum DBusMessageCoding {
    /// Appends each value in order; a failure names the sd-bus call and errno.
    static func append(_ values: [DBusValue], to message: OpaquePointer) throws(DBusError) {
        for value in values { try append(value, to: message) }
    }

    static func append(_ value: DBusValue, to message: OpaquePointer) throws(DBusError) {
        let result: Int32
        switch value {
        case .bool(let flag):
            var word: Int32 = flag ? 1 : 0  // D-Bus booleans are 32 bits wide
            result = appendBasic(message, "b", &word)
        case .byte(var byte): result = appendBasic(message, "y", &byte)
        case .int16(var number): result = appendBasic(message, "n", &number)
        case .uint16(var number): result = appendBasic(message, "q", &number)
        case .int32(var number): result = appendBasic(message, "i", &number)
        case .uint32(var number): result = appendBasic(message, "u", &number)
        case .int64(var number): result = appendBasic(message, "x", &number)
        case .uint64(var number): result = appendBasic(message, "t", &number)
        case .double(var number): result = appendBasic(message, "d", &number)
        case .string(let text): result = appendText(message, "s", text)
        case .objectPath(let path): result = appendText(message, "o", path)
        case .signature(let signature): result = appendText(message, "g", signature)
        case .array(let element, let items):
            try inContainer(message, "a", element) { () throws(DBusError) in try append(items, to: message) }
            return
        case .structure(let members):
            try inContainer(message, "r", members.signature) { () throws(DBusError) in try append(members, to: message) }
            return
        case .variant(let inner):
            try inContainer(message, "v", inner.signature) { () throws(DBusError) in try append(inner, to: message) }
            return
        case .dictEntry(let key, let inner):
            try inContainer(message, "e", key.signature + inner.signature) { () throws(DBusError) in
                try append([key, inner], to: message)
            }
            return
        }
        if result < 0 { throw DBusError.system("appending a \(value.signature)", result) }
    }

    private static func appendBasic<T>(_ message: OpaquePointer, _ type: Character, _ value: inout T) -> Int32 {
        withUnsafePointer(to: &value) { sd_bus_message_append_basic(message, CChar(type.asciiValue!), $0) }
    }

    private static func appendText(_ message: OpaquePointer, _ type: Character, _ text: String) -> Int32 {
        text.withCString { sd_bus_message_append_basic(message, CChar(type.asciiValue!), $0) }
    }

    private static func inContainer(
        _ message: OpaquePointer, _ type: Character, _ contents: String, _ body: () throws(DBusError) -> Void
    ) throws(DBusError) {
        let opened = sd_bus_message_open_container(message, CChar(type.asciiValue!), contents)
        if opened < 0 { throw DBusError.system("opening a \(type)\(contents)", opened) }
        try body()
        let closed = sd_bus_message_close_container(message)
        if closed < 0 { throw DBusError.system("closing a \(type)\(contents)", closed) }
    }

    /// Reads every value left in the message (or in the container it is in).
    static func readAll(_ message: OpaquePointer) throws(DBusError) -> [DBusValue] {
        var values: [DBusValue] = []
        while let value = try read(message) { values.append(value) }
        return values
    }

    /// The next value, or nil at the end of the message or container.
    static func read(_ message: OpaquePointer) throws(DBusError) -> DBusValue? {
        var type: CChar = 0
        var contents: UnsafePointer<CChar>?
        let peeked = sd_bus_message_peek_type(message, &type, &contents)
        if peeked < 0 { throw DBusError.system("reading the message", peeked) }
        if peeked == 0 { return nil }
        let inner = contents.map { String(cString: $0) } ?? ""
        switch UInt8(bitPattern: type) {
        case UInt8(ascii: "a"):
            return .array(element: inner, try readContainer(message, type, inner))
        case UInt8(ascii: "r"):
            return .structure(try readContainer(message, type, inner))
        case UInt8(ascii: "v"):
            let members = try readContainer(message, type, inner)
            guard members.count == 1 else { throw DBusError.invalidArgs("a variant holds \(members.count) values") }
            return .variant(members[0])
        case UInt8(ascii: "e"):
            let members = try readContainer(message, type, inner)
            guard members.count == 2 else { throw DBusError.invalidArgs("a dictionary entry holds \(members.count) values") }
            return .dictEntry(members[0], members[1])
        default:
            return try readBasic(message, type)
        }
    }

    private static func readContainer(_ message: OpaquePointer, _ type: CChar, _ contents: String) throws(DBusError) -> [DBusValue] {
        let entered = sd_bus_message_enter_container(message, type, contents)
        if entered < 0 { throw DBusError.system("entering a container", entered) }
        let values = try readAll(message)
        let exited = sd_bus_message_exit_container(message)
        if exited < 0 { throw DBusError.system("leaving a container", exited) }
        return values
    }

    private static func readBasic(_ message: OpaquePointer, _ type: CChar) throws(DBusError) -> DBusValue {
        func scalar<T>(_ zero: T) throws(DBusError) -> T {
            var value = zero
            let result = withUnsafeMutablePointer(to: &value) { sd_bus_message_read_basic(message, type, $0) }
            if result < 0 { throw DBusError.system("reading a \(Character(Unicode.Scalar(UInt8(bitPattern: type))))", result) }
            return value
        }
        switch UInt8(bitPattern: type) {
        case UInt8(ascii: "b"): return .bool(try scalar(Int32(0)) != 0)
        case UInt8(ascii: "y"): return .byte(try scalar(UInt8(0)))
        case UInt8(ascii: "n"): return .int16(try scalar(Int16(0)))
        case UInt8(ascii: "q"): return .uint16(try scalar(UInt16(0)))
        case UInt8(ascii: "i"), UInt8(ascii: "h"): return .int32(try scalar(Int32(0)))
        case UInt8(ascii: "u"): return .uint32(try scalar(UInt32(0)))
        case UInt8(ascii: "x"): return .int64(try scalar(Int64(0)))
        case UInt8(ascii: "t"): return .uint64(try scalar(UInt64(0)))
        case UInt8(ascii: "d"): return .double(try scalar(Double(0)))
        case UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "g"):
            let pointer = try scalar(UnsafePointer<CChar>?.none)
            let text = pointer.map { String(cString: $0) } ?? ""
            switch UInt8(bitPattern: type) {
            case UInt8(ascii: "s"): return .string(text)
            case UInt8(ascii: "o"): return .objectPath(text)
            default: return .signature(text)
            }
        default:
            throw DBusError.invalidArgs("unsupported D-Bus type \(Character(Unicode.Scalar(UInt8(bitPattern: type))))")
        }
    }
}
