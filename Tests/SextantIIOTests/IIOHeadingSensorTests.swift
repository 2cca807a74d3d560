import Foundation
import SextantCore
@testable import SextantIIO
import SextantTestSupport
import Testing

private func near(_ f: MagneticField, _ x: Double, _ y: Double, _ z: Double) -> Bool {
    abs(f.x - x) < 1e-9 && abs(f.y - y) < 1e-9 && abs(f.z - z) < 1e-9
}

/// The HID sensor hub's `magn_3d` as `hid-sensor-magn-3d` lays it out: field and heading
/// channels, each type with its shared scale and offset.
func hidMagn3DAttributes(field: (Int, Int, Int) = (200, -150, -400), heading: Int = 1234) -> [String: String] {
    [
        "name": "magn_3d", "in_magn_x_raw": "\(field.0)", "in_magn_y_raw": "\(field.1)", "in_magn_z_raw": "\(field.2)",
        "in_magn_scale": "0.001", "in_magn_offset": "0",
        "in_rot_from_north_magnetic_tilt_comp_raw": "\(heading)", "in_rot_scale": "0.1", "in_rot_offset": "0",
    ]
}

@Suite("IIO magnetometer and compass")
struct IIOHeadingSensorTests {
    @Test("Magnetometer: gauss after offset and scale (IIO ABI), × 100 into µT, mount matrix applied and nothing negated")
    func magnetometer() throws {
        let device = try FakeIIODevice([
            "name": "ak8975", "in_magn_x_raw": "100", "in_magn_y_raw": "-50", "in_magn_z_raw": "20",
            "in_magn_x_scale": "0.003", "in_magn_y_scale": "0.002", "in_magn_z_scale": "0.001", "in_magn_offset": "10",
            "in_magn_mount_matrix": "0, 1, 0; 1, 0, 0; 0, 0, -1",
        ])
        let magnet = try #require(try IIOProbe.probe(device.info())?.driver as? IIOMagnetometer)
        #expect(magnet.mountMatrixOrigin == "in_magn_mount_matrix")
        // Gauss: x (100 + 10) × 0.003 = 0.33, y (-50 + 10) × 0.002 = -0.08, z (20 + 10) × 0.001 = 0.03.
        // Swapped and z mirrored: (-0.08, 0.33, -0.03) G = (-8, 33, -3) µT.
        #expect(near(try magnet.read(), -8, 33, -3))
        try device.set("in_magn_x_raw", "-10")
        // x: 0 G. → (-8, 0, -3).
        #expect(near(try magnet.read(), -8, 0, -3))
    }

    @Test("HID magn_3d is a magnetometer and a compass: both read, in the drivers' order")
    func hidMagn3D() throws {
        let device = try FakeIIODevice(hidMagn3DAttributes())
        let sensors = try IIOProbe.probeAll(device.info())
        #expect(sensors.map(\.kind) == ["magnet", "compass"])
        // (200, -150, -400) × 0.001 G = (20, -15, -40) µT; 1234 × 0.1 = 123.4°.
        #expect(try sensors[0].read().magneticField.map { near($0, 20, -15, -40) } == true)
        let heading = try #require(try sensors[1].read().compass)
        #expect(abs(try #require(heading.magnetic) - 123.4) < 1e-9 && heading.trueHeading == nil)

        var set = IIOSensorSet()
        set.set("iio:device0", to: sensors)
        #expect(set.summary == "magnet iio:device0, compass iio:device0")
        #expect(set.remove("iio:device0").count == 2 && set.summary == "no sensors")
    }

    @Test("Compass: the channel's own scale and offset win over in_rot_'s; a true-north channel is the true heading")
    func compassChannels() throws {
        let device = try FakeIIODevice([
            "in_rot_from_north_magnetic_tilt_comp_raw": "900", "in_rot_from_north_magnetic_tilt_comp_scale": "0.01",
            "in_rot_from_north_magnetic_tilt_comp_offset": "100",
            "in_rot_from_north_true_tilt_comp_raw": "95", "in_rot_scale": "1", "in_rot_offset": "-5",
        ])
        let compass = try #require(try IIOProbe.probe(device.info())?.driver as? IIOCompass)
        // (900 + 100) × 0.01 = 10°; (95 - 5) × 1 = 90°.
        #expect(try compass.read() == CompassReading(magnetic: 10, trueHeading: 90))
    }

    @Test("Compass: a turn either side wraps into 0 ..< 360; past that the range check refuses the reading")
    func compassWraps() throws {
        #expect(IIOCompass.degrees(-90) == 270 && IIOCompass.degrees(360) == 0 && IIOCompass.degrees(719) == 359)
        let device = try FakeIIODevice(["in_rot_from_north_magnetic_tilt_comp_raw": "-1800", "in_rot_scale": "0.1"])
        let sensor = try #require(try IIOProbe.probe(device.info()))
        #expect(try sensor.read().compass?.magnetic == 180)
        #expect(IIOReadingCheck.problem(try sensor.read()) == nil)
        try device.set("in_rot_scale", "1e6")
        let broken = try #require(try IIOProbe.probe(device.info()))
        #expect(IIOReadingCheck.problem(try broken.read())?.contains("compass heading magnetic") == true)
    }

    @Test("A field past ±5000 µT (a huge scale) is refused by the range check, naming the axis")
    func fieldRange() throws {
        let device = try FakeIIODevice(["in_magn_x_raw": "1", "in_magn_y_raw": "1", "in_magn_z_raw": "1", "in_magn_scale": "51"])
        let sensor = try #require(try IIOProbe.probe(device.info()))
        #expect(IIOReadingCheck.problem(try sensor.read())?.contains("magnetic field x") == true)
    }

    @Test("A value that is not a number is refused with its path: a raw value at the read, a scale at the probe")
    func badValues() throws {
        let device = try FakeIIODevice(hidMagn3DAttributes())
        let sensors = try IIOProbe.probeAll(device.info())
        try device.set("in_magn_y_raw", "busy")
        #expect(throws: SysfsReadError.notANumber(path: device.syspath + "/in_magn_y_raw", text: "busy")) { try sensors[0].read() }
        try device.set("in_rot_scale", "0,1")
        #expect(throws: SysfsReadError.notANumber(path: device.syspath + "/in_rot_scale", text: "0,1")) { try IIOProbe.probeAll(device.info()) }
    }
}
