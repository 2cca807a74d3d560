import Foundation
import SextantSocket
import SextantTestSupport

/// A bare connection to a Unix socket that sends and receives bytes exactly, for what the
/// JSON client would normalise (the text of an id) or cannot do (many idle connections).
final class RawSocket {
    let socket: OwnedDescriptor
    private var buffer: [UInt8] = []

    init(path: String) throws {
        socket = try OwnedDescriptor.unixStreamSocket()
        try socket.connect(to: UnixSocketAddress(path: path))
    }

    func write(_ text: String) throws {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { send(socket.raw, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            guard written > 0 else { throw HarnessError("send: \(String(cString: strerror(errno)))") }
            offset += written
        }
    }

    /// The next line, without its newline; nil at end of stream.
    func line(timeout: Double) throws -> String? {
        let deadline = monotonicSeconds() + timeout
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            guard let chunk = try read(until: deadline) else { return nil }
            buffer += chunk
        }
    }

    /// Whether the daemon has written something or hung up, without waiting.
    var hasInput: Bool { waitForInput(timeout: 0) }

    /// Whether the daemon writes something or hangs up within `timeout` seconds.
    func waitForInput(timeout: Double) -> Bool {
        guard buffer.isEmpty else { return true }
        var descriptor = pollfd(fd: socket.raw, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, Int32((timeout * 1000).rounded(.up))) > 0
    }

    private func read(until deadline: Double) throws -> [UInt8]? {
        var descriptor = pollfd(fd: socket.raw, events: Int16(POLLIN), revents: 0)
        let remaining = max(0, deadline - monotonicSeconds())
        guard poll(&descriptor, 1, Int32((remaining * 1000).rounded(.up))) > 0 else { throw HarnessError("no data within the time-out") }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { recv(socket.raw, $0.baseAddress, $0.count, 0) }
        guard count >= 0 else { throw HarnessError("recv: \(String(cString: strerror(errno)))") }
        return count == 0 ? nil : Array(chunk[..<count])
    }
}

/// Stops a process with SIGSTOP and returns once the kernel says it is stopped (state `T`
/// in /proc/PID/stat): kill(2) only queues the signal.
func stopProcess(pid: Int32, deadline seconds: Double = 10) throws {
    kill(pid, SIGSTOP)
    let end = Date().addingTimeInterval(seconds)
    while processState(pid: pid) != "T" {
        guard Date() < end else { throw HarnessError("process \(pid) did not stop within \(seconds) s") }
        usleep(1000)
    }
}

/// The state letter of /proc/PID/stat (R, S, T, …), nil once the process is gone.
func processState(pid: Int32) -> Character? {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let afterName = stat.range(of: ") ")
    else { return nil }
    return stat[afterName.upperBound...].first
}

/// CPU seconds (user + system) a process has used so far, from /proc/PID/stat.
func cpuSeconds(pid: Int32) -> Double {
    guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
        let afterName = stat.range(of: ") ")
    else { return 0 }
    // Fields after the command name: state is field 3, utime 14 and stime 15.
    let fields = stat[afterName.upperBound...].split(separator: " ")
    guard fields.count > 12, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
    return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
}
