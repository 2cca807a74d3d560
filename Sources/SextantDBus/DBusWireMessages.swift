import CSystemd
import Glibc

/// D-Bus messages from their bytes on the wire, read as the bus thread reads a method call:
/// sd-bus parses them — on a socket pair, as the server of a peer-to-peer connection, since
/// it has no public call that parses a buffer — and ``DBusPeerInput`` reads each body. The
/// entry of the fuzz target for message bodies (`Fuzz/Sources/fuzz-dbus-message`) and of its
/// tests; the daemon itself reads messages from its bus connection.
public enum DBusWireMessages {
    /// One message as the router would see it.
    public struct Decoded: Sendable {
        /// The body's signature, as the message's header gives it.
        public var signature: String
        /// The body's values, or the error the router would answer with.
        public var values: Result<[DBusValue], DBusError>
    }

    /// Past this, the bytes are cut: they are written at once, before anything reads them,
    /// so they must fit in the socket's buffer.
    public static let largest = 65_536

    /// Each message in `bytes` (the client's side of a connection after its handshake), in
    /// order; reading stops at the first one sd-bus refuses (and closes the connection on).
    public static func decode(_ bytes: [UInt8]) -> [Decoded] {
        var pair: [Int32] = [-1, -1]
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue)
        guard socketpair(AF_UNIX, type, 0, &pair) == 0 else { return [] }
        defer { close(pair[1]) }
        // No credentials asked, then the messages; the end of input is the peer hanging up.
        // Non-blocking: a buffer too small for them all is a short write, and nothing read.
        let sent = Array("\0AUTH ANONYMOUS\r\nBEGIN\r\n".utf8) + bytes.prefix(largest)
        let written = sent.withUnsafeBytes { write(pair[1], $0.baseAddress, $0.count) }
        shutdown(pair[1], Int32(SHUT_WR))
        var server: OpaquePointer?
        guard written == sent.count, sd_bus_new(&server) >= 0, let bus = server else {
            close(pair[0])
            return []
        }
        defer {
            sd_bus_close(bus)
            sd_bus_unref(bus)
        }
        let collected = DecodedMessages()
        let context = Unmanaged.passUnretained(collected).toOpaque()
        guard sd_bus_set_fd(bus, pair[0], pair[0]) >= 0 else {
            close(pair[0])
            return []
        }
        guard sd_bus_set_server(bus, 1, sd_id128_t()) >= 0, sd_bus_set_anonymous(bus, 1) >= 0,
            sd_bus_add_filter(bus, nil, collectMessage, context) >= 0, sd_bus_start(bus) >= 0
        else { return [] }
        // Bounded: each turn reads or dispatches something, or waits on the hung-up socket.
        for _ in 0..<10_000 {
            let processed = sd_bus_process(bus, nil)
            if processed < 0 { break }
            if processed == 0, sd_bus_wait(bus, 100_000) <= 0 { break }
        }
        return collected.messages
    }
}

/// What the filter collects, on the calling thread.
private final class DecodedMessages {
    var messages: [DBusWireMessages.Decoded] = []
}

/// Every message sd-bus parsed: its body read as a method call's arguments; handled here,
/// so that sd-bus neither dispatches nor answers it. The `Disconnected` signal sd-bus makes
/// itself when the peer hangs up is not the peer's.
private let collectMessage: sd_bus_message_handler_t = { message, context, _ in
    guard let message, let context, sd_bus_message_is_signal(message, "org.freedesktop.DBus.Local", "Disconnected") <= 0 else { return 0 }
    let collected = Unmanaged<DecodedMessages>.fromOpaque(context).takeUnretainedValue()
    let signature = sd_bus_message_get_signature(message, 1).map { String(cString: $0) } ?? ""
    let values = Result { () throws(DBusError) in try DBusPeerInput.read(message) { index, _ in "argument \(index + 1)" } }
    collected.messages.append(DBusWireMessages.Decoded(signature: signature, values: values))
    return 1
}
