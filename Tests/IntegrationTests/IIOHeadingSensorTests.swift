import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// The magnetometer and the compass of the real `sextantd`'s IIO source, in a umockdev
/// testbed (issue 21.1). Until an engine hears them, what reaches the daemon is checked in
/// its recordings: every sample it ingests is recorded. Expected values are worked out by
/// hand from the IIO ABI (gauss after `(raw + offset) × scale`, 1 G = 100 µT) and the HID
/// hub's heading in degrees after scale and offset.
@Suite("IIO magnetometer and compass under umockdev", .serialized, .requires(IIOTestbed.requirement))
struct IIOHeadingSensorIntegrationTests {
    private let magnName = "iio:device0"

    /// `hid-sensor-magn-3d`'s layout: field and heading channels, each with its type's
    /// shared scale and offset.
    private func magn3D(field: (Int, Int, Int), heading: Int) -> [String: String] {
        [
            "name": "magn_3d", "in_magn_x_raw": "\(field.0)", "in_magn_y_raw": "\(field.1)", "in_magn_z_raw": "\(field.2)",
            "in_magn_scale": "0.001", "in_magn_offset": "0",
            "in_rot_from_north_magnetic_tilt_comp_raw": "\(heading)", "in_rot_scale": "0.1", "in_rot_offset": "0",
        ]
    }

    @Test("issue 21.1: HID magn_3d is read as magnet (µT) and compass (degrees); new raw values are recorded as they change")
    func hidMagn3D() throws {
        let testbed = try IIOTestbed()
        let path = try testbed.add(magnName, attributes: magn3D(field: (200, -150, -400), heading: 1234))
        let daemon = try DaemonHarness(sensors: testbed)
        try daemon.waitForIIOState("magnet \(magnName), compass \(magnName)")
        // (200, -150, -400) × 0.001 G × 100 = (20, -15, -40) µT; 1234 × 0.1 = 123.4°.
        _ = try daemon.recordUntil("the field (20, -15, -40) µT and the heading 123.4°") { trace in
            trace.magneticFields.last.map { near($0, (20, -15, -40)) } ?? false
                && trace.compassHeadings.last.map { $0.magnetic.map { near($0, 123.4) } ?? false && $0.trueHeading == nil } ?? false
        }
        // The device turned: -90° as the hub wraps it is 270°; the field swings with it.
        try testbed.set(path, ["in_magn_x_raw": "-150", "in_magn_y_raw": "-200", "in_rot_from_north_magnetic_tilt_comp_raw": "-900"])
        _ = try daemon.recordUntil("(-15, -20, -40) µT and 270°") { trace in
            trace.magneticFields.last.map { near($0, (-15, -20, -40)) } ?? false
                && trace.compassHeadings.last?.magnetic.map { near($0, 270) } ?? false
        }
    }

    @Test("issue 21.1: a magnetometer's per-axis scales, shared offset and sysfs mount matrix; removed, then plugged in again")
    func magnetometerHotplug() throws {
        let testbed = try IIOTestbed()
        let attributes = [
            "name": "ak8975", "in_magn_x_raw": "100", "in_magn_y_raw": "-50", "in_magn_z_raw": "20",
            "in_magn_x_scale": "0.003", "in_magn_y_scale": "0.002", "in_magn_z_scale": "0.001", "in_magn_offset": "10",
            "mount_matrix": "0, 1, 0; 1, 0, 0; 0, 0, -1",
        ]
        let path = try testbed.add(magnName, attributes: attributes)
        let daemon = try DaemonHarness(sensors: testbed)
        try daemon.waitForIIOState("magnet \(magnName)")
        // Gauss (110 × 0.003, -40 × 0.002, 30 × 0.001) = (0.33, -0.08, 0.03); swapped, z
        // mirrored: (-0.08, 0.33, -0.03) G = (-8, 33, -3) µT.
        _ = try daemon.recordUntil("(-8, 33, -3) µT") { $0.magneticFields.last.map { near($0, (-8, 33, -3)) } ?? false }

        try testbed.remove(path)
        try daemon.waitForIIOState("no sensors")
        #expect(daemon.log().contains("iio: magnet \(magnName) removed"))
        try testbed.add(magnName, attributes: attributes)
        try daemon.waitForIIOState("magnet \(magnName)")
        _ = try daemon.recordUntil("the field again") { $0.magneticFields.last.map { near($0, (-8, 33, -3)) } ?? false }
    }

    @Test("issue 21.1: a compass plugged in while running, then removed; a heading channel that stops being a number is logged with its path")
    func compassHotplugAndBadValue() throws {
        let testbed = try IIOTestbed()
        let daemon = try DaemonHarness(sensors: testbed)
        try daemon.waitForIIOState("no sensors")
        let path = try testbed.add(
            magnName, attributes: ["name": "magn_3d", "in_rot_from_north_magnetic_tilt_comp_raw": "4500", "in_rot_scale": "0.01"])
        try daemon.waitForIIOState("compass \(magnName)")
        _ = try daemon.recordUntil("45°") { $0.compassHeadings.last?.magnetic.map { near($0, 45) } ?? false }

        try testbed.set(path, ["in_rot_from_north_magnetic_tilt_comp_raw": "garbage"])
        try daemon.waitForLog("iio: cannot read compass \(magnName): ", timeout: 10)
        #expect(daemon.log().contains("in_rot_from_north_magnetic_tilt_comp_raw: not a number: \"garbage\""))
        #expect(daemon.process.isRunning)
        try testbed.set(path, ["in_rot_from_north_magnetic_tilt_comp_raw": "9000"])
        _ = try daemon.recordUntil("90° once it reads again") { $0.compassHeadings.last?.magnetic.map { near($0, 90) } ?? false }

        try testbed.remove(path)
        try daemon.waitForIIOState("no sensors")
        #expect(daemon.log().contains("iio: compass \(magnName) removed"))
    }
}
