import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport

/// Fake IIO sensors for a real daemon: a umockdev testbed run by `Tools/dev/iio-testbed.py`,
/// driven over that script's stdin/stdout (one JSON command and one JSON answer a line).
///
/// A daemon started with `environment` sees the testbed's devices instead of the machine's
/// /sys and udev database; `add`, `set`, `uevent` and `remove` change them while it runs.
final class IIOTestbed {
    private let process: Process
    private let commands: FileHandle
    private let answers: Int32
    private var pending = Data()
    /// The testbed's directory (UMOCKDEV_DIR).
    let root: String
    private let preload: String

    /// umockdev and its Python bindings.
    static let requirement = Requirement(
        "needs umockdev and its Python bindings (Debian umockdev, gir1.2-umockdev-1.0, python3-gi: Tools/ci/setup.sh installs them)"
    ) { isAvailable }

    private static let isAvailable: Bool = {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/python3") else { return false }
        let probe = try? run(["/usr/bin/python3", "-c", "import gi; gi.require_version('UMockdev', '1.0')"])
        return probe?.status == 0
    }()

    static let script = Repository.root + "/Tools/dev/iio-testbed.py"

    init() throws {
        let stdin = Pipe(), stdout = Pipe()
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [IIOTestbed.script]
        process.standardInput = stdin
        process.standardOutput = stdout
        try launch(process)
        commands = stdin.fileHandleForWriting
        answers = stdout.fileHandleForReading.fileDescriptor
        let ready = try IIOTestbed.readLine(answers, buffer: &pending, timeout: 20)
        guard ready["ready"] == true, let root = ready["root"]?.stringValue, let preload = ready["preload"]?.stringValue else {
            throw HarnessError("iio-testbed.py did not start: \(ready)")
        }
        self.root = root
        self.preload = preload
    }

    deinit {
        try? commands.close()  // end of input: the script deletes the testbed and exits
        _ = waitForEnd(of: process)
    }

    /// What a process must be started with to see the testbed.
    var environment: [String: String] { ["UMOCKDEV_DIR": root, "LD_PRELOAD": preload] }

    /// Adds `/sys/devices/NAME` (subsystem iio) and sends its "add" uevent; its syspath.
    @discardableResult
    func add(_ name: String, attributes: [String: String], properties: [String: String] = [:]) throws -> String {
        let answer = try send(["op": "add", "name": .string(name), "attributes": .strings(attributes), "properties": .strings(properties)])
        return try answer["syspath"]?.stringValue ?? { throw HarnessError("no syspath in \(answer)") }()
    }

    /// Rewrites attribute files, as a sensor's new reading (no uevent: sysfs values change silently).
    func set(_ syspath: String, _ attributes: [String: String]) throws {
        try send(["op": "set", "syspath": .string(syspath), "attributes": .strings(attributes)])
    }

    func setProperties(_ syspath: String, _ properties: [String: String]) throws {
        try send(["op": "set-properties", "syspath": .string(syspath), "properties": .strings(properties)])
    }

    func uevent(_ syspath: String, _ action: String) throws {
        try send(["op": "uevent", "syspath": .string(syspath), "action": .string(action)])
    }

    /// Removes a device: after a "remove" uevent, or (`uevent: false`) by just vanishing.
    func remove(_ syspath: String, uevent: Bool = true) throws {
        try send(["op": "remove", "syspath": .string(syspath), "uevent": .bool(uevent)])
    }

    @discardableResult
    private func send(_ command: JSONValue) throws -> JSONValue {
        try commands.write(contentsOf: Data((command.serialized() + "\n").utf8))
        let answer = try IIOTestbed.readLine(answers, buffer: &pending, timeout: 20)
        guard answer["ok"] == true else { throw HarnessError("iio-testbed.py: \(command["op"] ?? .null) failed: \(answer)") }
        return answer
    }

    /// One JSON line from the script, waiting for it at most `timeout` seconds.
    private static func readLine(_ fd: Int32, buffer: inout Data, timeout: Double) throws -> JSONValue {
        let deadline = Date().addingTimeInterval(timeout)
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                return try JSONValue.parse(line)
            }
            let remaining = deadline.timeIntervalSinceNow
            guard remaining > 0 else { throw HarnessError("iio-testbed.py did not answer within \(timeout) s") }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, Int32(remaining * 1000) + 1) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let n = read(fd, &chunk, chunk.count)
            guard n > 0 else { throw HarnessError("iio-testbed.py ended") }
            buffer.append(contentsOf: chunk[..<n])
        }
    }
}

extension JSONValue {
    static func strings(_ map: [String: String]) -> JSONValue { .object(map.mapValues { .string($0) }) }
}

/// The attribute files of an IIO accelerometer reading `raw`, with a shared scale.
func accelerometerAttributes(raw: (Int, Int, Int), scale: String = "0.01", extra: [String: String] = [:]) -> [String: String] {
    [
        "name": "accel_3d", "in_accel_x_raw": "\(raw.0)", "in_accel_y_raw": "\(raw.1)", "in_accel_z_raw": "\(raw.2)",
        "in_accel_scale": scale,
    ].merging(extra) { $1 }
}

