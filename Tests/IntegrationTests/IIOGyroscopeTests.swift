import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// The gyroscope of the real `sextantd`'s IIO source in a umockdev testbed (issue 40.1).
/// What reaches the daemon is checked in its recordings (every sample it ingests is
/// recorded). Expected values are worked out by hand from the IIO ABI: rad/s after
/// `(raw + offset) × scale`, turned into the device's axes by the mount matrix, never
/// negated (a rate has no gravity convention to undo).
@Suite("IIO gyroscope under umockdev", .serialized, .requires(IIOTestbed.requirement))
struct IIOGyroscopeIntegrationTests {
    private let gyroName = "iio:device0"

    /// A BMI160's layout: three raw channels with one shared scale and offset.
    private func bmi160(raw: (Int, Int, Int), extra: [String: String] = [:]) -> [String: String] {
        [
            "name": "bmi160", "in_anglvel_x_raw": "\(raw.0)", "in_anglvel_y_raw": "\(raw.1)", "in_anglvel_z_raw": "\(raw.2)",
            "in_anglvel_scale": "0.001065", "in_anglvel_offset": "0",
        ].merging(extra) { $1 }
    }

    @Test("issue 40.1: in_anglvel × scale is recorded as gyro (rad/s); a new raw value is recorded as it changes")
    func sharedScale() throws {
        let testbed = try IIOTestbed()
        let path = try testbed.add(gyroName, attributes: bmi160(raw: (1000, -2000, 0)))
        let daemon = try DaemonHarness(sensors: testbed)
        try daemon.waitForIIOState("gyro \(gyroName)")
        // (1000, -2000, 0) × 0.001065 = (1.065, -2.13, 0) rad/s.
        _ = try daemon.recordGyroUntil("(1.065, -2.13, 0) rad/s") { $0.last.map { near($0, (1.065, -2.13, 0)) } ?? false }
        // Turned on the table to the left at about 1.5 rad/s.
        try testbed.set(path, ["in_anglvel_x_raw": "0", "in_anglvel_y_raw": "0", "in_anglvel_z_raw": "1409"])
        _ = try daemon.recordGyroUntil("(0, 0, 1.500585) rad/s") { $0.last.map { near($0, (0, 0, 1.500585)) } ?? false }
    }

    @Test("issue 40.1: per-axis scales, the shared offset and the sysfs mount matrix; removed, then plugged in again")
    func mountMatrixAndHotplug() throws {
        let testbed = try IIOTestbed()
        let attributes = [
            "name": "lsm6dsx_gyro", "in_anglvel_x_raw": "100", "in_anglvel_y_raw": "-50", "in_anglvel_z_raw": "20",
            "in_anglvel_x_scale": "0.003", "in_anglvel_y_scale": "0.002", "in_anglvel_z_scale": "0.001", "in_anglvel_offset": "10",
            "mount_matrix": "0, 1, 0; 1, 0, 0; 0, 0, -1",
        ]
        let path = try testbed.add(gyroName, attributes: attributes)
        let daemon = try DaemonHarness(sensors: testbed)
        try daemon.waitForIIOState("gyro \(gyroName)")
        // (110 × 0.003, -40 × 0.002, 30 × 0.001) = (0.33, -0.08, 0.03) rad/s; x and y
        // swapped, z mirrored: (-0.08, 0.33, -0.03).
        _ = try daemon.recordGyroUntil("(-0.08, 0.33, -0.03) rad/s") { $0.last.map { near($0, (-0.08, 0.33, -0.03)) } ?? false }

        try testbed.remove(path)
        try daemon.waitForIIOState("no sensors")
        #expect(daemon.log().contains("iio: gyro \(gyroName) removed"))
        try testbed.add(gyroName, attributes: attributes)
        try daemon.waitForIIOState("gyro \(gyroName)")
        _ = try daemon.recordGyroUntil("the rate again") { $0.last.map { near($0, (-0.08, 0.33, -0.03)) } ?? false }
    }

    @Test("issue 40.1: a rate beyond ±100 rad/s is refused with its value, and the daemon reads on")
    func outOfRange() throws {
        let testbed = try IIOTestbed()
        let path = try testbed.add(gyroName, attributes: bmi160(raw: (200_000, 0, 0)))
        let daemon = try DaemonHarness(sensors: testbed)
        try daemon.waitForIIOState("gyro \(gyroName)")
        try daemon.waitForLog("rotation rate x 213.0 rad/s is not within -100.0...100.0", timeout: 10)
        try testbed.set(path, ["in_anglvel_x_raw": "100"])
        _ = try daemon.recordGyroUntil("0.1065 rad/s once in range") { $0.last.map { near($0, (0.1065, 0, 0)) } ?? false }
    }
}

extension DaemonHarness {
    /// Records short windows until the recorded `gyro` samples (x, y, z in rad/s, read by
    /// hand from the JSONL) satisfy `done`.
    fileprivate func recordGyroUntil(
        _ description: String, timeout: Double = 15, _ done: ([(x: Double, y: Double, z: Double)]) -> Bool
    ) throws -> [(x: Double, y: Double, z: Double)] {
        let deadline = Date().addingTimeInterval(timeout)
        var index = 0
        var last: [(x: Double, y: Double, z: Double)] = []
        while Date() < deadline {
            index += 1
            let path = directory + "/gyro-\(index).jsonl"
            _ = try control().call(Method.recordStart, ["path": .string(path)])
            usleep(100_000)  // the recording's span; the loop, not the span, waits for the outcome
            _ = try control().call(Method.recordStop)
            last = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").compactMap { line in
                let g = try JSONValue.parse(String(line))["gyro"]
                guard let x = g?["x"]?.doubleValue, let y = g?["y"]?.doubleValue, let z = g?["z"]?.doubleValue else { return nil }
                return (x, y, z)
            }
            if done(last) { return last }
        }
        throw HarnessError("no recording showed \(description) within \(timeout) s; last: \(last.suffix(3))\n\(log())")
    }
}
