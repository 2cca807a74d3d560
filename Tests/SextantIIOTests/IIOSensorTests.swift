import Foundation
import SextantCore
import SextantProtocol
@testable import SextantIIO
import SextantTestSupport
import Synchronization
import Testing

/// A directory standing for one IIO device's sysfs directory.
final class FakeIIODevice {
    private let scratch: TemporaryDirectory
    let syspath: String

    init(_ attributes: [String: String]) throws {
        scratch = try TemporaryDirectory("iio")
        syspath = scratch.file("iio:device0")
        try FileManager.default.createDirectory(atPath: syspath, withIntermediateDirectories: true)
        for (name, value) in attributes { try set(name, value) }
    }

    /// Writes an attribute the way sysfs shows it: the value and a newline.
    func set(_ name: String, _ value: String) throws {
        try (value + "\n").write(toFile: syspath + "/" + name, atomically: true, encoding: .utf8)
    }

    func info(properties: [String: String] = [:]) -> IIODeviceInfo {
        IIODeviceInfo(sysname: "iio:device0", syspath: syspath, properties: properties)
    }
}

private func close(_ a: Acceleration, _ x: Double, _ y: Double, _ z: Double) -> Bool {
    abs(a.x - x) < 1e-9 && abs(a.y - y) < 1e-9 && abs(a.z - z) < 1e-9
}

@Suite("IIO mount matrix")
struct IIOMountMatrixTests {
    @Test("Parses the kernel's text form, blanks and newline included")
    func parses() throws {
        let m = try #require(IIOMountMatrix(parsing: "0, -1, 0; 1, 0, 0; 0, 0, 1\n"))
        #expect(m.rows == [[0, -1, 0], [1, 0, 0], [0, 0, 1]])
        #expect(IIOMountMatrix(parsing: "1,0,0;0,1,0;0,0,1") == .identity)
        #expect(IIOMountMatrix(parsing: "0.5, 0, 0; 0, 0.5, 0; 0, 0, -0.5")?.rows[2][2] == -0.5)
    }

    @Test("Refuses anything but three rows of three numbers, and a row of zeros")
    func refuses() {
        for text in ["", "1, 0, 0; 0, 1, 0", "1, 0; 0, 1; 0, 0", "1, 0, 0; 0, 1, 0; 0, 0, x", "1, 0, 0; 0, 0, 0; 0, 0, 1",
            "1, 0, 0; 0, 1, 0; 0, 0, 1; 1, 0, 0", "1 0 0; 0 1 0; 0 0 1", "1, 0, 0; 0, 1, 0; 0, 0, nan"] {
            #expect(IIOMountMatrix(parsing: text) == nil, "\(text)")
        }
    }

    @Test("Row i of the matrix makes device axis i: M × v, not its transpose")
    func appliesRows() throws {
        // A cyclic permutation is not its own transpose: device x = sensor y, y = sensor z,
        // z = sensor x. Its transpose would give (3, 1, 2).
        let m = try #require(IIOMountMatrix(parsing: "0, 1, 0; 0, 0, 1; 1, 0, 0"))
        let out = m.applied(to: (1, 2, 3))
        #expect(out.x == 2 && out.y == 3 && out.z == 1)
    }
}

@Suite("IIO readings to Sextant samples")
struct IIOConversionTests {
    @Test("RULES Device orientation: IIO upright portrait (y ≈ -9.81) is Sextant's +9.81")
    func negatesIntoDeviceFrame() {
        let upright = IIOAccelerometer.deviceFrame(sensor: (0, -9.81, 0), mountMatrix: .identity)
        #expect(close(upright, 0, 9.81, 0))
        // iio-sensor-proxy's left-up (x ≈ +9.81) is landscapeRight: gravity reaction along -x.
        let leftUp = IIOAccelerometer.deviceFrame(sensor: (9.81, 0, 0), mountMatrix: .identity)
        #expect(close(leftUp, -9.81, 0, 0))
    }

    @Test("Swapped axes: the matrix applies before the negation")
    func swapThenNegate() throws {
        let swapXY = try #require(IIOMountMatrix(parsing: "0, 1, 0; 1, 0, 0; 0, 0, 1"))
        // Sensor (1, 2, 3) → M × v = (2, 1, 3) → negated (-2, -1, -3).
        #expect(close(IIOAccelerometer.deviceFrame(sensor: (1, 2, 3), mountMatrix: swapXY), -2, -1, -3))
    }

    @Test("IIO ABI: the offset is added to the raw value before scaling")
    func offsetThenScale() {
        #expect(IIOChannel(rawPath: "", scale: 0.5, offset: 4).convert(10) == 7)
    }

