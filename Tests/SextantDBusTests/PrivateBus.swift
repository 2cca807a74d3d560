import Foundation

/// A private `dbus-daemon --session` for one test: any name may be owned on it, and
/// nothing of the machine's own buses is touched. Stopped when released.
final class PrivateBus {
    let address: String
    private let process: Process

    init() throws {
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        process.arguments = ["--session", "--nofork", "--nopidfile", "--print-address=1", "--address=unix:tmpdir=/tmp"]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        // The daemon prints its address once it listens: the wait is on that line.
        var data = Data()
        while !data.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw PrivateBusError(message: "dbus-daemon exited before printing its address") }
            data.append(chunk)
        }
        address = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Stops the bus daemon (every connection to it is lost). SIGKILL, since a child of
    /// the test runner starts with SIGTERM blocked (the runner's mask is inherited).
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { stop() }
}

struct PrivateBusError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}

/// A client program run to its end, with what it printed.
struct ClientRun {
    var status: Int32
    var stdout: String
    var stderr: String

    static func run(_ arguments: [String]) throws -> ClientRun {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return ClientRun(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self), stderr: String(decoding: stderr, as: UTF8.self))
    }
}

/// A client that keeps running (`gdbus monitor`), its output read line by line on a
/// thread of its own; tests wait for a line with a deadline.
final class LineReader: @unchecked Sendable {
    private let process = Process()
    private let condition = NSCondition()
    private let store = Store()

    /// The lines read; guarded by `condition`.
    private final class Store: @unchecked Sendable {
        var lines: [String] = []
    }

    init(_ arguments: [String]) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let handle = out.fileHandleForReading
        // The thread holds the lines, not this object: it reads until the process's end,
        // which deinit brings about.
        let condition = self.condition
        let store = self.store
        Thread {
            var buffer = Data()
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                buffer.append(chunk)
                while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                    buffer.removeSubrange(buffer.startIndex...newline)
                    condition.withLock {
                        store.lines.append(line)
                        condition.broadcast()
                    }
                }
            }
        }.start()
    }

    /// The first line (from `index` on) that matches, waiting at most `seconds`.
    func waitForLine(from index: Int = 0, seconds: Double = 10, where matches: (String) -> Bool) -> (index: Int, line: String)? {
        let deadline = Date().addingTimeInterval(seconds)
        return condition.withLock {
            var next = index
            while true {
                let lines = store.lines
                while next < lines.count {
                    if matches(lines[next]) { return (next, lines[next]) }
                    next += 1
                }
                if !condition.wait(until: deadline) { return nil }
            }
        }
    }

    var allLines: [String] { condition.withLock { store.lines } }

    func stop() {
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    deinit { stop() }
}

/// Something another thread sets once; the test waits for it with a deadline.
final class Awaited<Value: Sendable>: @unchecked Sendable {
    private let condition = NSCondition()
    private var value: Value?

    func set(_ newValue: Value) {
        condition.withLock {
            value = newValue
            condition.broadcast()
        }
    }

    func wait(seconds: Double = 10) -> Value? {
        let deadline = Date().addingTimeInterval(seconds)
        return condition.withLock {
            while value == nil { if !condition.wait(until: deadline) { break } }
            return value
        }
    }
}
