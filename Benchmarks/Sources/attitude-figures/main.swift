// The attitude engine's cost per reading beside the orientation judge's (issue 40,
// "Performance"): a minute of a phone turned in the hand, read at 200 Hz by the gyroscope
// and the accelerometer and at 50 Hz by the magnetometer, timed with the monotonic clock.
//
//     swift run -c release attitude-figures
//
// Without a `deviceMotion` subscriber the service feeds the engine nothing (RULES D6): the
// cost of a reading is then the service's check of an empty table, counted in process by
// DeviceMotionHubTests ("D6": 0 readings fused without a listener, 303 of 303 with one).

import SextantCore
import SextantProtocol

#if canImport(Glibc)
import Glibc
#endif

/// The best of 20 runs of `body`, in ns per reading of `count`.
func nanosecondsPerReading(_ count: Int, _ body: () -> Int) -> (Double, Int) {
    let clock = ContinuousClock()
    var best = Duration.seconds(1000)
    var made = 0
    for _ in 0..<20 {
        let elapsed = clock.measure { made = body() }
        best = min(best, elapsed)
    }
    let ns = Double(best.components.seconds) * 1e9 + Double(best.components.attoseconds) / 1e9
    return (ns / Double(count), made)
}

func format(_ value: Double) -> String { String((value * 10).rounded() / 10) }

/// One reading of the minute, in time order.
enum Reading {
    case gyroscope(RotationRate), accelerometer(Acceleration), magnetometer(MagneticField)
}

/// A minute of hand turns: the yaw swings ±60° at 0.3 Hz, the pitch ±30° at 0.2 Hz, with
/// the readings the true attitude gives (and a small bias on the gyroscope).
func minute() -> [(Timestamp, Reading)] {
    var readings: [(Timestamp, Reading)] = []
    let earth = Vector3(0, 21, -42)
    for n in 0..<12_000 {
        let t = Double(n) / 200
        let yaw = 60 * Double.pi / 180 * sin(2 * .pi * 0.3 * t), pitch = 30 * Double.pi / 180 * sin(2 * .pi * 0.2 * t)
        let yawRate = 60 * Double.pi / 180 * 2 * .pi * 0.3 * cos(2 * .pi * 0.3 * t)
        let pitchRate = 30 * Double.pi / 180 * 2 * .pi * 0.2 * cos(2 * .pi * 0.2 * t)
        let q = Quaternion.aboutVertical(yaw) * Quaternion(axis: Vector3(1, 0, 0), angle: pitch)
        let up = Acceleration.standardGravity * q.conjugate.rotate(.up), field = q.conjugate.rotate(earth)
        let rate = q.conjugate.rotate(Vector3(0, 0, yawRate)) + Vector3(pitchRate, 0, 0)
        let time = Timestamp(nanoseconds: Int64(n) * 5_000_000)
        readings.append((time, .gyroscope(RotationRate(x: rate.x + 0.002, y: rate.y, z: rate.z))))
        readings.append((time, .accelerometer(Acceleration(x: up.x, y: up.y, z: up.z))))
        if n % 4 == 0 { readings.append((time, .magnetometer(MagneticField(x: field.x, y: field.y, z: field.z)))) }
    }
    return readings
}

let readings = minute()
let accelerations = readings.compactMap { time, reading -> (Timestamp, Acceleration)? in
    if case .accelerometer(let a) = reading { return (time, a) }
    return nil
}

let judge = nanosecondsPerReading(accelerations.count) {
    var judge = OrientationJudge()
    var decisions = 0
    for (time, a) in accelerations where judge.judge(a, at: time) != nil { decisions += 1 }
    return decisions
}
let fusion = nanosecondsPerReading(readings.count) {
    var engine = AttitudeEngine()
    var attitudes = 0
    for (time, reading) in readings {
        switch reading {
        case .gyroscope(let w):
            engine.gyroscope(w, at: time)
            // What the service reads for an event: the frame's attitude, gravity, user acceleration.
            if AttitudeReferenceFrame.xMagneticNorthZVertical.attitude(engine, declination: nil) != nil,
                engine.userAcceleration(at: time.nanoseconds) != nil
            {
                attitudes += 1
            }
        case .accelerometer(let a): engine.accelerometer(a, at: time)
        case .magnetometer(let m): engine.magnetometer(m, at: time)
        }
    }
    return attitudes
}

print("A minute of hand turns: \(accelerations.count) accelerometer readings (200 Hz), as many gyroscope readings, \(readings.count - 2 * accelerations.count) field readings (50 Hz)")
print("orientation judge (accelerometer only):     \(format(judge.0)) ns per reading")
print("attitude fusion (gyro + accel + field):     \(format(fusion.0)) ns per reading, \(fusion.1) attitudes")
print("  the same per second of the three streams: \(format(fusion.0 * 450 / 1000)) µs (450 readings/s)")
print("without a deviceMotion subscriber:          0 readings fused (RULES D6; DeviceMotionHubTests)")
