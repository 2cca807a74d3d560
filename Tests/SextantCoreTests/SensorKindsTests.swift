import SextantCore
import Testing

@Suite("Sensor kinds: the registry and readings")
struct SensorKindsTests {
    @Test("The registry's names and IDs are unique, and each ID unpacks to its name")
    func uniqueNames() {
        let kinds = SensorKinds.all.kinds
        #expect(Set(kinds.map(\.name)).count == kinds.count)
        #expect(Set(kinds.map(\.id)).count == kinds.count)
        for kind in kinds {
            #expect(kind.id.description == kind.name)
            #expect(SensorKinds.all.kind(named: kind.name) === kind)
            #expect(Set(kind.fields.map(\.name)).count == kind.fields.count, "\(kind.name)'s fields")
            #expect(!["location", "gps"].contains(kind.name), "a trace's other sample keys")
        }
        #expect(kinds.map(\.name) == ["accel", "hinge", "magnet", "compass", "gyro"])
        #expect(kinds.map(\.topic) == ["orientation", "posture", "heading", "heading", "deviceMotion"])
    }

    @Test("A reading is checked against its kind's bounds, with the field's message")
    func bounds() {
        struct Refused: Error { let reason: String }
        /// The reading, or the reason it is refused.
        func read(_ kind: SensorKind, _ values: [Double?]) -> (SensorReading?, String?) {
            let value: (Int) throws(Refused) -> Double? = { values[$0] }
            do {
                return (try kind.reading(value, fail: { Refused(reason: $0) }), nil)
            } catch {
                return (nil, error.reason)
            }
        }
        #expect(read(.accelerometer, [0, 9.81, 0]).0 == Acceleration(x: 0, y: 9.81, z: 0).reading)
        #expect(read(.accelerometer, [0, 1000.5, 0]).1 == "accel: y must be a number within ±1000 m/s²")
        #expect(read(.accelerometer, [0, nil, 0]).1 == "accel.y is required")
        #expect(read(.hinge, [181]).1 == "hinge.angle must be within 0...180 degrees")
        #expect(read(.hinge, [180]).0?.hingeAngle == 180)
        #expect(SensorKind.accelerometer.rangeProblem(Acceleration(x: .nan, y: 0, z: 0).reading)?.hasPrefix("acceleration x") == true)
        #expect(read(.magnetometer, [20, -5000.5, 40]).1 == "magnet: y must be a number within ±5000 µT")
        #expect(read(.compass, [nil, 91.5, nil]).0 == CompassReading(trueHeading: 91.5).reading)
        #expect(read(.compass, [nil, nil, 5]).1 == "compass needs one of magnetic, true")
        #expect(SensorKind.compass.problem(SensorReading(kind: SensorKind.compass.id)) == "compass needs one of magnetic, true")
        #expect(read(.compass, [361, nil, nil]).1 == "compass.magnetic must be within 0...360 degrees")
    }

    @Test("Typed views give back what was stored, and nothing for another kind")
    func views() {
        let a = Acceleration(x: -0.5, y: 9.80665, z: 0.125)
        #expect(Acceleration(a.reading) == a)
        #expect(Acceleration(SensorReading(hingeAngle: 45)) == nil)
        #expect(SensorReading(hingeAngle: 45).hingeAngle == 45)
        #expect(a.reading.hingeAngle == nil)
        #expect(SampleValue.acceleration(a).acceleration == a && SampleValue.hingeAngle(45).hingeAngle == 45)
        let field = MagneticField(x: 22, y: 5.5, z: -40)
        #expect(MagneticField(field.reading) == field && MagneticField(a.reading) == nil)
        let compass = CompassReading(magnetic: 87.5, accuracy: 10)
        #expect(CompassReading(compass.reading) == compass && SampleValue.compass(compass).compass?.trueHeading == nil)
        // -0 and 0 are equal readings, as they are equal doubles.
        #expect(Acceleration(x: -0.0, y: 0, z: 0).reading == Acceleration(x: 0, y: 0, z: 0).reading)
    }

    @Test("O4a: each kind has its own arbiter; a hand-held accelerometer does not silence a live hinge")
    func arbitersPerKind() {
        var arbiters = SensorArbiters()
        let accel = SensorKind.accelerometer.id, hinge = SensorKind.hinge.id
        let heard = [
            arbiters.admits(accel, .manual, at: 0), arbiters.admits(accel, .live, at: 10_000_000), arbiters.admits(hinge, .live, at: 10_000_000),
            arbiters.admits(accel, .live, at: 10_000_000 + SensorArbiter.quietPeriod + 1),
        ]
        #expect(heard == [true, false, true, true])
    }
}
