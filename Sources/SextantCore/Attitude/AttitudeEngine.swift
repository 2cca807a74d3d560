#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SextantProtocol

/// The device's attitude fused from the accelerometer, the gyroscope and the magnetometer
/// (RULES D1–D4, sextant-rules(7) "DEVICE MOTION"): one fusion for every face.
///
/// **The filter.** Mahony's explicit complementary filter on the rotation group: the
/// gyroscope's rate is integrated (exactly, `Quaternion.turn`), and a feedback term turns
/// the estimate towards what the accelerometer (up) and the magnetometer (magnetic north)
/// say, at gains that make the tilt follow gravity with a time constant of about
/// 1/`accelerometerGain` s and the yaw follow the field at 1/`magnetometerGain` s. Chosen
/// over a Kalman filter (Android's fusion) and Madgwick's gradient step because it has one
/// gain per sensor with a meaning in seconds, costs a few dozen multiplications a sample
/// with no matrix to invert, and keeps the magnetometer out of the tilt (its correction is
/// projected on the vertical), so a magnet near the phone turns its yaw, never its pitch.
///
/// **Two estimates.** `magnetic` (device → east-north-up, north magnetic: Android's
/// `TYPE_ROTATION_VECTOR`) uses all three sensors; `game` (device → a frame whose up is up
/// and whose north is wherever the yaw started: `TYPE_GAME_ROTATION_VECTOR`, Core Motion's
/// `xArbitraryZVertical`) the gyroscope and the accelerometer only, so its yaw drifts with
/// the gyroscope's bias as a phone's does.
///
/// **Without a gyroscope** (none heard for `gyroscopeFreshness`) the attitude is the
/// accelerometer's and the field's alone, at each of their readings (Android's
/// `getRotationMatrix`, the heading's geometry, RULES H1); the game estimate is then the
/// magnetic one (its yaw is arbitrary: north will do), or the tilt alone without a field.
///
/// Pure: readings in with their times, the estimate out; no clock of its own.
public struct AttitudeEngine: Sendable {
    /// The tilt's feedback gain, 1/s.
    public static let accelerometerGain = 1.0
    /// The yaw's feedback gain from the magnetometer, 1/s.
    public static let magnetometerGain = 0.5
    /// Gyroscope readings further apart are not integrated across (a gap in the stream, a
    /// replay sought): the next one only restarts the clock.
    public static let longestStep: Int64 = 200_000_000
    /// A gyroscope not heard for this long is taken as absent (the accelerometer and the
    /// field alone then decide).
    public static let gyroscopeFreshness: Int64 = 500_000_000
    /// The accelerometer corrects the tilt only while it reads within this fraction of 1 g
    /// of gravity: a shake's reading says little about where up is.
    public static let gravityTolerance = 0.5

    public private(set) var magnetic: Quaternion?
    public private(set) var game: Quaternion?
    /// The last readings, their times in nanoseconds.
    private var up: (direction: Vector3, acceleration: Acceleration, time: Int64)?
    private var field: (direction: Vector3, time: Int64)?
    private var gyroscope: (rate: RotationRate, time: Int64)?
    /// The time the estimates are of (nanoseconds): the gyroscope integrates from it.
    private var estimateTime: Int64?
    /// The yaw (rad) that turns the magnetic estimate into `xArbitraryCorrectedZVertical`'s
    /// frame: the game frame's offset from magnetic north when both first existed.
    public private(set) var correctedYawOffset: Double?

    public init() {}

    /// Whether a gyroscope was heard within `gyroscopeFreshness` of `time`.
    public func hasGyroscope(at time: Int64) -> Bool {
        guard let gyroscope else { return false }
        return time >= gyroscope.time && time - gyroscope.time <= Self.gyroscopeFreshness
    }

    public mutating func accelerometer(_ a: Acceleration, at time: Timestamp) {
        guard let direction = Vector3(a.x, a.y, a.z).direction else { return }
        up = (direction, a, time.nanoseconds)
        settle(at: time.nanoseconds)
    }

    public mutating func magnetometer(_ m: MagneticField, at time: Timestamp) {
        guard let direction = Vector3(m.x, m.y, m.z).direction else { return }
        field = (direction, time.nanoseconds)
        settle(at: time.nanoseconds)
    }

    /// The gyroscope's rate turns the estimates from their time to `time` (the rate taken as
    /// constant over the step), with the feedback of the latest accelerometer and field.
    public mutating func gyroscope(_ rate: RotationRate, at time: Timestamp) {
        let now = time.nanoseconds
        gyroscope = (rate, now)
        guard let from = estimateTime, now > from, now - from <= Self.longestStep else {
            estimateTime = now
            return
        }
        let seconds = Double(now - from) / 1e9
        let rad = Vector3(rate.x, rate.y, rate.z)
        let tilt = usableUp()
        let north = field.flatMap { now - $0.time <= Self.gyroscopeFreshness ? $0.direction : nil }
        if let game { self.game = Self.step(game, rate: rad, seconds: seconds, up: tilt, field: nil) }
        if let magnetic { self.magnetic = Self.step(magnetic, rate: rad, seconds: seconds, up: tilt, field: north) }
        estimateTime = now
    }

