import Foundation
import SextantCore
@testable import SextantIIO
import SextantTestSupport
import Testing

@Suite("IIO ambient light and proximity")
struct IIOEnvironmentSensorTests {
    @Test("Light: a processed in_illuminance_input is lux as it is; a raw value takes its offset and scale (IIO ABI)")
    func light() throws {
        let processed = try FakeIIODevice(["name": "acpi-als", "in_illuminance_input": "320.5"])
        let als = try #require(try IIOProbe.probe(processed.info())?.driver as? IIOLight)
        #expect(try als.reading().lux == 320.5)

        let raw = try FakeIIODevice(["name": "cm32181", "in_illuminance_raw": "1000", "in_illuminance_scale": "0.25", "in_illuminance_offset": "-40"])
        let sensor = try #require(try IIOProbe.probe(raw.info()))
        #expect(sensor.kind == "light")
        // (1000 - 40) × 0.25 = 240 lux.
        #expect(try sensor.read() == .illuminance(240))
        try raw.set("in_illuminance_raw", "0")
        #expect(try sensor.read() == .illuminance(0), "below zero after the offset reads 0")
    }

    @Test("Light: the indexed in_illuminance0 channels when the unindexed are absent")
    func indexedLight() throws {
        let device = try FakeIIODevice(["name": "tsl2563", "in_illuminance0_raw": "80", "in_illuminance0_scale": "2"])
        let als = try #require(try IIOProbe.probe(device.info())?.driver as? IIOLight)
        #expect(try als.reading().lux == 160)
    }

    @Test("E4: proximity near and far against udev's PROXIMITY_NEAR_LEVEL, else in_proximity_nearlevel, with iio-sensor-proxy's margin")
    func proximity() throws {
        let device = try FakeIIODevice(["name": "vcnl4000", "in_proximity_raw": "50", "in_proximity_nearlevel": "300"])
        let fromProperty = try #require(try IIOProbe.probe(device.info(properties: ["PROXIMITY_NEAR_LEVEL": "100"]))?.driver as? IIOProximity)
        #expect(fromProperty.nearLevel == 100)
        #expect(try fromProperty.reading().isNear == false)
        try device.set("in_proximity_raw", "120")
        #expect(try fromProperty.reading().isNear == true)
        // After a level above 100, far only below 90.
        try device.set("in_proximity_raw", "95")
        #expect(try fromProperty.reading().isNear == true)
        let fromSysfs = try #require(try IIOProbe.probe(device.info())?.driver as? IIOProximity)
        #expect(fromSysfs.nearLevel == 300)
    }

    @Test("Proximity without a near level is not used, with a warning naming what is missing")
    func proximityWithoutNearLevel() throws {
        let device = try FakeIIODevice(["name": "vcnl4000", "in_proximity_raw": "50"])
        var warnings: [String] = []
        #expect(try IIOProbe.probe(device.info()) { warnings.append($0) } == nil)
        #expect(warnings.count == 1 && warnings[0].contains("PROXIMITY_NEAR_LEVEL"), "\(warnings)")
    }

    @Test("A light and proximity chip is two sensors, after the motion sensors in the drivers' order")
    func combinedChip() throws {
        let device = try FakeIIODevice(["name": "stk3310", "in_illuminance_raw": "10", "in_proximity_raw": "0", "in_proximity_nearlevel": "40"])
        let sensors = try IIOProbe.probeAll(device.info())
        #expect(sensors.map(\.kind) == ["light", "prox"])
        var set = IIOSensorSet()
        set.set("iio:device0", to: sensors)
        #expect(set.summary == "light iio:device0, prox iio:device0")
    }
}
