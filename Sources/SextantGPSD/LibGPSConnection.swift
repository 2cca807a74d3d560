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
            let reason = String(cString: gps_errstr(errno))
            sextant_gps_data_free(data)
            throw GPSDConnectError(reason)
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

/// Why a connection to gpsd could not be made.
struct GPSDConnectError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
