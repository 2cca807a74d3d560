import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// The live IIO source of the real `sextantd`, in a umockdev testbed of fake sensors.
///
/// Expected values are worked out here by hand from RULES "Device orientation" (IIO reads
/// `s = M × ((raw + offset) × scale)`, upright portrait as `s.y ≈ -9.81`; Sextant's sample
/// is `-s`) and from the IIO ABI (angles are radians after scaling). Each test waits for
/// what it expects by polling `status` or short recordings against a deadline.
@Suite("IIO sensors under umockdev", .serialized, .requires(IIOTestbed.requirement))
struct IIOSensorTests {
    private let accelName = "iio:device0"
    private let hingeName = "iio:device1"

    private func daemon(in testbed: IIOTestbed, arguments: [String] = []) throws -> DaemonHarness {
        try DaemonHarness(arguments: arguments, sensors: testbed)
    }

    @Test("Device orientation: raw × scale, negated; wall-clock times at the set rate; new values seen while running")
    func accelerometerValues() throws {
        let testbed = try IIOTestbed()
        // Upright portrait as IIO reads it: y = -981 × 0.01 = -9.81 m/s².
        let syspath = try testbed.add(accelName, attributes: accelerometerAttributes(raw: (0, -981, 0)))
        let before = Date()
        let daemon = try daemon(in: testbed, arguments: ["--iio-rate", "25"])
        try daemon.waitForIIOState("accel \(accelName)")

        let upright = try daemon.recordUntil("upright portrait (0, 9.81, 0)", window: 0.5) { trace in
            trace.accelerations.count >= 5 && trace.accelerations.allSatisfy { near($0, (0, 9.81, 0)) }
        }
        // Samples carry wall-clock times, like the manual source's.
        let start = try #require(upright.start)
        #expect(abs(start.seconds - before.timeIntervalSince1970) < 30)
        // --iio-rate 25: readings 40 ms apart (the median, so one late reading does not count).
        let times = upright.samples.map(\.t)
        let gaps = zip(times.dropFirst(), times).map { $0 - $1 }.sorted()
        let median = gaps[gaps.count / 2]
        #expect(median > 0.030 && median < 0.050, "median gap \(median) s at 25 Hz")

        // The device turned onto its left side, as IIO reads it: x = +9.81 → Sextant x = -9.81.
        try testbed.set(syspath, ["in_accel_x_raw": "981", "in_accel_y_raw": "0"])
        _ = try daemon.recordUntil("(-9.81, 0, 0) after the raw values changed") { trace in
            trace.accelerations.last.map { near($0, (-9.81, 0, 0)) } ?? false
        }
    }

    @Test("Device orientation: ACCEL_MOUNT_MATRIX swaps axes before the negation; a change uevent brings a new one")
    func mountMatrix() throws {
        let testbed = try IIOTestbed()
        // A cyclic permutation (device x = sensor y, y = sensor z, z = sensor x), which is
        // not its own transpose, so applying it the wrong way round shows.
        let syspath = try testbed.add(
            accelName, attributes: accelerometerAttributes(raw: (100, 200, 300)),
            properties: ["ACCEL_MOUNT_MATRIX": "0, 1, 0; 0, 0, 1; 1, 0, 0"])
        let daemon = try daemon(in: testbed)
        try daemon.waitForIIOState("accel \(accelName)")
        // Sensor (1, 2, 3) m/s² → M × v = (2, 3, 1) → negated (-2, -3, -1).
        _ = try daemon.recordUntil("(-2, -3, -1)") { trace in
            trace.accelerations.last.map { near($0, (-2, -3, -1)) } ?? false
        }

        // udev's hwdb is updated and the device re-triggered: x and y swapped, z mirrored.
        try testbed.setProperties(syspath, ["ACCEL_MOUNT_MATRIX": "0, 1, 0; 1, 0, 0; 0, 0, -1"])
        try testbed.uevent(syspath, "change")
        // Sensor (1, 2, 3) → (2, 1, -3) → (-2, -1, 3).
        _ = try daemon.recordUntil("(-2, -1, 3) after the change uevent") { trace in
            trace.accelerations.last.map { near($0, (-2, -1, 3)) } ?? false
        }
    }

    @Test("Device orientation: sysfs in_accel_mount_matrix, per-axis scales and an offset")
    func perAxisScale() throws {
        let testbed = try IIOTestbed()
        try testbed.add(
            accelName,
            attributes: [
                "name": "accel_3d", "in_accel_x_raw": "10", "in_accel_y_raw": "20", "in_accel_z_raw": "30",
                "in_accel_x_scale": "0.5", "in_accel_y_scale": "0.25", "in_accel_z_scale": "0.125", "in_accel_offset": "2",
                "in_accel_mount_matrix": "0, 1, 0; 1, 0, 0; 0, 0, 1",
            ])
        let daemon = try daemon(in: testbed)
        try daemon.waitForIIOState("accel \(accelName)")
        // x: (10 + 2) × 0.5 = 6; y: (20 + 2) × 0.25 = 5.5; z: (30 + 2) × 0.125 = 4.
        // Swapped: (5.5, 6, 4); negated: (-5.5, -6, -4).
        _ = try daemon.recordUntil("(-5.5, -6, -4)") { trace in
            trace.accelerations.last.map { near($0, (-5.5, -6, -4)) } ?? false
        }
    }

