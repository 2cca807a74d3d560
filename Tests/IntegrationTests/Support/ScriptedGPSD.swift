import Foundation
import SextantTestSupport

/// Stands where gpsd would, on a loopback port, and says only what the test tells it to:
/// nothing at all (a peer that accepts and never speaks), or gpsd's JSON lines written by
/// hand (values a real gpsd would never pass on from a receiver).
///
/// A thread of its own accepts from the start, so that each connection's time is the
/// moment the daemon made it, not the moment the test got round to asking. Connections are
/// kept open until `close()`: a silent peer never hangs up.
final class ScriptedGPSD: Sendable {
    private let listener: Int32
    private let state = Watched(State())

    private struct State: Sendable {
        /// Accepted connections and when each came (monotonic s).
        var clients: [(fd: Int32, time: Double)] = []
        var stopping = false
        var acceptorDone = false
        /// How many of `clients` the test has taken with `accept`.
        var taken = 0
    }

    init(port: UInt16) throws {
        listener = try listenOnLoopback(port: port).fd
        let thread = Thread { [self] in acceptUntilClosed() }
        thread.name = "scripted-gpsd"
        thread.start()
    }

    deinit { close() }

    /// Stops accepting (waiting for the thread) and closes every connection.
    func close() {
        let first = state.update { state in
            defer { state.stopping = true }
            return !state.stopping
        }
        guard first else { return }
        _ = state.wait(timeout: 3600) { $0.acceptorDone ? () : nil }
        for client in state.current.clients { Glibc.close(client.fd) }
        Glibc.close(listener)
    }

    private func acceptUntilClosed() {
        while !state.current.stopping {
            // A short timeout, so that `close()` is noticed promptly.
            var descriptor = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 50) > 0 else { continue }
            let client = Glibc.accept(listener, nil, nil)
            guard client >= 0 else { continue }
            let time = monotonicSeconds()
            _ = fcntl(client, F_SETFD, FD_CLOEXEC)
            state.update { $0.clients.append((client, time)) }
        }
        state.update { $0.acceptorDone = true }
    }

    /// Waits for the next connection the test has not taken yet; when it came (monotonic s).
    @discardableResult
    func accept(timeout: Double) throws -> Double {
        guard state.wait(timeout: timeout, for: { $0.clients.count > $0.taken ? () : nil }) != nil else {
            throw HarnessError("no connection within \(timeout) s (\(state.current.clients.count) so far)")
        }
        return state.update { state in
            state.taken += 1
            return state.clients[state.taken - 1].time
        }
    }

    /// Writes lines, each with gpsd's CR LF, to the connection taken last.
    func say(_ lines: [String]) throws { try send(raw: lines.map { $0 + "\r\n" }.joined()) }

    /// Writes `text` as it is (no line ending) to the connection taken last.
    func send(raw text: String) throws {
        let current = state.current
        let client = current.taken > 0 ? current.clients[current.taken - 1].fd : nil
        guard let client else { throw HarnessError("no connection to write to") }
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Glibc.send(client, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw HarnessError("the daemon closed the scripted gpsd's connection") }
            offset += written
        }
    }

    /// gpsd 3.22's banner.
    static let banner = #"{"class":"VERSION","release":"3.22","rev":"3.22","proto_major":3,"proto_minor":14}"#
}
