import Foundation

/// A private `dbus-daemon` for one test: any name may be owned on it, and nothing of the
/// machine's own buses is touched. Stopped when released.
public final class PrivateBus: Sendable {
    public let address: String
    private let process: Process

    /// A session-type bus at a fresh address under /tmp.
    public convenience init() throws {
        try self.init(["--session", "--nofork", "--nopidfile", "--print-address=1", "--address=unix:tmpdir=/tmp"])
    }

    /// `dbus-daemon ARGUMENTS` (which must include `--print-address=1`), once it listens: it
    /// prints its address then, and the wait is on that line. `refusal` is the error when
    /// it exits first.
    public init(_ arguments: [String], refusal: String = "dbus-daemon exited before printing its address") throws {
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
        self.process = process
        address = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Stops the bus daemon: every connection to it is lost.
    public func stop() { SextantTestSupport.stop(process) }

    deinit { stop() }
}

/// Something another thread sets once; the test waits for it with a deadline.
public final class Awaited<Value: Sendable>: Sendable {
    private let value = Watched<Value?>(nil)

    public init() {}

    public func set(_ newValue: Value) { value.update { $0 = newValue } }

    /// The value, once set; nil when it was not set within `seconds`.
    public func wait(seconds: Double = 10) -> Value? { value.wait(timeout: seconds) { $0 } }
}
