import Foundation
import SextantCore
import SextantProtocol
import Testing

// Expectations from RULES H1–H7 by hand: fields are built from a heading, the field's
// horizontal and downward parts (µT) and the device's attitude (`Attitude`), so the
// heading each should give is known before the engine sees it.

/// A device's attitude: the top's azimuth from magnetic north, its pitch (top raised) and
/// its roll about the top, degrees; it turns Earth's field and gravity into the device frame.
struct Attitude {
    var azimuth: Double
    var pitch = 0.0
    var roll = 0.0

    typealias Vector = (e: Double, n: Double, u: Double)

    /// The device's axes in east, north, up.
    var axes: (x: Vector, y: Vector, z: Vector) {
        let (a, p, r) = (azimuth * .pi / 180, pitch * .pi / 180, roll * .pi / 180)
        let x0: Vector = (cos(a), -sin(a), 0), y0: Vector = (sin(a), cos(a), 0), z0: Vector = (0, 0, 1)
        let y1 = mix(y0, cos(p), z0, sin(p)), z1 = mix(z0, cos(p), y0, -sin(p))
        return (mix(x0, cos(r), z1, sin(r)), y1, mix(z1, cos(r), x0, -sin(r)))
    }

    func field(horizontal: Double = 20, down: Double = 40) -> MagneticField {
        let world: Vector = (0, horizontal, -down)
        let (x, y, z) = axes
        return MagneticField(x: dot(world, x), y: dot(world, y), z: dot(world, z))
    }

    var gravity: Acceleration {
        let (x, y, z) = axes
        let g = Acceleration.standardGravity
        return Acceleration(x: g * x.u, y: g * y.u, z: g * z.u)
    }

    private func mix(_ a: Vector, _ s: Double, _ b: Vector, _ t: Double) -> Vector {
        (a.e * s + b.e * t, a.n * s + b.n * t, a.u * s + b.u * t)
    }
    private func dot(_ a: Vector, _ b: Vector) -> Double { a.e * b.e + a.n * b.n + a.u * b.u }
}

private func instant(_ seconds: Double) -> Timestamp {
    Timestamp(year: 2026, month: 3, day: 1, secondsOfDay: 8 * 3600 + seconds)
}

private func isNear(_ a: Double?, _ b: Double, within: Double = 1e-6) -> Bool {
    guard let a else { return false }
    return HeadingMath.separation(a, b) <= within
}

@Suite("Heading engine (RULES H1–H7)")
struct HeadingEngineTests {
    @Test("H1: lying flat, the heading is the top's azimuth", arguments: [0.0, 45, 90, 200, 359])
    func testH1_flat(azimuth: Double) {
        var engine = HeadingEngine()
        let attitude = Attitude(azimuth: azimuth)
        engine.gravity(attitude.gravity)
        #expect(isNear(engine.judge(attitude.field(), at: instant(0))?.heading.magnetic, azimuth))
    }

    @Test(
        "H1: tilt compensation: pitch and roll leave the heading of the top as it was",
        arguments: [(30.0, 0.0), (-40, 0), (0, 35), (50, -30), (60, 20)])
    func testH1_tiltCompensated(pitch: Double, roll: Double) {
        for azimuth in [10.0, 135, 280] {
            var engine = HeadingEngine()
            let attitude = Attitude(azimuth: azimuth, pitch: pitch, roll: roll)
            engine.gravity(attitude.gravity)
            #expect(isNear(engine.judge(attitude.field(), at: instant(0))?.heading.magnetic, azimuth))
        }
    }

    @Test("H1: held upright (the top within 25° of vertical) the heading is where the back looks")
    func testH1_uprightUsesTheBack() {
        for pitch in [66.0, 80, 90] {
            var engine = HeadingEngine()
            let attitude = Attitude(azimuth: 70, pitch: pitch)
            engine.gravity(attitude.gravity)
            #expect(isNear(engine.judge(attitude.field(), at: instant(0))?.heading.magnetic, 70))
        }
    }

    @Test("H1: a field along gravity has no heading")
    func testH1_verticalFieldDecidesNothing() {
        var engine = HeadingEngine()
        engine.gravity(Acceleration(x: 0, y: 0, z: 9.8))
        #expect(engine.judge(MagneticField(x: 0, y: 0, z: -45), at: instant(0)) == nil)
    }

    @Test(
        "H2: turned to the interface: landscapeRight +90°, landscapeLeft −90°, upside down 180°",
        arguments: [
            (InterfaceOrientation.portrait, 350.0), (.landscapeRight, 80), (.landscapeLeft, 260),
            (.portraitUpsideDown, 170),
        ])
    func testH2_interfaceTurn(interface: InterfaceOrientation, expected: Double) {
        #expect(isNear(HeadingMath.turned(350, to: interface), expected))
    }

    @Test("H3: a clean field with gravity is 5°; without gravity the device counts as flat at 45°")
    func testH3_accuracy() {
        var engine = HeadingEngine()
        let flat = Attitude(azimuth: 30)
        let noGravity = engine.judge(flat.field(), at: instant(0))
        #expect(isNear(noGravity?.heading.magnetic, 30))
        #expect(noGravity?.heading.accuracy == HeadingEngine.noGravityAccuracy)
        engine.gravity(flat.gravity)
        #expect(engine.judge(flat.field(), at: instant(0.1))?.heading.accuracy == HeadingEngine.cleanAccuracy)
        #expect(engine.needsCalibration == false)
    }

