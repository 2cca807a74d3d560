import Foundation

/// Stands where gpsd would, on a loopback port, and says only what the test tells it to:
/// nothing at all (a peer that accepts and never speaks), or gpsd's JSON lines written by
/// hand (values a real gpsd would never pass on from a receiver).
final class ScriptedGPSD {
    private var listener: Int32
    /// Accepted connections, kept open until `close()`: a silent peer never hangs up.
    private var clients: [Int32] = []

    init(port: UInt16) throws {
        listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = loopbackAddress(port: port)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 8) == 0 else {
            let reason = String(cString: strerror(errno))
            Glibc.close(listener)
            throw HarnessError("cannot listen on port \(port): \(reason)")
        }
    }

    deinit { close() }

    func close() {
        for client in clients { Glibc.close(client) }
        clients = []
        if listener >= 0 { Glibc.close(listener) }
        listener = -1
    }

    /// Waits for the next connection and keeps it; its arrival time (monotonic s).
    @discardableResult
    func accept(timeout: Double) throws -> Double {
        let deadline = monotonicSeconds() + timeout
        while true {
            let remaining = deadline - monotonicSeconds()
            guard remaining > 0 else { throw HarnessError("no connection within \(timeout) s (\(clients.count) so far)") }
            var descriptor = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, Int32((remaining * 1000).rounded(.up))) > 0 else { continue }
            let client = Glibc.accept(listener, nil, nil)
            guard client >= 0 else { continue }
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            clients.append(client)
            return monotonicSeconds()
        }
    }

    /// Writes lines, each with its newline, to the connection accepted last.
    func say(_ lines: [String]) throws {
        guard let client = clients.last else { throw HarnessError("no connection to write to") }
        let bytes = Array(lines.map { $0 + "\r\n" }.joined().utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { send(client, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw HarnessError("the daemon closed the scripted gpsd's connection") }
            offset += written
        }
    }

    /// gpsd 3.22's banner.
    static let banner = #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#
}
