import Foundation
import SextantTestSupport

/// A private `dbus-daemon --session` for one test (any name may be owned on it; nothing of
/// the machine's buses is touched), at a socket path of its own so that a test can stop it
/// and start it again at the same address. Programs that want the system bus
/// (monitor-sensor, iio-sensor-proxy) are pointed at it with DBUS_SYSTEM_BUS_ADDRESS.
final class DBusTestBus {
    let socketPath: String
    /// The directory of its socket, when not the caller's.
    private let scratch: TemporaryDirectory?
    private var bus: PrivateBus?
    var address: String { bus?.address ?? "" }

    /// A bus whose socket is in `directory`, or in a directory of its own.
    init(directory: String? = nil) throws {
        scratch = directory == nil ? try TemporaryDirectory("dbus") : nil
        socketPath = (directory ?? scratch!.path) + "/bus"
        try start()
    }

    /// Starts the bus daemon; returns once it listens.
    func start() throws {
        unlink(socketPath)
        bus = try PrivateBus(["--session", "--nofork", "--nopidfile", "--print-address=1", "--address=unix:path=\(socketPath)"])
    }

    /// Stops the bus daemon: every connection to it is lost.
    func stop() { bus?.stop() }

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

/// monitor-sensor's report of an orientation: the first (`=== Has accelerometer
/// (orientation: X)`) or a change (`Accelerometer orientation changed: X`).
func monitorSensorOrientation(_ line: String) -> String? {
    if let range = line.range(of: "Accelerometer orientation changed: ") { return String(line[range.upperBound...]) }
    if let range = line.range(of: "=== Has accelerometer (orientation: "), line.hasSuffix(")") {
        return String(line[range.upperBound...].dropLast())
    }
    return nil
}
