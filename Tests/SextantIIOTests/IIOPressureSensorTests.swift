import Foundation
import SextantCore
@testable import SextantIIO
import SextantTestSupport
import Testing

@Suite("IIO barometer")
struct IIOPressureSensorTests {
    @Test("A barometer's kPa (IIO ABI, after offset and scale; an _input as it is) is a pressure sample in hPa")
    func pressure() throws {
        let raw = try FakeIIODevice(["name": "bmp280", "in_pressure_raw": "25331", "in_pressure_scale": "0.004"])
        let sensor = try #require(try IIOProbe.probe(raw.info()))
        #expect(sensor.kind == "pressure")
        // 25331 × 0.004 = 101.324 kPa = 1013.24 hPa.
        #expect(abs(try #require(try sensor.driver.reading().hectopascals) - 1013.24) < 1e-9)
        let processed = try FakeIIODevice(["name": "lps22hb", "in_pressure_input": "98.5"])
        #expect(abs(try #require(try IIOProbe.probe(processed.info())?.driver.reading().hectopascals) - 985) < 1e-9)
    }
}
