import Foundation
import SextantTestSupport
import Synchronization

/// Stands where gpsd would, on a loopback port the kernel picks: accepts the source's
/// connections, reads what it sends, says lines written by hand, hangs up.
final class LoopbackPeer: Sendable {
    private let listener: Int32
    let port: UInt16
    private let accepted = Mutex(0)

    init() throws { (listener, port) = try listenOnLoopback() }

    deinit { Glibc.close(listener) }

    var connectionCount: Int { accepted.withLock { $0 } }

    /// The next connection, waited for 5 s at most.
    func accept() throws -> Int32 {
        try waitReadable(listener, "a connection")
        let client = Glibc.accept(listener, nil, nil)
        guard client >= 0 else { throw HarnessError("accept: \(String(cString: strerror(errno)))") }
        _ = fcntl(client, F_SETFD, FD_CLOEXEC)
        accepted.withLock { $0 += 1 }
        return client
    }

    /// Reads until what came contains `text` (5 s at most).
    func read(_ connection: Int32, until text: String) throws -> String {
        var received = ""
        while !received.contains(text) {
            try waitReadable(connection, "\"\(text)\"")
            var bytes = [UInt8](repeating: 0, count: 4096)
            let count = recv(connection, &bytes, bytes.count, 0)
            guard count > 0 else { throw HarnessError("the source closed before sending \(text)") }
            received += String(decoding: bytes[..<count], as: UTF8.self)
        }
        return received
    }

    /// Writes lines, each with gpsd's CR LF.
    func say(_ lines: [String], to connection: Int32) throws {
        let bytes = Array(lines.map { $0 + "\r\n" }.joined().utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { send(connection, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw HarnessError("the source closed the connection") }
            offset += written
        }
    }

    func hangUp(_ connection: Int32) { Glibc.close(connection) }

    /// Waits (5 s at most) for the source to close `connection`, discarding what it sends.
    func waitForEOF(_ connection: Int32) throws {
        while true {
            try waitReadable(connection, "the connection to close")
            var bytes = [UInt8](repeating: 0, count: 4096)
            let count = recv(connection, &bytes, bytes.count, 0)
            if count == 0 || (count < 0 && errno == ECONNRESET) { return }
        }
    }

    private func waitReadable(_ descriptor: Int32, _ what: String) throws {
        var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, 5_000) > 0 else { throw HarnessError("no \(what) within 5 s") }
    }
}