    @Test("Readings of ±1e306 m/s² (raw 1e308) or from a scale of 1e300 are dropped, warned about once, and leave the judge as it was")
    func outOfRangeReadings() throws {
        let testbed = try IIOTestbed()
        let syspath = try testbed.add(accelName, attributes: accelerometerAttributes(raw: (0, -981, 0)))
        let daemon = try daemon(in: testbed)
        try daemon.waitForIIOState("accel \(accelName)")
        try daemon.waitForStatus("device orientation portrait") { $0["deviceOrientation"] == "portrait" }
        let warning = "iio: accel \(accelName) reading out of range, dropped"

        // (1e308 + 0) × 0.01 = 1e306 m/s² on x: past the 1000 m/s² bound.
        try testbed.set(syspath, ["in_accel_x_raw": "1e308"])
        try daemon.waitForLog(warning, timeout: 10)
        let warnedAt = monotonicSeconds()
        _ = try daemon.recordUntil("no acceleration while the sensor reads 1e306", window: 0.3) { $0.accelerations.isEmpty }
        // At 50 Hz, 0.3 s is 15 readings dropped; the log warns once per 10 s at most.
        let warnings = daemon.log().components(separatedBy: warning).count - 1
        let allowed = 1 + Int((monotonicSeconds() - warnedAt) / 10)
        #expect(warnings >= 1 && warnings <= allowed, "\(warnings) warnings: once per 10 s, not at every reading")
        #expect(try daemon.control().call(Method.status)["deviceOrientation"] == "portrait")

        try testbed.set(syspath, ["in_accel_x_raw": "0"])
        _ = try daemon.recordUntil("upright portrait again") { trace in
            !trace.accelerations.isEmpty && trace.accelerations.allSatisfy { near($0, (0, 9.81, 0)) }
        }

        // A scale of 1e300, brought by a change uevent: -981 × 1e300 on y.
        try testbed.set(syspath, ["in_accel_scale": "1e300"])
        try testbed.uevent(syspath, "change")
        try daemon.waitForLog(warning, count: 2, timeout: 10)
        _ = try daemon.recordUntil("no acceleration with a scale of 1e300", window: 0.3) { $0.accelerations.isEmpty }
        #expect(try daemon.control().call(Method.status)["deviceOrientation"] == "portrait")
        #expect(daemon.process.isRunning)
    }

    @Test("Hotplug: a sensor removed is dropped (status, no more samples, daemon alive); re-added, it is back")
    func removeAndReAdd() throws {
        let testbed = try IIOTestbed()
        let accelerometer = accelerometerAttributes(raw: (0, 0, -981))
        let accelPath = try testbed.add(accelName, attributes: accelerometer)
        let hingePath = try testbed.add(hingeName, attributes: ["name": "cros-ec-lid-angle", "in_angl_raw": "100"])
        let daemon = try daemon(in: testbed)
        try daemon.waitForIIOState("accel \(accelName), hinge \(hingeName)")
        _ = try daemon.recordUntil("face up (0, 0, 9.81) and the hinge") { trace in
            trace.accelerations.last.map { near($0, (0, 0, 9.81)) } ?? false && trace.hingeAngles.last == 100
        }

        try testbed.remove(accelPath)
        try daemon.waitForIIOState("hinge \(hingeName)")
        #expect(daemon.log().contains("iio: accel \(accelName) removed"))
        // The hinge goes on being read while the accelerometer is silent: a recording with
        // ten hinge samples and not one acceleration.
        let after = try daemon.recordUntil("ten hinge samples", window: 0.4) { $0.hingeAngles.count >= 10 }
        #expect(after.accelerations.isEmpty)
        #expect(daemon.process.isRunning)

        try testbed.add(accelName, attributes: accelerometer)
        try daemon.waitForIIOState("accel \(accelName), hinge \(hingeName)")
        _ = try daemon.recordUntil("the accelerometer again") { trace in
            trace.accelerations.last.map { near($0, (0, 0, 9.81)) } ?? false
        }
        try testbed.remove(hingePath)
        try daemon.waitForIIOState("accel \(accelName)")
    }

    @Test("Hotplug: a sensor that vanishes without a uevent is dropped at its read error")
    func vanishes() throws {
        let testbed = try IIOTestbed()
        let path = try testbed.add(accelName, attributes: accelerometerAttributes(raw: (0, -981, 0)))
        let daemon = try daemon(in: testbed)
        try daemon.waitForIIOState("accel \(accelName)")
        try testbed.remove(path, uevent: false)
        try daemon.waitForIIOState("no sensors")
        #expect(daemon.log().contains("iio: accel \(accelName) vanished"))
        // No stale reading: a recording over half a second (25 periods) has none.
        _ = try daemon.control().call(Method.recordStart, ["path": .string(daemon.directory + "/after.jsonl")])
        usleep(500_000)  // an absence can only be watched for a while
        _ = try daemon.control().call(Method.recordStop)
        #expect(try RecordedTrace(path: daemon.directory + "/after.jsonl").samples.isEmpty)
        #expect(daemon.process.isRunning)
    }

