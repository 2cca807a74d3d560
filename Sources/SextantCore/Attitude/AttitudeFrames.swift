#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

import SextantProtocol

/// How each reference frame (RULES D2) is made from the engine's two estimates.
extension AttitudeReferenceFrame {
    /// Whether the frame needs the magnetometer (the others are served by the game estimate).
    public var needsField: Bool { self != .xArbitraryZVertical && self != .gameRotationVector }

    /// The attitude in this frame from the engine's estimates, or nil when it cannot be known
    /// (no field for a north-referenced frame; no declination for true north).
    public func attitude(_ engine: AttitudeEngine, declination degrees: Double?) -> Quaternion? {
        // East-north-up → north-west-up: a quarter turn clockwise about up.
        let toNorthWestUp = Quaternion.aboutVertical(-.pi / 2)
        switch self {
        case .gameRotationVector: return engine.game
        case .rotationVector: return engine.magnetic
        case .xArbitraryZVertical: return engine.game.map { (toNorthWestUp * $0).normalized }
        case .xMagneticNorthZVertical: return engine.magnetic.map { (toNorthWestUp * $0).normalized }
        case .xArbitraryCorrectedZVertical:
            guard let magnetic = engine.magnetic, let offset = engine.correctedYawOffset else { return nil }
            // The game frame's azimuth minus the magnetic one: turning the magnetic estimate
            // by it clockwise (azimuths run clockwise) lands it on the game frame's start.
            return (toNorthWestUp * Quaternion.aboutVertical(-offset * .pi / 180) * magnetic).normalized
        case .xTrueNorthZVertical:
            // Magnetic north is `declination` east of true north: the magnetic frame turned
            // clockwise by it is the true one.
            guard let magnetic = engine.magnetic, let degrees else { return nil }
            return (toNorthWestUp * Quaternion.aboutVertical(-degrees * .pi / 180) * magnetic).normalized
        }
    }
}

/// Android's `SensorManager.getOrientation` angles of an attitude given device →
/// east-north-up, in degrees: `azimuth` clockwise from north of the device's y axis (0 ..< 360,
/// the heading's H1 for a device not upright), `pitch` about x, negative when the top is
/// raised, `roll` about y, negative when the right edge is raised (GnssLogger's
/// `OrientationDeg` `yawDeg`, `pitchDeg`, `rollDeg`).
public struct AttitudeAngles: Sendable, Equatable {
    public var azimuth: Double
    public var pitch: Double
    public var roll: Double

    public init(azimuth: Double, pitch: Double, roll: Double) { (self.azimuth, self.pitch, self.roll) = (azimuth, pitch, roll) }

    public init(_ q: Quaternion) {
        // Rows of the rotation matrix: R01, R11 (the device's y axis east and north), R20..R22 (up).
        let r01 = 2 * (q.x * q.y - q.w * q.z), r11 = 1 - 2 * (q.x * q.x + q.z * q.z)
        let r20 = 2 * (q.x * q.z - q.w * q.y), r21 = 2 * (q.y * q.z + q.w * q.x), r22 = 1 - 2 * (q.x * q.x + q.y * q.y)
        let degrees = 180 / Double.pi
        self.init(
            azimuth: HeadingMath.normalized(atan2(r01, r11) * degrees), pitch: asin(max(-1, min(1, -r21))) * degrees,
            roll: atan2(-r20, r22) * degrees)
    }
}