    @Test("P1: a hinge scaled to radians reads in degrees; beyond 0...180 is clamped")
    func hingeDegrees() {
        #expect(abs(IIOHinge.degrees(Double.pi / 2, scaledToRadians: true) - 90) < 1e-9)
        #expect(IIOHinge.degrees(135, scaledToRadians: false) == 135)
        #expect(IIOHinge.degrees(270, scaledToRadians: false) == 180)
        #expect(IIOHinge.degrees(-3, scaledToRadians: false) == 0)
    }
}

@Suite("IIO probe and sysfs reads")
struct IIOProbeTests {
    @Test("An accelerometer: shared scale, sysfs mount_matrix, fresh values at each read")
    func accelerometer() throws {
        let device = try FakeIIODevice([
            "name": "accel_3d", "in_accel_x_raw": "100", "in_accel_y_raw": "-200", "in_accel_z_raw": "300",
            "in_accel_scale": "0.01", "mount_matrix": "0, 1, 0; 1, 0, 0; 0, 0, 1",
        ])
        guard let accel = try IIOProbe.probe(device.info())?.driver as? IIOAccelerometer else {
            Issue.record("not an accelerometer")
            return
        }
        #expect(accel.mountMatrixOrigin == "mount_matrix")
        // Sensor (1, -2, 3) m/s² → swapped (-2, 1, 3) → negated (2, -1, -3).
        #expect(close(try accel.read(), 2, -1, -3))
        try device.set("in_accel_x_raw", "500")
        // Sensor (5, -2, 3) → (-2, 5, 3) → (2, -5, -3).
        #expect(close(try accel.read(), 2, -5, -3))
    }

    @Test("Per-axis scales and offsets; udev ACCEL_MOUNT_MATRIX wins over sysfs")
    func perAxisScale() throws {
        let device = try FakeIIODevice([
            "in_accel_x_raw": "10", "in_accel_y_raw": "10", "in_accel_z_raw": "10",
            "in_accel_x_scale": "0.1", "in_accel_y_scale": "0.2", "in_accel_z_scale": "0.3", "in_accel_z_offset": "-20",
            "in_accel_mount_matrix": "0, 1, 0; 1, 0, 0; 0, 0, 1",
        ])
        let sensor = try IIOProbe.probe(device.info(properties: ["ACCEL_MOUNT_MATRIX": "1, 0, 0; 0, 1, 0; 0, 0, 1"]))
        guard let accel = sensor?.driver as? IIOAccelerometer else {
            Issue.record("not an accelerometer")
            return
        }
        #expect(accel.mountMatrixOrigin == "ACCEL_MOUNT_MATRIX")
        // x: 10 × 0.1 = 1; y: 10 × 0.2 = 2; z: (10 - 20) × 0.3 = -3; identity, negated.
        #expect(close(try accel.read(), -1, -2, 3))
    }

    @Test("A mount matrix that does not parse is reported and the next one is used")
    func badMatrixFallsBack() throws {
        let device = try FakeIIODevice([
            "in_accel_x_raw": "1", "in_accel_y_raw": "2", "in_accel_z_raw": "3",
            "in_accel_mount_matrix": "0, 0, 1; 0, 1, 0; 1, 0, 0",
        ])
        var warnings: [String] = []
        let sensor = try IIOProbe.probe(device.info(properties: ["ACCEL_MOUNT_MATRIX": "1, 0, 0; 0, 0, 0; 0, 0, 1"])) { warnings.append($0) }
        guard let accel = sensor?.driver as? IIOAccelerometer else {
            Issue.record("not an accelerometer")
            return
        }
        #expect(accel.mountMatrixOrigin == "in_accel_mount_matrix")
        #expect(warnings.count == 1 && warnings[0].contains("ACCEL_MOUNT_MATRIX"))
        // No scale: 1. Sensor (1, 2, 3) → (3, 2, 1) → (-3, -2, -1).
        #expect(close(try accel.read(), -3, -2, -1))
    }

    @Test("An accelerometer in a keyboard base is recognised as such")
    func baseLocation() throws {
        let device = try FakeIIODevice(["in_accel_x_raw": "0", "in_accel_y_raw": "0", "in_accel_z_raw": "0", "location": "base"])
        guard let accel = try IIOProbe.probe(device.info())?.driver as? IIOAccelerometer else {
            Issue.record("not an accelerometer")
            return
        }
        #expect(accel.isInBase)
    }

