import CLibGPS
import Foundation

/// One connection to gpsd through libgps: `gps_open`, `gps_stream(WATCH_ENABLE|WATCH_JSON)`,
/// then `gps_read` one line at a time, on a non-blocking socket.
///
/// Not thread-safe: the source uses it on its own queue only.
final class LibGPSConnection: @unchecked Sendable {
    private let data: UnsafeMutablePointer<gps_data_t>
    private var isOpen = true
    /// `gps_read` copies each line here (libgps's own buffer holds at most 8 KiB).
    private var message = [CChar](repeating: 0, count: 16_384)

    /// What one `gps_read` gave.
    enum ReadResult: Equatable {
        case line(String)
        /// Nothing complete is buffered and the socket has nothing more for now.
        case wouldBlock
        /// gpsd closed the connection, or the socket failed.
        case closed(reason: String)
    }

    /// Connects and asks for JSON reports. Blocks for the TCP connect only (immediate on
    /// the loopback; a remote host that drops packets can take the kernel's SYN timeout).
    init(endpoint: GPSDEndpoint) throws(GPSDConnectError) {
        guard let data = sextant_gps_data_new() else { throw GPSDConnectError("out of memory") }
        if gps_open(endpoint.host, String(endpoint.port), data) != 0 {
            // libgps leaves its own (netlib) error code in errno.
            let reason = String(cString: gps_errstr(errno))
            sextant_gps_data_free(data)
            throw GPSDConnectError(reason)
        }
        self.data = data
        if sextant_gps_watch_json(data) != 0 {
            let reason = String(cString: strerror(errno))
            close()
            throw GPSDConnectError("cannot send ?WATCH: \(reason)")
        }
        // From here on no read may block: gps_read does one recv() when no whole line is
        // buffered, and returns 0 on EAGAIN. libgps 3.22 already leaves the socket
        // non-blocking after connecting; this makes sure of it for any version.
        let fd = fileDescriptor
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, fcntl(fd, F_SETFL, flags | O_NONBLOCK) == 0 else {
            let reason = String(cString: strerror(errno))
            close()
            throw GPSDConnectError("cannot make the socket non-blocking: \(reason)")
        }
    }

    deinit { close() }

    var fileDescriptor: Int32 { sextant_gps_fd(data) }

    /// The next whole line, if one is buffered or the socket has the rest of one.
    func readLine() -> ReadResult {
        guard isOpen else { return .closed(reason: "closed") }
        errno = 0
        let count = message.withUnsafeMutableBufferPointer { buffer in
            gps_read(data, buffer.baseAddress, Int32(buffer.count))
        }
        if count > 0 {
            return .line(message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        }
        if count == 0 { return .wouldBlock }
        // -1 with errno 0: the peer closed the connection (or a line overflowed libgps's buffer).
        return .closed(reason: errno == 0 ? "gpsd closed the connection" : String(cString: strerror(errno)))
    }

    /// Sends a command (`?VERSION;\n`) without waiting: a full socket buffer or a broken
    /// connection drops it, and the silence time-out deals with a gpsd that does not answer.
    func send(_ command: String) {
        guard isOpen else { return }
        let fd = fileDescriptor
        _ = command.withCString { Glibc.send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL | MSG_DONTWAIT)) }
    }

    /// Closes the socket. Idempotent; call it only once nothing watches the descriptor.
    func close() {
        guard isOpen else { return }
        isOpen = false
        gps_close(data)
        sextant_gps_data_free(data)
    }
}

/// Why a connection to gpsd could not be made.
struct GPSDConnectError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
