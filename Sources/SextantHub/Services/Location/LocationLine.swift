import NIOCore
import SextantCore
import SextantProtocol

/// The `location` event's JSON-RPC line written straight into bytes: the hottest line the
/// daemon writes (a replay at `max` is nothing else), and the same bytes, to the byte, as
/// the general encoder's (`RPCMessage.notification(…).line` of `LocationFix.json`), which
/// stays the encoder of every other event.
///
/// The general encoder builds a dictionary of `JSONValue`s, sorts its keys and formats
/// each double through a `String`: two thirds of the daemon's time in a replay to one app
/// (issue 12). A location's shape is fixed, so its keys are written here in the order the
/// general encoder sorts them to, and its numbers are formatted on the stack.
/// `LocationLineTests` checks the two encoders agree on generated fixes.
enum LocationLine {
    /// Room for the longest line: the frame, ten members, each double ≤ 24 bytes.
    static let capacity = 352

    /// Everything before the params' members.
    private static let head = Array(#"{"jsonrpc":"2.0","method":""#.utf8) + Array(Event.location.utf8) + Array(#"","params":{"#.utf8)

    /// Writes the line for `fix`, with its newline, at the end of `buffer`: into its room in
    /// one access (each of NIO's `write…` is a run-time exclusivity check on the buffer's
    /// storage, twenty of them a line).
    static func write(_ fix: LocationFix, accuracy: LocationAccuracy?, into buffer: inout ByteBuffer) {
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: capacity) { room in
            var line = LineBytes(room)
            write(fix, accuracy: accuracy, into: &line)
            return line.count
        }
    }

    private static func write(_ fix: LocationFix, accuracy: LocationAccuracy?, into line: inout LineBytes) {
        line.append(head)
        // The keys in the order the general encoder sorts them to: accuracy, alt, course,
        // hAcc, lat, lon, simulated, speed, time, vAcc. hAcc is always there, so the members before it
        // end with a comma and the ones after it start with one.
        if let accuracy {
            line.append(#""accuracy":""#)
            // Its raw value; a new case is a compile error here, not a wrong line.
            switch accuracy {
            case .full: line.append("full")
            case .reduced: line.append("reduced")
            }
            line.append(#"","#)
        }
        if let altitude = fix.altitude {
            line.append(#""alt":"#)
            line.number(altitude)
            line.append(",")
        }
        if let course = fix.course {
            line.append(#""course":"#)
            line.number(course)
            line.append(",")
        }
        line.append(#""hAcc":"#)
        line.number(fix.horizontalAccuracy)
        line.append(#","lat":"#)
        line.number(fix.latitude)
        line.append(#","lon":"#)
        line.number(fix.longitude)
        line.append(fix.simulated ? #","simulated":true"# : #","simulated":false"#)
        if let speed = fix.speed {
            line.append(#","speed":"#)
            line.number(speed)
        }
        line.append(#","time":""#)
        line.time(fix.time)
        line.append(#"""#)
        if let verticalAccuracy = fix.verticalAccuracy {
            line.append(#","vAcc":"#)
            line.number(verticalAccuracy)
        }
        line.append("}}\n")
    }

    /// A number as `JSONValue.writeNumber` writes it (``LineBytes/number(_:)``).
    static func writeNumber(_ value: Double, into buffer: inout ByteBuffer) {
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: StackText.capacity) { room in
            var line = LineBytes(room)
            line.number(value)
            return line.count
        }
    }

    /// `value` in decimal, as `String(value)` writes it.
    static func writeInteger(_ value: Int64, into buffer: inout ByteBuffer) {
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: 21) { room in
            var line = LineBytes(room)
            line.integer(value)
            return line.count
        }
    }
}

/// A line's bytes written into room the caller made (at least `LocationLine.capacity`).
struct LineBytes {
    private let room: UnsafeMutableRawBufferPointer
    private(set) var count = 0

    init(_ room: UnsafeMutableRawBufferPointer) { self.room = room }

    mutating func append(_ bytes: UnsafeRawBufferPointer) {
        precondition(count + bytes.count <= room.count, "a location line is at most \(room.count) bytes")
        UnsafeMutableRawBufferPointer(rebasing: room[count..<(count + bytes.count)]).copyMemory(from: bytes)
        count += bytes.count
    }

    mutating func append(_ text: StaticString) { text.withUTF8Buffer { append(UnsafeRawBufferPointer($0)) } }

    mutating func append(_ bytes: [UInt8]) { bytes.withUnsafeBytes { append($0) } }

    /// A number as `JSONValue.writeNumber` writes it: `null` when not finite (a fix's
    /// never is: `LocationFix.problem`), a whole number below 10^15 as an integer (so -0
    /// is `0`), anything else as Swift's shortest round-trip form (`Double.description`).
    mutating func number(_ value: Double) {
        guard value.isFinite else { return append("null") }
        if value.rounded() == value, abs(value) < 1e15 { return integer(Int64(value)) }
        // `Double.write(to:)` formats into a buffer on the stack and hands the bytes to the
        // stream's `_writeASCII`: no String is made.
        var text = StackText()
        value.write(to: &text)
        text.withBytes { append($0) }
    }

    /// `value` in decimal, as `String(value)` writes it.
    mutating func integer(_ value: Int64) {
        // The magnitude as UInt64: Int64.min has no positive Int64.
        var magnitude = value.magnitude
        var width = 1
        var scale: UInt64 = 10
        while width < 20, magnitude >= scale {
            width += 1
            if scale > UInt64.max / 10 { break }
            scale *= 10
        }
        if value < 0 { append("-") }
        precondition(count + width <= room.count, "a location line is at most \(room.count) bytes")
        for place in stride(from: width - 1, through: 0, by: -1) {
            room[count + place] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            magnitude /= 10
        }
        count += width
    }

    /// The time as `Timestamp.rfc3339` writes it, in place when it has its usual 24 bytes.
    mutating func time(_ time: Timestamp) {
        precondition(count + Timestamp.rfc3339Width <= room.count, "a location line is at most \(room.count) bytes")
        if let wrote = time.writeRFC3339(into: UnsafeMutableRawBufferPointer(rebasing: room[count...])) {
            count += wrote
        } else {
            var text = time.rfc3339
            text.withUTF8 { append(UnsafeRawBufferPointer($0)) }
        }
    }
}

/// Up to 40 bytes of ASCII text on the stack: where `Double.write(to:)` puts a number
/// (its longest is 24 bytes, `-2.2250738585072014e-308`).
struct StackText: TextOutputStream {
    static let capacity = 40
    private var storage: (UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0)
    private var count = 0

    mutating func _writeASCII(_ text: UnsafeBufferPointer<UInt8>) { append(UnsafeRawBufferPointer(text)) }

    mutating func write(_ string: String) {
        var string = string
        string.withUTF8 { append(UnsafeRawBufferPointer($0)) }
    }

    private mutating func append(_ bytes: UnsafeRawBufferPointer) {
        let at = count
        withUnsafeMutableBytes(of: &storage) { room in
            precondition(at + bytes.count <= room.count, "a number's text is at most 40 bytes")
            UnsafeMutableRawBufferPointer(rebasing: room[at..<(at + bytes.count)]).copyMemory(from: bytes)
        }
        count += bytes.count
    }

    func withBytes<T>(_ body: (UnsafeRawBufferPointer) -> T) -> T {
        withUnsafeBytes(of: storage) { body(UnsafeRawBufferPointer(rebasing: $0[..<count])) }
    }
}
