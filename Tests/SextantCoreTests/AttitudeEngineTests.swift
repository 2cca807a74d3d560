import Foundation
import SextantCore
import SextantProtocol
import Testing

// Expectations by hand from a true attitude: a device turned and tilted by known angles
// (`Attitude` of the heading tests: azimuth of the top, pitch with the top raised, roll),
// whose gravity, field and rate are worked out before the engine sees them.

/// A simulated phone: its true attitude (device → east-north-up), and what its sensors read.
private struct Phone {
    var q: Quaternion
    /// Earth's field in east-north-up, µT (Paris: 21 north, 42 down).
    var earth = Vector3(0, 21, -42)

    init(_ attitude: Attitude) {
        let (x, y, z) = attitude.axes
        q = Quaternion(rows: Vector3(x.e, y.e, z.e), Vector3(x.n, y.n, z.n), Vector3(x.u, y.u, z.u))
    }

    var acceleration: Acceleration {
        let g = Acceleration.standardGravity * q.conjugate.rotate(.up)
        return Acceleration(x: g.x, y: g.y, z: g.z)
    }

    var field: MagneticField {
        let m = q.conjugate.rotate(earth)
        return MagneticField(x: m.x, y: m.y, z: m.z)
    }

    /// Turns at `rate` (rad/s about the device's axes) for `seconds`, feeding `engine` at
    /// `hz` from time `start`: gyroscope, accelerometer and (unless `withField` is false) field.
    mutating func turn(
        _ engine: inout AttitudeEngine, rate: Vector3, seconds: Double, hz: Double = 100, from start: Double,
        withField: Bool = true, gyroBias: Vector3 = .zero
    ) {
        let steps = Int((seconds * hz).rounded())
        for step in 1...steps {
            q = (q * Quaternion.turn(rate: rate, seconds: 1 / hz)).normalized
            let t = Timestamp(nanoseconds: Int64(((start + Double(step) / hz) * 1e9).rounded()))
            let measured = rate + gyroBias
            engine.gyroscope(RotationRate(x: measured.x, y: measured.y, z: measured.z), at: t)
            engine.accelerometer(acceleration, at: t)
            if withField { engine.magnetometer(field, at: t) }
        }
    }
}

private func instantAt(_ seconds: Double) -> Timestamp { Timestamp(nanoseconds: Int64((seconds * 1e9).rounded())) }

/// The angle between two rotations, degrees.
private func degreesBetween(_ a: Quaternion?, _ b: Quaternion) -> Double {
    guard let a else { return .infinity }
    let d = abs(a.w * b.w + a.x * b.x + a.y * b.y + a.z * b.z)
    return 2 * acos(min(1, d)) * 180 / .pi
}

