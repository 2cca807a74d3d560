import Foundation

/// A private `dbus-daemon --session` for one test (any name may be owned on it; nothing of
/// the machine's buses is touched), at a socket path of its own so that a test can stop it
/// and start it again at the same address. Programs that want the system bus
/// (monitor-sensor, iio-sensor-proxy) are pointed at it with DBUS_SYSTEM_BUS_ADDRESS.
final class DBusTestBus {
    let socketPath: String
    private(set) var address: String = ""
    private var process: Process?

    init(directory: String) throws {
        socketPath = directory + "/bus"
        try start()
    }

    /// Starts the bus daemon; returns once it listens (it prints its address then).
    func start() throws {
        unlink(socketPath)
        let (process, address) = try Self.launchBus(
            ["--session", "--nofork", "--nopidfile", "--print-address=1", "--address=unix:path=\(socketPath)"])
        self.address = address
        self.process = process
    }

    /// Stops the bus daemon: every connection to it is lost. SIGKILL, since a child of the
    /// test runner starts with SIGTERM blocked.
    func stop() {
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { stop() }

    /// Starts `dbus-daemon ARGUMENTS` (which must include `--print-address=1`) and returns
    /// it with its address once it listens: it prints the address then, and the wait is on
    /// that line. `refusal` is the error when it exits first.
    static func launchBus(
        _ arguments: [String], refusal: String = "dbus-daemon exited before printing its address"
    ) throws -> (Process, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/dbus-daemon")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try launch(process)
        var data = Data()
        while !data.contains(UInt8(ascii: "\n")) {
            let chunk = output.fileHandleForReading.availableData
            guard !chunk.isEmpty else { throw HarnessError(refusal) }
            data.append(chunk)
        }
        return (process, String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// The environment of a client that looks for its service on the system bus.
    var systemBusEnvironment: [String: String] {
        ProcessInfo.processInfo.environment.merging(["DBUS_SYSTEM_BUS_ADDRESS": address]) { $1 }
    }

    /// The address without the bus's guid: the same bus after a restart (a guid in an
    /// address makes sd-bus refuse a server with another one).
    var restartableAddress: String { "unix:path=\(socketPath)" }

    /// Waits (at most `timeout` s) for a name to be owned on the bus: `gdbus wait`.
    func waitForName(_ name: String, timeout: Int = 15) throws {
        let result = try run(["/usr/bin/gdbus", "wait", "--address", address, "--timeout", "\(timeout)", name])
        guard result.status == 0 else { throw HarnessError("\(name) did not appear on the bus within \(timeout) s: \(result.stderr)") }
    }

    /// `gdbus introspect` of an object.
    func introspect(_ name: String, _ path: String) throws -> String {
        try run(["/usr/bin/gdbus", "introspect", "--address", address, "--dest", name, "--object-path", path]).stdout
    }

    /// `gdbus call`; what it printed.
    func call(_ name: String, _ path: String, _ method: String, _ arguments: [String] = []) throws -> CommandResult {
        try run(["/usr/bin/gdbus", "call", "--address", address, "--dest", name, "--object-path", path, "--method", method] + arguments)
    }
}

/// A client that keeps running (monitor-sensor, gdbus monitor), its output read line by
/// line, with the time each line arrived; tests wait for a line with a deadline.
final class LineWatcher: @unchecked Sendable {
    private let process = Process()
    private let condition = NSCondition()
    private let store = Store()

    /// The lines read, with their arrival times; guarded by `condition`.
    private final class Store: @unchecked Sendable {
        var lines: [(line: String, at: UInt64)] = []
    }

    /// `arguments` run through `stdbuf -oL`, so that a client writing to a pipe writes each line.
    init(_ arguments: [String], environment: [String: String]? = nil) throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/stdbuf")
        process.arguments = ["-oL"] + arguments
        if let environment { process.environment = environment }
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try launch(process)
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
                    let now = DispatchTime.now().uptimeNanoseconds
                    condition.withLock {
                        store.lines.append((line, now))
                        condition.broadcast()
                    }
                }
            }
        }.start()
    }

    /// The first line from `index` on that matches, waiting at most `timeout` seconds.
    func waitForLine(from index: Int = 0, timeout: Double = 15, where matches: (String) -> Bool) -> (index: Int, line: String, at: UInt64)? {
        let deadline = Date().addingTimeInterval(timeout)
        return condition.withLock {
            var next = index
            while true {
                let lines = store.lines
                while next < lines.count {
                    if matches(lines[next].line) { return (next, lines[next].line, lines[next].at) }
                    next += 1
                }
                if !condition.wait(until: deadline) { return nil }
            }
        }
    }

    var allLines: [String] { condition.withLock { store.lines.map(\.line) } }

    /// SIGKILL (SIGTERM is blocked in a child of the test runner); waits for the end.
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
    }

    deinit { stop() }
}

/// monitor-sensor's report of an orientation: the first (`=== Has accelerometer
/// (orientation: X)`) or a change (`Accelerometer orientation changed: X`).
func monitorSensorOrientation(_ line: String) -> String? {
    if let range = line.range(of: "Accelerometer orientation changed: ") { return String(line[range.upperBound...]) }
    if let range = line.range(of: "=== Has accelerometer (orientation: "), line.hasSuffix(")") {
        return String(line[range.upperBound...].dropLast())
    }
    return nil
}