    /// The accelerometer's direction when it reads about 1 g (a shake's does not say up).
    private func usableUp() -> Vector3? {
        guard let up else { return nil }
        let g = Acceleration.standardGravity
        guard abs(up.acceleration.magnitude - g) <= Self.gravityTolerance * g else { return nil }
        return up.direction
    }

    /// After an accelerometer or field reading: without a gyroscope, the attitude is theirs
    /// alone (the game estimate with it); with one, they only start an estimate not made yet.
    private mutating func settle(at now: Int64) {
        guard let up else { return }
        let triad = field.flatMap { Self.attitude(up: up.direction, field: $0.direction) }
        let started = magnetic == nil && triad != nil || game == nil
        if !hasGyroscope(at: now) {
            magnetic = triad ?? magnetic
            game = triad ?? Self.tilt(up: up.direction)
        } else {
            if magnetic == nil { magnetic = triad }
            if game == nil { game = triad ?? Self.tilt(up: up.direction) }
        }
        // An estimate made now is of now; one the gyroscope carries keeps its own time.
        if !hasGyroscope(at: now) || started { estimateTime = max(estimateTime ?? now, now) }
        if correctedYawOffset == nil, let magnetic, let game {
            correctedYawOffset = AttitudeAngles(game).azimuth - AttitudeAngles(magnetic).azimuth
        }
    }

    /// One step of Mahony's filter: `q` turned by the rate plus the feedback that turns the
    /// estimated up towards `up` and the estimated north towards the field's (about the
    /// vertical only).
    static func step(_ q: Quaternion, rate: Vector3, seconds: Double, up: Vector3?, field: Vector3?) -> Quaternion {
        let estimatedUp = q.conjugate.rotate(.up)
        var correction = Vector3.zero
        if let up { correction = correction + accelerometerGain * up.cross(estimatedUp) }
        // The field as the estimate places it: its horizontal part's azimuth (clockwise from
        // north) is how far the estimate's yaw is off; turned back about the vertical alone.
        if let field {
            let h = q.rotate(field)
            if h.x * h.x + h.y * h.y > 1e-6 {
                correction = correction + (magnetometerGain * atan2(h.x, h.y)) * estimatedUp
            }
        }
        return (q * Quaternion.turn(rate: rate + correction, seconds: seconds)).normalized
    }

    /// Device → east-north-up (magnetic) from up and the field in the device frame: east =
    /// field × up, north = up × east (Android's `getRotationMatrix`, HeadingMath's H1). Nil
    /// when the field lies along up.
    public static func attitude(up: Vector3, field: Vector3) -> Quaternion? {
        guard let east = field.cross(up).direction else { return nil }
        return Quaternion(rows: east, up.cross(east), up)
    }

    /// The smallest rotation that takes the device's `up` to the reference's: a tilt with the
    /// yaw left where the device's own axes put it.
    public static func tilt(up: Vector3) -> Quaternion {
        let axis = up.cross(.up)
        guard let unit = axis.direction else { return up.z >= 0 ? .identity : Quaternion(w: 0, x: 1, y: 0, z: 0) }
        return Quaternion(axis: unit, angle: atan2(axis.length, up.dot(.up)))
    }

    /// Gravity as the accelerometer reads it at rest (up, 9.80665 m/s², device frame), from
    /// the estimate: the filtered tilt while a gyroscope is heard, else the accelerometer itself.
    public func gravity(at now: Int64) -> Acceleration? {
        guard let up else { return nil }
        guard hasGyroscope(at: now), let q = game ?? magnetic else { return up.acceleration }
        let g = Acceleration.standardGravity * q.conjugate.rotate(.up)
        return Acceleration(x: g.x, y: g.y, z: g.z)
    }

    /// The accelerometer's last reading less gravity: Android's linear acceleration (m/s²,
    /// device frame; zero at rest).
    public func userAcceleration(at now: Int64) -> Acceleration? {
        guard let a = up?.acceleration, let g = gravity(at: now) else { return nil }
        return Acceleration(x: a.x - g.x, y: a.y - g.y, z: a.z - g.z)
    }

    /// The gyroscope's last reading while it is heard.
    public func rotationRate(at now: Int64) -> RotationRate? { hasGyroscope(at: now) ? gyroscope?.rate : nil }
}