    @Test("HID hinge: the channel labelled hinge, scaled to radians, read in degrees")
    func hidHinge() throws {
        let device = try FakeIIODevice([
            "name": "hinge", "in_angl0_raw": "10", "in_angl0_label": "keyboard", "in_angl1_raw": "120",
            "in_angl1_label": "hinge", "in_angl_scale": "0.017453293",
        ])
        guard let hinge = try IIOProbe.probe(device.info())?.driver as? IIOHinge else {
            Issue.record("not a hinge")
            return
        }
        #expect(hinge.channel.rawPath.hasSuffix("in_angl1_raw"))
        // 120 × 0.017453293 rad = 120.0000003°.
        #expect(abs(try hinge.read() - 120 * 0.017453293 * 180 / Double.pi) < 1e-9)
    }

    @Test("ChromeOS lid angle: in_angl_raw in degrees, no scale")
    func crosLidAngle() throws {
        let device = try FakeIIODevice(["name": "cros-ec-lid-angle", "in_angl_raw": "95"])
        guard let hinge = try IIOProbe.probe(device.info())?.driver as? IIOHinge else {
            Issue.record("not a hinge")
            return
        }
        #expect(try hinge.read() == 95)
    }

    @Test("Other IIO devices are not sensors Sextant uses")
    func others() throws {
        #expect(try IIOProbe.probe(FakeIIODevice(["name": "als", "in_illuminance_raw": "30"]).info()) == nil)
        // An angle channel on a device that is not a hinge (a resolver, an inclinometer).
        #expect(try IIOProbe.probe(FakeIIODevice(["name": "ad2s1210", "in_angl0_raw": "30"]).info()) == nil)
        // Two axes are not an accelerometer.
        #expect(try IIOProbe.probe(FakeIIODevice(["in_accel_x_raw": "1", "in_accel_y_raw": "1"]).info()) == nil)
    }

    @Test("A vanished device reads as gone; a value that is not a number as such")
    func readErrors() throws {
        let device = try FakeIIODevice(["in_accel_x_raw": "1", "in_accel_y_raw": "2", "in_accel_z_raw": "3"])
        let sensor = try #require(try IIOProbe.probe(device.info()))
        try device.set("in_accel_y_raw", "busy")
        #expect(throws: SysfsReadError.notANumber(path: device.syspath + "/in_accel_y_raw", text: "busy")) { try sensor.read() }
        try FileManager.default.removeItem(atPath: device.syspath)
        do {
            _ = try sensor.read()
            Issue.record("read a removed device")
        } catch {
            #expect(error.deviceIsGone)
        }
    }
}

@Suite("IIO sensors in use")
struct IIOSensorSetTests {
    private func accelerometer(_ sysname: String, location: String? = nil) -> IIOSensor {
        let info = IIODeviceInfo(sysname: sysname, syspath: "/sys/devices/" + sysname)
        let channel = IIOChannel(rawPath: "", scale: 1)
        return IIOSensor(
            IIOAccelerometer(
                device: info, axes: IIOAxes(x: channel, y: channel, z: channel, mountMatrix: .identity, mountMatrixOrigin: "identity"),
                location: location))
    }

    private func hinge(_ sysname: String) -> IIOSensor {
        IIOSensor(IIOHinge(device: IIODeviceInfo(sysname: sysname, syspath: ""), channel: IIOChannel(rawPath: "", scale: 1), scaledToRadians: false))
    }

    @Test("One accelerometer (not in a base) and one hinge, in device order; the next takes over")
    func choice() {
        var set = IIOSensorSet()
        #expect(set.summary == "no sensors")
        set.insert(accelerometer("iio:device10"))
        set.insert(accelerometer("iio:device2"))
        set.insert(accelerometer("iio:device1", location: "base"))
        set.insert(hinge("iio:device3"))
        #expect(set.summary == "accel iio:device2, hinge iio:device3")
        set.remove("iio:device2")
        #expect(set.summary == "accel iio:device10, hinge iio:device3")
        set.remove("iio:device10")
        set.remove("iio:device3")
        #expect(set.summary == "no sensors")
        #expect(set.sensors.count == 1)
    }

    @Test("Inserting the same sensor again changes nothing")
    func idempotent() {
        var set = IIOSensorSet()
        let first = set.insert(hinge("iio:device0"))
        let again = set.insert(hinge("iio:device0"))
        #expect(first && !again)
    }
}