    @Test("H3: an inclination 10°+ away from the model's at the last known place makes it 20°")
    func testH3_inclinationOffTheModel() {
        let flat = Attitude(azimuth: 30)
        func accuracy(horizontal: Double, down: Double) -> Double? {
            var engine = HeadingEngine()
            engine.gravity(flat.gravity)
            // The model: 20 µT north, 40 µT down (inclination 63.4°, total 44.7 µT).
            engine.expected = GeomagneticElements(north: 20_000, east: 0, down: 40_000)
            return engine.judge(flat.field(horizontal: horizontal, down: down), at: instant(0))?.heading.accuracy
        }
        #expect(accuracy(horizontal: 20, down: 40) == 5)
        // 72.9°: 9.5° off. 75.9°: the strength within 25%, the inclination 12.5° off.
        #expect(accuracy(horizontal: 13, down: 42.2) == 5)
        #expect(accuracy(horizontal: 11, down: 43.8) == 20)
    }

    @Test("H4, H5: a field drifting outside 20–70 µT raises calibration at 30° there, and clears it back inside")
    func testH4H5_strengthOutOfRange() {
        var engine = HeadingEngine()
        let flat = Attitude(azimuth: 0)
        engine.gravity(flat.gravity)
        // 44.7 µT → 89.4 µT and back over 40 s at 10 Hz: slow enough never to be sudden.
        var changes: [(Double, Bool)] = []
        var accuracies: [Double: Double] = [:]
        for step in 0...400 {
            let t = Double(step) / 10
            let k = 1 + (t <= 20 ? t : 40 - t) / 20
            guard let decision = engine.judge(flat.field(horizontal: 20 * k, down: 40 * k), at: instant(t)) else { continue }
            if let changed = decision.calibrationChanged { changes.append((t, changed)) }
            accuracies[t] = decision.heading.accuracy
        }
        // 44.72 × (1 + t/20) passes 70 µT at t = 11.31 s, and again on the way back at 28.69 s.
        #expect(changes.map(\.0) == [11.4, 28.7])
        #expect(changes.map(\.1) == [true, false])
        #expect(accuracies[11.3] == 5)
        #expect(accuracies[20] == HeadingEngine.disturbedAccuracy)
        #expect(accuracies[28.7] == 5)
    }

    @Test("H4: a magnet brought near (45 → 60 µT, within Earth's range) raises calibration until the average follows")
    func testH4_suddenChange() {
        var engine = HeadingEngine()
        let flat = Attitude(azimuth: 0)
        engine.gravity(flat.gravity)
        var raised: [Double] = []
        for step in -20...40 {
            let t = Double(step) / 10
            let field = t < 0 ? flat.field(horizontal: 20, down: 40) : flat.field(horizontal: 26.8, down: 53.7)
            if engine.judge(field, at: instant(t))?.calibrationChanged != nil { raised.append(t) }
        }
        // Raised at the jump; 15 µT off an average of 2 s decays below 10 µT after 0.8 s, and
        // the last sudden sample counts 2 s more.
        #expect(raised.count == 2)
        #expect(raised.first == 0)
        #expect((raised.last ?? 0) > 2.5 && (raised.last ?? 99) < 3.1)
    }

    @Test("H4: within Earth's range but 25%+ off the model's intensity at the last known place raises calibration")
    func testH4_strengthOffTheModel() {
        var engine = HeadingEngine()
        let flat = Attitude(azimuth: 0)
        engine.gravity(flat.gravity)
        engine.expected = GeomagneticElements(north: 25_000, east: 0, down: 45_000)  // 51.5 µT
        #expect(engine.judge(flat.field(horizontal: 15, down: 30), at: instant(0))?.calibrationChanged == true)
    }

    @Test("H1: a compass reading is taken as it is; true only needs the model's declination")
    func testH1_compassReadings() {
        var engine = HeadingEngine()
        let taken = engine.judge(CompassReading(magnetic: 87.5, accuracy: 10), at: instant(0))?.heading
        #expect(taken == Heading(magnetic: 87.5, accuracy: 10, field: nil, time: instant(0)))
        #expect(engine.judge(CompassReading(trueHeading: 91), at: instant(1)) == nil)
        engine.expected = GeomagneticElements(north: 20_000, east: 2_000, down: 40_000)  // D = 5.71°
        let derived = engine.judge(CompassReading(trueHeading: 3), at: instant(2))?.heading
        #expect(isNear(derived?.magnetic, 3 - atan2(2, 20) * 180 / .pi))
        #expect(derived?.reportedTrue == 3)
    }

    @Test("H7: headingFilter: delivered when it moved at least the filter from the last delivered, across north")
    func testH7_filter() {
        var stream = HeadingStream()
        #expect([0.0, 0.5, 0.99, 1.0, 1.5, 0.5, 359.9, 359.6].map { stream.admits($0) }
            == [true, false, false, true, false, false, true, false])
        // Filter 0: every change, of the heading or of its accuracy; a repeat is nothing new
        // (a compass held by hand at 50 Hz, issue 43.5).
        var everything = HeadingStream(filter: 0)
        #expect([(10.0, 5.0), (10, 5), (10.01, 5), (10.01, 3), (10.01, 3)].map { everything.admits($0.0, accuracy: $0.1) }
            == [true, false, true, true, false])
    }

    @Test("H6: the model is asked again only when the place moved 0.05° or the date a day")
    func testH6_modelCache() {
        var cache = MagneticModelCache()
        let here = cache.elements(latitude: 48.85, longitude: 2.35, height: 35, at: instant(0))
        let nearby = cache.elements(latitude: 48.87, longitude: 2.37, height: 35, at: instant(3600))
        #expect(here == nearby)
        let elsewhere = cache.elements(latitude: 48.85, longitude: 2.45, height: 35, at: instant(0))
        #expect(elsewhere == WorldMagneticModel.wmm2025.elements(
            latitude: 48.85, longitude: 2.45, height: 35, year: WorldMagneticModel.decimalYear(instant(0))))
        #expect(here != elsewhere)
    }
}