/// One accelerometer, hinge, magnetometer or compass sample of a recorded trace.
struct RecordedSample {
    enum Value {
        case accel(x: Double, y: Double, z: Double)
        case hinge(Double)
        case magnet(x: Double, y: Double, z: Double)
        case compass(magnetic: Double?, trueHeading: Double?)
    }
    /// Seconds since the trace's start.
    var t: Double
    var value: Value

    var acceleration: (x: Double, y: Double, z: Double)? {
        if case .accel(let x, let y, let z) = value { return (x, y, z) }
        return nil
    }

    var hingeAngle: Double? {
        if case .hinge(let angle) = value { return angle }
        return nil
    }

    var magneticField: (x: Double, y: Double, z: Double)? {
        if case .magnet(let x, let y, let z) = value { return (x, y, z) }
        return nil
    }

    var compass: (magnetic: Double?, trueHeading: Double?)? {
        if case .compass(let magnetic, let trueHeading) = value { return (magnetic, trueHeading) }
        return nil
    }
}

/// A recorded trace, read by hand (the daemon's trace reader is not what is tested here).
struct RecordedTrace {
    var start: Timestamp?
    var samples: [RecordedSample] = []

    init(path: String) throws {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        for line in text.split(separator: "\n") {
            let value = try JSONValue.parse(String(line))
            if let start = value["start"]?.stringValue { self.start = Timestamp(rfc3339: start) }
            guard let t = value["t"]?.doubleValue else { continue }
            if let a = value["accel"], let x = a["x"]?.doubleValue, let y = a["y"]?.doubleValue, let z = a["z"]?.doubleValue {
                samples.append(RecordedSample(t: t, value: .accel(x: x, y: y, z: z)))
            } else if let angle = value["hinge"]?["angle"]?.doubleValue {
                samples.append(RecordedSample(t: t, value: .hinge(angle)))
            } else if let m = value["magnet"], let x = m["x"]?.doubleValue, let y = m["y"]?.doubleValue, let z = m["z"]?.doubleValue {
                samples.append(RecordedSample(t: t, value: .magnet(x: x, y: y, z: z)))
            } else if let c = value["compass"] {
                samples.append(RecordedSample(t: t, value: .compass(magnetic: c["magnetic"]?.doubleValue, trueHeading: c["true"]?.doubleValue)))
            }
        }
    }

    var accelerations: [(x: Double, y: Double, z: Double)] { samples.compactMap(\.acceleration) }
    var hingeAngles: [Double] { samples.compactMap(\.hingeAngle) }
    var magneticFields: [(x: Double, y: Double, z: Double)] { samples.compactMap(\.magneticField) }
    var compassHeadings: [(magnetic: Double?, trueHeading: Double?)] { samples.compactMap(\.compass) }
}

extension DaemonHarness {
    /// The `iio` source's state in `status`, or nil when there is none.
    func iioState() throws -> String? {
        let status = try control().call(Method.status)
        return status["sources"]?.arrayValue?.first { $0["name"] == "iio" }?["state"]?.stringValue
    }

    /// Polls `status` until the `iio` source's state is `expected`.
    func waitForIIOState(_ expected: String, timeout: Double = 15) throws {
        try waitForStatus("the iio source's state to be \(expected)", timeout: timeout) { status in
            status["sources"]?.arrayValue?.first { $0["name"] == "iio" }?["state"]?.stringValue == expected
        }
    }

    /// Records short traces (`record.start`/`record.stop`, each over about `window`
    /// seconds) until one satisfies `done`, and returns it.
    func recordUntil(_ description: String, window: Double = 0.1, timeout: Double = 15, _ done: (RecordedTrace) -> Bool) throws -> RecordedTrace {
        let deadline = Date().addingTimeInterval(timeout)
        var index = 0
        var last: RecordedTrace?
        while Date() < deadline {
            index += 1
            let path = directory + "/record-\(index).jsonl"
            _ = try control().call(Method.recordStart, ["path": .string(path)])
            usleep(UInt32(window * 1e6))  // the recording's span; the loop, not the span, waits for the outcome
            _ = try control().call(Method.recordStop)
            let trace = try RecordedTrace(path: path)
            if done(trace) { return trace }
            last = trace
        }
        throw HarnessError("no recording showed \(description) within \(timeout) s; last: \(last?.samples.suffix(3).map { "\($0.value)" } ?? [])\n\(log())")
    }
}

/// Equal within a millionth: values go through decimal text in sysfs and in the trace.
func near(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-6 }

func near(_ a: (x: Double, y: Double, z: Double), _ b: (Double, Double, Double)) -> Bool {
    near(a.x, b.0) && near(a.y, b.1) && near(a.z, b.2)
}