@Suite("Sample clock")
struct MonotonicWallClockTests {
    @Test("Wall time plus the monotonic step; anchored again past 1 s of disagreement")
    func mapping() {
        var clock = MonotonicWallClock(monotonicAnchor: 1_000, wallAnchor: 1_700_000_000_000_000_000)
        // 20 ms later on both clocks, the wall jittered by 3 ms: the monotonic step wins.
        #expect(clock.timestamp(monotonic: 20_001_000, wall: 1_700_000_000_023_000_000).nanoseconds == 1_700_000_000_020_000_000)
        // A suspend: the monotonic clock advanced 40 ms while the wall advanced an hour.
        let resumed = clock.timestamp(monotonic: 60_001_000, wall: 1_700_003_600_000_000_000)
        #expect(resumed.nanoseconds == 1_700_003_600_000_000_000)
        #expect(clock.timestamp(monotonic: 80_001_000, wall: 1_700_003_600_020_500_000).nanoseconds == 1_700_003_600_020_000_000)
    }

    @Test("Reads the clock it is given: stamps follow a clock moved by hand, not the machine's")
    func injectedClock() {
        let now = Mutex<(monotonic: Int64, wall: Int64)>((5_000, 1_800_000_000_000_000_000))
        let handMoved = SextantClock(
            monotonicNanoseconds: { now.withLock { $0.monotonic } }, wallTime: { Timestamp(nanoseconds: now.withLock { $0.wall }) })
        var stamps = MonotonicWallClock(clock: handMoved)
        #expect(stamps.now().nanoseconds == 1_800_000_000_000_000_000)
        now.withLock { $0 = ($0.monotonic + 20_000_000, $0.wall + 21_000_000) }
        #expect(stamps.now().nanoseconds == 1_800_000_000_020_000_000, "the monotonic step, not the wall's")
    }
}

@Suite("IIO readings range-checked")
struct IIOReadingCheckTests {
    @Test("±1000 m/s² passes; beyond it, ±∞ and NaN are refused, naming the axis")
    func accelerationBound() {
        #expect(IIOReadingCheck.problem(.acceleration(Acceleration(x: 0, y: 9.81, z: 0))) == nil)
        #expect(IIOReadingCheck.problem(.acceleration(Acceleration(x: -1000, y: 1000, z: 0))) == nil)
        #expect(IIOReadingCheck.problem(.acceleration(Acceleration(x: 0, y: 1000.5, z: 0)))?.contains("acceleration y") == true)
        #expect(IIOReadingCheck.problem(.acceleration(Acceleration(x: -1e308, y: 0, z: 0)))?.contains("acceleration x") == true)
        #expect(IIOReadingCheck.problem(.acceleration(Acceleration(x: 0, y: 0, z: .infinity))) != nil)
        #expect(IIOReadingCheck.problem(.acceleration(Acceleration(x: .nan, y: 0, z: 0))) != nil)
        #expect(IIOReadingCheck.problem(.hingeAngle(90)) == nil)
        #expect(IIOReadingCheck.problem(.hingeAngle(.nan)) != nil)
    }

    @Test("A huge scale, a huge offset and a huge raw value all give readings the check refuses")
    func overflowingAttributes() throws {
        func reading(_ attributes: [String: String]) throws -> SampleValue? {
            let device = try FakeIIODevice(
                ["in_accel_x_raw": "0", "in_accel_y_raw": "-981", "in_accel_z_raw": "0", "in_accel_scale": "0.01"].merging(attributes) { $1 })
            return try IIOProbe.probe(device.info())?.read()
        }
        let sane = try #require(try reading([:]))
        #expect(IIOReadingCheck.problem(sane) == nil)
        for attributes in [["in_accel_scale": "1e300"], ["in_accel_offset": "1e308"], ["in_accel_x_raw": "1.7e308", "in_accel_scale": "10"]] {
            let value = try #require(try reading(attributes))
            #expect(IIOReadingCheck.problem(value) != nil, "\(attributes) read as \(value)")
        }
    }

    @Test("Warned once, then at most once per interval with the count held back; forgotten on removal")
    func rateLimit() {
        var warnings = RateLimitedWarnings(interval: 10)
        #expect(warnings.note("iio:device0", at: 0) == 0)
        #expect(warnings.note("iio:device0", at: 1) == nil)
        #expect(warnings.note("iio:device0", at: 9) == nil)
        #expect(warnings.note("iio:device1", at: 9) == 0, "each sensor on its own")
        #expect(warnings.note("iio:device0", at: 10) == 2)
        #expect(warnings.note("iio:device0", at: 11) == nil)
        warnings.forget("iio:device0")
        #expect(warnings.note("iio:device0", at: 12) == 0)
    }
}
