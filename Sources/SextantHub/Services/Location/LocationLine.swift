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

    /// Writes the line for `fix`, with its newline, at the end of `buffer`.
    static func write(_ fix: LocationFix, accuracy: LocationAccuracy?, into buffer: inout ByteBuffer) {
        buffer.writeBytes(head)
        // The keys in the order the general encoder sorts them to: accuracy, alt, course,
        // hAcc, lat, lon, simulated, speed, time, vAcc. hAcc is always there, so the members before it
        // end with a comma and the ones after it start with one.
        if let accuracy {
            buffer.writeStaticString(#""accuracy":""#)
            buffer.writeString(accuracy.rawValue)
            buffer.writeStaticString(#"","#)
        }
        if let altitude = fix.altitude {
            buffer.writeStaticString(#""alt":"#)
            writeNumber(altitude, into: &buffer)
            buffer.writeStaticString(",")
        }
        if let course = fix.course {
            buffer.writeStaticString(#""course":"#)
            writeNumber(course, into: &buffer)
            buffer.writeStaticString(",")
        }
        buffer.writeStaticString(#""hAcc":"#)
        writeNumber(fix.horizontalAccuracy, into: &buffer)
        buffer.writeStaticString(#","lat":"#)
        writeNumber(fix.latitude, into: &buffer)
        buffer.writeStaticString(#","lon":"#)
        writeNumber(fix.longitude, into: &buffer)
        if fix.simulated {
            buffer.writeStaticString(#","simulated":true"#)
        } else {
            buffer.writeStaticString(#","simulated":false"#)
        }
        if let speed = fix.speed {
            buffer.writeStaticString(#","speed":"#)
            writeNumber(speed, into: &buffer)
        }
        buffer.writeStaticString(#","time":""#)
        writeTime(fix.time, into: &buffer)
        buffer.writeStaticString(#"""#)
        if let verticalAccuracy = fix.verticalAccuracy {
            buffer.writeStaticString(#","vAcc":"#)
            writeNumber(verticalAccuracy, into: &buffer)
        }
        buffer.writeStaticString("}}\n")
    }

    /// A number as `JSONValue.writeNumber` writes it: `null` when not finite (a fix's
    /// never is: `LocationFix.problem`), a whole number below 10^15 as an integer (so -0
    /// is `0`), anything else as Swift's shortest round-trip form (`Double.description`).
    static func writeNumber(_ value: Double, into buffer: inout ByteBuffer) {
        guard value.isFinite else {
            buffer.writeStaticString("null")
            return
        }
        if value.rounded() == value, abs(value) < 1e15 {
            writeInteger(Int64(value), into: &buffer)
            return
        }
        // `Double.write(to:)` formats into a buffer on the stack and hands the bytes to the
        // stream's `_writeASCII`: no String is made.
        var text = StackText()
        value.write(to: &text)
        _ = text.withBytes { buffer.writeBytes($0) }
    }

    /// `value` in decimal, as `String(value)` writes it.
    static func writeInteger(_ value: Int64, into buffer: inout ByteBuffer) {
        // The magnitude as UInt64: Int64.min has no positive Int64.
        var magnitude = value.magnitude
        var width = 1
        var scale: UInt64 = 10
        while width < 20, magnitude >= scale {
            width += 1
            if scale > UInt64.max / 10 { break }
            scale *= 10
        }
        if value < 0 { buffer.writeStaticString("-") }
        buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: width) { room in
            for place in stride(from: width - 1, through: 0, by: -1) {
                room[place] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            }
            return width
        }
    }

    /// The time as `Timestamp.rfc3339` writes it, in place when it has its usual 24 bytes.
    static func writeTime(_ time: Timestamp, into buffer: inout ByteBuffer) {
        let wrote = buffer.writeWithUnsafeMutableBytes(minimumWritableBytes: Timestamp.rfc3339Width) { room in
            time.writeRFC3339(into: room) ?? 0
        }
        if wrote == 0 { buffer.writeString(time.rfc3339) }
    }
}

/// Up to 40 bytes of ASCII text on the stack: where `Double.write(to:)` puts a number
/// (its longest is 24 bytes, `-2.2250738585072014e-308`).
struct StackText: TextOutputStream {
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
