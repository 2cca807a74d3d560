import Foundation
import SextantSocket
import SextantTestSupport

/// The receiving end of the daemon's systemd notifications: a datagram socket whose path the
/// daemon finds in `NOTIFY_SOCKET`, as systemd gives it. A harness waits here for `READY=1`
/// (sent once both sockets are bound) instead of trying to connect until it works.
final class ReadinessNotification {
    let path: String
    /// Closed once, when this goes (a failed init included).
    private let socket: OwnedDescriptor
    private var fd: Int32 { socket.raw }

    init(path: String) throws {
        self.path = path
        unlink(path)
        let address = try UnixSocketAddress(path: path)
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket: \(String(cString: strerror(errno)))") }
        socket = OwnedDescriptor(adopting: fd)
        guard address.withSockaddr({ bind(fd, $0, $1) }) == 0 else {
            throw HarnessError("bind \(path): \(String(cString: strerror(errno)))")
        }
    }

    deinit { unlink(path) }

    /// Waits until a notification says `READY=1`, the process exits, or the deadline passes.
    func waitForReady(of process: Process, timeout: Double, log: () -> String) throws {
        try waitForReady(while: { process.isRunning }, timeout: timeout, log: log)
    }

    /// Waits until a notification says `READY=1`, `isRunning` turns false, or the deadline passes.
    func waitForReady(while isRunning: () -> Bool, timeout: Double, log: () -> String) throws {
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 4096)
        while Date() < deadline {
            // Short slices only to notice a daemon that died without a word.
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            if poll(&poller, 1, 100) > 0 {
                let count = recv(fd, &buffer, buffer.count, 0)
                if count > 0, String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\n").contains("READY=1") { return }
            } else if !isRunning() {
                throw HarnessError("sextantd exited at start:\n\(log())")
            }
        }
        throw HarnessError("sextantd did not say READY=1 within \(timeout) s:\n\(log())")
    }
}