    @Test("Hotplug: a daemon started without sensors says so, then picks one up")
    func startsEmpty() throws {
        let testbed = try IIOTestbed()
        let daemon = try daemon(in: testbed)
        try daemon.waitForIIOState("no sensors")
        try testbed.add(accelName, attributes: accelerometerAttributes(raw: (-981, 0, 0)))
        try daemon.waitForIIOState("accel \(accelName)")
        #expect(daemon.log().contains("iio: accel \(accelName) found"))
        // IIO x = -9.81 (iio-sensor-proxy's right-up) → Sextant x = +9.81.
        _ = try daemon.recordUntil("(9.81, 0, 0)") { trace in
            trace.accelerations.last.map { near($0, (9.81, 0, 0)) } ?? false
        }
    }

    @Test("P1: HID hinge: in_angl0_raw labelled hinge, scaled to radians, recorded in degrees")
    func hidHinge() throws {
        let testbed = try IIOTestbed()
        let radiansPerDegree = "0.017453293"  // the HID hinge driver's scale
        let path = try testbed.add(
            hingeName,
            attributes: [
                "name": "hinge", "in_angl0_raw": "90", "in_angl0_label": "hinge", "in_angl1_raw": "10",
                "in_angl1_label": "keyboard", "in_angl_scale": radiansPerDegree,
            ])
        let daemon = try daemon(in: testbed)
        try daemon.waitForIIOState("hinge \(hingeName)")
        let degreesPerRadian = 180 / Double.pi
        _ = try daemon.recordUntil("a hinge angle of 90°") { trace in
            trace.hingeAngles.last.map { near($0, 90 * 0.017453293 * degreesPerRadian) } ?? false
        }
        try testbed.set(path, ["in_angl0_raw": "160"])
        _ = try daemon.recordUntil("a hinge angle of 160°") { trace in
            trace.hingeAngles.last.map { near($0, 160 * 0.017453293 * degreesPerRadian) } ?? false
        }
    }

    @Test("P1: ChromeOS lid angle: in_angl_raw in degrees; over 180 counts as flat")
    func crosLidAngle() throws {
        let testbed = try IIOTestbed()
        let path = try testbed.add(hingeName, attributes: ["name": "cros-ec-lid-angle", "in_angl_raw": "45"])
        let daemon = try daemon(in: testbed)
        try daemon.waitForIIOState("hinge \(hingeName)")
        _ = try daemon.recordUntil("45°") { $0.hingeAngles.last == 45 }
        try testbed.set(path, ["in_angl_raw": "300"])
        _ = try daemon.recordUntil("180° for a lid folded back to 300°") { $0.hingeAngles.last == 180 }
    }

    @Test("--no-iio: the source is off, no sensor is read")
    func noIIO() throws {
        let testbed = try IIOTestbed()
        try testbed.add(accelName, attributes: accelerometerAttributes(raw: (0, -981, 0)))
        let daemon = try daemon(in: testbed, arguments: ["--no-iio"])
        #expect(try daemon.iioState() == "off")
        _ = try daemon.control().call(Method.recordStart, ["path": .string(daemon.directory + "/off.jsonl")])
        usleep(1_000_000)  // an absence can only be watched for a while: 50 periods at the default rate
        _ = try daemon.control().call(Method.recordStop)
        #expect(try RecordedTrace(path: daemon.directory + "/off.jsonl").samples.isEmpty)
        #expect(!daemon.log().contains("iio: accel"))
    }

    @Test("An orderly stop with sensors being read ends promptly and cleanly")
    func orderlyStop() throws {
        let testbed = try IIOTestbed()
        try testbed.add(accelName, attributes: accelerometerAttributes(raw: (0, -981, 0)))
        let daemon = try daemon(in: testbed)
        try daemon.waitForIIOState("accel \(accelName)")
        daemon.process.terminate()
        let deadline = Date().addingTimeInterval(10)
        while daemon.process.isRunning, Date() < deadline { usleep(20_000) }  // polling for the exit, with a deadline
        #expect(!daemon.process.isRunning, "sextantd did not stop within 10 s")
        if !daemon.process.isRunning { #expect(daemon.process.terminationStatus == 0) }
        #expect(daemon.log().contains("sextantd stopped"))
    }
}

@Suite("IIO options")
struct IIOOptionTests {
    @Test("--iio-rate must be above 0 and at most 1000")
    func rateBounds() throws {
        for bad in ["0", "-5", "1001"] {
            let result = try run([Binaries.sextantd, "--iio-rate=\(bad)", "--runtime-dir", NSTemporaryDirectory() + "sextant-unused"])
            #expect(result.status == 64, "--iio-rate \(bad)")
            #expect(result.stderr.contains("--iio-rate"), "\(result.stderr)")
        }
    }
}
