import CLibGPS
import Foundation

/// Opens a connection to gpsd through libgps — `gps_open`, then
/// `gps_stream(WATCH_ENABLE|WATCH_JSON)` — and hands over the connected socket.
///
/// libgps is how Sextant finds gpsd (its host and service resolution, its connect) and
/// asks it to stream; the reports themselves are read by the source on the hub's event
/// loop (``GPSDLineHandler``), so that a fix crosses no thread between gpsd and the hub.
/// Neither `gps_open` nor `gps_stream` reads from the socket, so nothing gpsd sends is
/// left behind in libgps's buffer when the descriptor is handed over.
enum LibGPSConnection {
    /// Connects, sends `?WATCH`, and returns a duplicate of libgps's socket that the caller
    /// owns (close-on-exec); libgps's own descriptor and session are released before this
    /// returns. Blocks for name resolution and the TCP connect (immediate on the loopback;
    /// a remote host that drops packets can take the kernel's SYN timeout), so it runs off
    /// the event loop.
    static func openWatching(_ endpoint: GPSDEndpoint) throws(GPSDConnectError) -> Int32 {
        guard let data = sextant_gps_data_new() else { throw GPSDConnectError("out of memory") }
        if gps_open(endpoint.host, String(endpoint.port), data) != 0 {
            // libgps leaves its own (netlib) error code in errno.
            let code = errno
            sextant_gps_data_free(data)
            throw GPSDConnectError(Self.reason(netlibCode: code, endpoint))
        }
        defer {
            gps_close(data)
            sextant_gps_data_free(data)
        }
        if sextant_gps_watch_json(data) != 0 {
            throw GPSDConnectError("cannot send ?WATCH: \(String(cString: strerror(errno)))")
        }
        let owned = fcntl(sextant_gps_fd(data), F_DUPFD_CLOEXEC, 0)
        guard owned >= 0 else {
            throw GPSDConnectError("cannot take over libgps's socket: \(String(cString: strerror(errno)))")
        }
        return owned
    }
}

extension LibGPSConnection {
    /// What `status` and the log say when gps_open fails: libgps's own words name no host
    /// and, for a failed connect, not the kernel's reason, which one more connect finds.
    static func reason(netlibCode code: Int32, _ endpoint: GPSDEndpoint) -> String {
        switch code {
        case NL_NOHOST: return "no such host: \(endpoint.host)"
        case NL_NOSERVICE: return "no such port: \(endpoint.port)"
        case NL_NOCONNECT: return "\(connectFailure(endpoint)) (\(endpoint))"
        default: return "\(String(cString: gps_errstr(code))) (\(endpoint))"
        }
    }

    /// Why a plain TCP connect to `endpoint` fails, in the kernel's words ("connection
    /// refused"); at most 3 s of waiting for a host that does not answer.
    static func connectFailure(_ endpoint: GPSDEndpoint) -> String {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(endpoint.host, String(endpoint.port), &hints, &found) == 0, let address = found else { return "no such host" }
        defer { freeaddrinfo(found) }
        let socket = Glibc.socket(address.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0)
        guard socket >= 0 else { return "cannot connect" }
        defer { close(socket) }
        var code: Int32 = 0
        if connect(socket, address.pointee.ai_addr, address.pointee.ai_addrlen) != 0 {
            code = errno
            if code == EINPROGRESS {
                var descriptor = pollfd(fd: socket, events: Int16(POLLOUT), revents: 0)
                guard poll(&descriptor, 1, 3000) > 0 else { return "no answer to a connect within 3 s" }
                var length = socklen_t(MemoryLayout<Int32>.size)
                getsockopt(socket, SOL_SOCKET, SO_ERROR, &code, &length)
            }
        }
        return code == 0 ? "cannot connect" : String(cString: strerror(code)).lowercased()
    }
}

/// Why a connection to gpsd could not be made.
struct GPSDConnectError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
