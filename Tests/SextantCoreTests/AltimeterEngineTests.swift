import SextantCore
import SextantProtocol
import Testing

@Suite("Altimeter: the standard atmosphere and the engine (RULES B1–B3)")
struct AltimeterEngineTests {
    static func at(_ seconds: Double) -> Timestamp { Timestamp(nanoseconds: Int64(seconds * 1e9)) }

    @Test("B2: p = p0 × (1 − h/44330)^5.255 and its inverse, Android's SensorManager.getAltitude")
    func standardAtmosphere() {
        #expect(StandardAtmosphere.pressure(atAltitude: 0) == 1013.25)
        // 1000 m: 898.76 hPa, as the ISA table gives it.
        #expect(abs(StandardAtmosphere.pressure(atAltitude: 1000) - 898.76) < 0.01)
        #expect(abs(StandardAtmosphere.altitude(atPressure: 898.76) - 1000) < 0.1)
        // p0 scales the pressure.
        #expect(abs(StandardAtmosphere.pressure(atAltitude: 100, seaLevel: 1020) - 1020 / 1013.25 * StandardAtmosphere.pressure(atAltitude: 100)) < 1e-9)
        #expect(StandardAtmosphere.pressure(atAltitude: 50_000) == 0)
        for h in stride(from: -400.0, through: 8848, by: 400) {
            #expect(abs(StandardAtmosphere.altitude(atPressure: StandardAtmosphere.pressure(atAltitude: h)) - h) < 1e-6)
        }
    }

    @Test("B2: without a barometer the pressure comes from each fix's altitude, in kPa, at most once a second")
    func derivedFromFixes() throws {
        var engine = AltimeterEngine()
        let made = engine.fix(altitude: 35, verticalAccuracy: 3, at: Self.at(0))
        let first = try #require(made)
        #expect(first.derived && first.altitude == 35 && first.absoluteAltitude == 35 && first.accuracy == 3)
        #expect(abs(first.pressure - StandardAtmosphere.pressure(atAltitude: 35) / 10) < 1e-12)
        let early = engine.fix(altitude: 36, verticalAccuracy: 3, at: Self.at(0.5))
        #expect(early == nil, "half a second later: not yet")
        let second = engine.fix(altitude: 37, verticalAccuracy: 3, at: Self.at(1.0))
        #expect(second?.altitude == 37)
        let none = engine.fix(altitude: nil, verticalAccuracy: nil, at: Self.at(2.0))
        #expect(none == nil, "a fix without altitude says nothing")
        let back = engine.fix(altitude: 10, verticalAccuracy: nil, at: Self.at(0.2))
        #expect(back?.altitude == 10, "a replay sought back starts afresh")
    }

    @Test("B2: a barometer heard is the source; the fix anchors the absolute altitude; silent 5 s, the fixes take over")
    func barometerFirst() throws {
        var engine = AltimeterEngine()
        let p100 = StandardAtmosphere.pressure(atAltitude: 100)
        let made = engine.barometer(hectopascals: p100, at: Self.at(0))
        let first = try #require(made)
        #expect(!first.derived && abs(first.altitude - 100) < 1e-6 && abs(first.pressure - p100 / 10) < 1e-12 && first.accuracy == nil)
        // The fix says 130 m where the pressure says 100: the absolute altitude is the fix's,
        // moved by the pressure since.
        let anchored = engine.fix(altitude: 130, verticalAccuracy: 4, at: Self.at(0.5))
        #expect(anchored == nil)
        let p110 = StandardAtmosphere.pressure(atAltitude: 110)
        let next = engine.barometer(hectopascals: p110, at: Self.at(1))
        let second = try #require(next)
        #expect(abs(second.altitude - 110) < 1e-6 && abs(second.absoluteAltitude - 140) < 1e-6 && second.accuracy == 4)
        let taken = engine.fix(altitude: 200, verticalAccuracy: 2, at: Self.at(6.5))
        let later = try #require(taken)
        #expect(later.derived && later.altitude == 200)
    }
}