@Suite("Attitude engine (RULES D1–D4)")
struct AttitudeEngineTests {
    @Test("D1: without a gyroscope, the attitude is the accelerometer's and the field's; its azimuth is the heading's (H1)",
          arguments: [(0.0, 0.0, 0.0), (45, 10, -5), (200, -30, 20), (300, 60, 0), (123, 5, 80)])
    func accelerometerAndField(azimuth: Double, pitch: Double, roll: Double) throws {
        let truth = Attitude(azimuth: azimuth, pitch: pitch, roll: roll)
        let phone = Phone(truth)
        var engine = AttitudeEngine()
        engine.accelerometer(phone.acceleration, at: instantAt(0))
        engine.magnetometer(phone.field, at: instantAt(0.01))
        #expect(degreesBetween(engine.magnetic, phone.q) < 1e-6)
        let angles = AttitudeAngles(try #require(engine.magnetic))
        #expect(HeadingMath.separation(angles.azimuth, azimuth) < 1e-6)
        #expect(abs(angles.pitch - -pitch) < 1e-6, "Android's pitch is negative with the top raised")
        let heading = try #require(HeadingMath.magneticHeading(field: phone.field, gravity: phone.acceleration))
        #expect(HeadingMath.separation(angles.azimuth, heading) < 1e-6, "the attitude and the heading agree")
        // No gyroscope: gravity is the accelerometer, nothing is the user's.
        #expect(engine.gravity(at: 10_000_000) == phone.acceleration)
        #expect(engine.userAcceleration(at: 10_000_000) == Acceleration(x: 0, y: 0, z: 0))
        #expect(engine.rotationRate(at: 10_000_000) == nil)
    }

    @Test("D1: turning left on a table at a quarter turn a second for a second: azimuth 0 → 270, both estimates, rate reported")
    func turningLeft() throws {
        var phone = Phone(Attitude(azimuth: 0))
        var engine = AttitudeEngine()
        engine.accelerometer(phone.acceleration, at: instantAt(0))
        engine.magnetometer(phone.field, at: instantAt(0))
        phone.turn(&engine, rate: Vector3(0, 0, .pi / 2), seconds: 1, from: 0)
        #expect(degreesBetween(engine.magnetic, phone.q) < 0.01)
        #expect(degreesBetween(engine.game, phone.q) < 0.01)
        let angles = AttitudeAngles(try #require(engine.magnetic))
        #expect(HeadingMath.separation(angles.azimuth, 270) < 0.01)
        #expect(engine.rotationRate(at: 1_000_000_000) == RotationRate(x: 0, y: 0, z: .pi / 2))
        let gravity = try #require(engine.gravity(at: 1_000_000_000))
        #expect(abs(gravity.z - Acceleration.standardGravity) < 1e-6)
    }

    @Test("D1: a gyroscope without field: the game estimate integrates the turn exactly; the magnetic one has no north")
    func gyroscopeWithoutField() throws {
        var phone = Phone(Attitude(azimuth: 30, pitch: 20))
        var engine = AttitudeEngine()
        engine.accelerometer(phone.acceleration, at: instantAt(0))
        phone.turn(&engine, rate: Vector3(0.3, -0.2, 1.1), seconds: 2, from: 0, withField: false)
        #expect(engine.magnetic == nil)
        // The game estimate started at the tilt with the device's own yaw: compare what it can
        // know, the turn since then, through the up direction and the change of azimuth.
        let estimatedUp = try #require(engine.game).conjugate.rotate(.up), trueUp = phone.q.conjugate.rotate(.up)
        #expect((estimatedUp - trueUp).length < 1e-3)
        #expect(engine.rotationRate(at: 2_000_000_000) == RotationRate(x: 0.3, y: -0.2, z: 1.1))
    }

    @Test("D1: the field pulls a yaw the gyroscope missed back; the game estimate keeps the gyroscope's yaw; the tilt follows up")
    func fieldCorrectsYaw() throws {
        var phone = Phone(Attitude(azimuth: 0, pitch: 15))
        var engine = AttitudeEngine()
        engine.accelerometer(phone.acceleration, at: instantAt(0))
        engine.magnetometer(phone.field, at: instantAt(0))
        // The phone is turned by 60° about its own z while the gyroscope reads nothing (a bias
        // the size of the turn): the field and the accelerometer say so; the gyroscope does not.
        phone.turn(&engine, rate: Vector3(0, 0, 1), seconds: 60 * .pi / 180, from: 0, gyroBias: Vector3(0, 0, -1))
        #expect(degreesBetween(engine.magnetic, phone.q) > 30, "1 s is too soon for the field's 2 s time constant")
        phone.turn(&engine, rate: .zero, seconds: 15, from: 2)
        #expect(degreesBetween(engine.magnetic, phone.q) < 0.5, "\(degreesBetween(engine.magnetic, phone.q))")
        let game = try #require(engine.game)
        #expect((game.conjugate.rotate(.up) - phone.q.conjugate.rotate(.up)).length < 0.01, "the accelerometer sets the game's tilt")
        #expect(degreesBetween(game, phone.q) > 30, "but not its yaw: the game estimate believes its gyroscope")
    }

    @Test("D1: a gyroscope biased 0.01 rad/s: the game yaw drifts 34° in a minute, the accelerometer holds its tilt")
    func biasDrift() throws {
        var phone = Phone(Attitude(azimuth: 90, pitch: 30, roll: -10))
        var engine = AttitudeEngine()
        engine.accelerometer(phone.acceleration, at: instantAt(0))
        engine.magnetometer(phone.field, at: instantAt(0))
        // The bias about the device's own vertical-ish axis shows partly as tilt, which the
        // accelerometer takes back; the rest as yaw, which only the field could.
        phone.turn(&engine, rate: .zero, seconds: 60, hz: 50, from: 0, gyroBias: Vector3(0, 0, 0.01))
        let game = AttitudeAngles(try #require(engine.game)), magnetic = AttitudeAngles(try #require(engine.magnetic))
        #expect(HeadingMath.separation(game.azimuth, 90) > 20)
        #expect(abs(game.pitch - -30) < 1.5 && abs(game.roll - 10) < 1.5, "\(game)")
        #expect(HeadingMath.separation(magnetic.azimuth, 90) < 1.5, "\(magnetic)")
    }

    @Test("D1: pitched up to upright portrait by the gyroscope: gravity follows to +y, what the orientation judge hears from the accelerometer")
    func tiltToPortrait() throws {
        var phone = Phone(Attitude(azimuth: 0))
        var engine = AttitudeEngine()
        phone.turn(&engine, rate: Vector3(.pi / 4, 0, 0), seconds: 2, from: 0)
        let gravity = try #require(engine.gravity(at: 2_000_000_000))
        #expect(abs(gravity.y - Acceleration.standardGravity) < 0.01 && abs(gravity.z) < 0.01, "\(gravity)")
        let user = try #require(engine.userAcceleration(at: 2_000_000_000))
        #expect(abs(user.x) + abs(user.y) + abs(user.z) < 0.01)
    }

    @Test("D1: a shake (2 g) does not tilt the estimate")
    func shakeIgnored() throws {
        var phone = Phone(Attitude(azimuth: 0))
        var engine = AttitudeEngine()
        phone.turn(&engine, rate: .zero, seconds: 0.1, from: 0)
        for step in 1...100 {
            let t = instantAt(0.1 + Double(step) / 100)
            engine.gyroscope(RotationRate(x: 0, y: 0, z: 0), at: t)
            engine.accelerometer(Acceleration(x: 15, y: 0, z: 9.8), at: t)
        }
        let angles = AttitudeAngles(try #require(engine.magnetic))
        #expect(abs(angles.roll) < 0.01 && abs(angles.pitch) < 0.01)
        let user = try #require(engine.userAcceleration(at: 1_100_000_000))
        #expect(abs(user.x - 15) < 0.01, "the shake is the user's acceleration")
    }

    @Test("D2: the reference frames of a phone flat with its top to magnetic north, declination 10° east")
    func referenceFrames() throws {
        var phone = Phone(Attitude(azimuth: 0))
        var engine = AttitudeEngine()
        phone.turn(&engine, rate: .zero, seconds: 0.1, from: 0)
        let top = Vector3(0, 1, 0)
        func topIn(_ frame: AttitudeReferenceFrame) throws -> Vector3 {
            try #require(frame.attitude(engine, declination: 10)).rotate(top)
        }
        // Android: x east, y north: the top is y.
        #expect((try topIn(.rotationVector) - Vector3(0, 1, 0)).length < 1e-9)
        // Core Motion: x north, y west: the top is x; true north is 10° west of magnetic, so
        // the top is at azimuth 10: (cos 10°, −sin 10°) in north-west.
        #expect((try topIn(.xMagneticNorthZVertical) - Vector3(1, 0, 0)).length < 1e-9)
        let r = 10 * Double.pi / 180
        #expect((try topIn(.xTrueNorthZVertical) - Vector3(cos(r), -sin(r), 0)).length < 1e-9)
        #expect(AttitudeReferenceFrame.xTrueNorthZVertical.attitude(engine, declination: nil) == nil)
        // Started with a field, the arbitrary frames start on magnetic north.
        #expect((try topIn(.xArbitraryCorrectedZVertical) - Vector3(1, 0, 0)).length < 1e-9)
        #expect((try topIn(.xArbitraryZVertical) - Vector3(1, 0, 0)).length < 1e-9)
        #expect((try topIn(.gameRotationVector) - Vector3(0, 1, 0)).length < 1e-9)
    }

    @Test("D2: xArbitraryCorrectedZVertical keeps where xArbitraryZVertical started, while the latter drifts with the gyroscope's bias")
    func correctedFrame() throws {
        var phone = Phone(Attitude(azimuth: 0))
        var engine = AttitudeEngine()
        engine.accelerometer(Acceleration(x: 0, y: 0, z: Acceleration.standardGravity), at: instantAt(0))
        // No field at first: the arbitrary frames start where the device's yaw is.
        phone.turn(&engine, rate: Vector3(0, 0, 0.5), seconds: 1, from: 0, withField: false)
        let start = try #require(AttitudeReferenceFrame.xArbitraryZVertical.attitude(engine, declination: nil))
        #expect(AttitudeReferenceFrame.xArbitraryCorrectedZVertical.attitude(engine, declination: nil) == nil, "no field yet")
        phone.turn(&engine, rate: .zero, seconds: 0.02, from: 1)
        let corrected = try #require(AttitudeReferenceFrame.xArbitraryCorrectedZVertical.attitude(engine, declination: nil))
        #expect(degreesBetween(corrected, start) < 0.1)
        phone.turn(&engine, rate: .zero, seconds: 60, hz: 50, from: 1.02, gyroBias: Vector3(0, 0, 0.01))
        let drifted = try #require(AttitudeReferenceFrame.xArbitraryZVertical.attitude(engine, declination: nil))
        let held = try #require(AttitudeReferenceFrame.xArbitraryCorrectedZVertical.attitude(engine, declination: nil))
        #expect(degreesBetween(drifted, start) > 20)
        #expect(degreesBetween(held, start) < 1.5, "\(degreesBetween(held, start))")
    }

    @Test("Quaternions: a matrix's rows round-trip, from every quadrant of Shepperd's method")
    func quaternionRows() {
        for (axis, angle) in [(Vector3(0, 0, 1), 0.3), (Vector3(1, 0, 0), 3.0), (Vector3(0, 1, 0), 3.0), (Vector3(0, 0, 1), 3.0)] {
            let q = Quaternion(axis: axis, angle: angle).normalized
            let rows = [Vector3(1, 0, 0), Vector3(0, 1, 0), Vector3(0, 0, 1)].map { q.conjugate.rotate($0) }
            #expect(degreesBetween(Quaternion(rows: rows[0], rows[1], rows[2]), q) < 1e-6)
        }
    }
}
