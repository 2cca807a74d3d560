// The C math library: Foundation would cost every program that links SextantCore its
// 6 MiB of resident code.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SextantProtocol

/// The geometry of a compass (RULES H1, H2): headings in degrees clockwise from north,
/// 0 ..< 360.
public enum HeadingMath {
    /// H1: the top of the device counts as vertical within this many degrees, and the
    /// heading is then the one of its back (what a camera held upright looks at).
    public static let uprightLimit = 25.0

    /// An angle in degrees brought into 0 ..< 360.
    public static func normalized(_ degrees: Double) -> Double {
        let r = degrees.truncatingRemainder(dividingBy: 360)
        let positive = r < 0 ? r + 360 : r
        return positive >= 360 ? 0 : positive
    }

    /// The smallest angle between two headings, 0 ... 180.
    public static func separation(_ a: Double, _ b: Double) -> Double {
        let d = abs(normalized(a - b))
        return min(d, 360 - d)
    }

    /// H1: the tilt-compensated magnetic heading of the top of the device (its y axis) in
    /// its natural orientation, from the field and gravity's reaction (the accelerometer at
    /// rest: up) in the device frame; the back (−z) when the top is within `uprightLimit`
    /// of vertical. Nil when the field has no horizontal part (along gravity) or a vector is
    /// zero.
    public static func magneticHeading(field m: MagneticField, gravity a: Acceleration) -> Double? {
        let norm = a.magnitude
        guard norm > 0, norm.isFinite else { return nil }
        let up = (x: a.x / norm, y: a.y / norm, z: a.z / norm)
        // East = field × up, north = up × east (Android's getRotationMatrix).
        var east = (x: m.y * up.z - m.z * up.y, y: m.z * up.x - m.x * up.z, z: m.x * up.y - m.y * up.x)
        let eastNorm = (east.x * east.x + east.y * east.y + east.z * east.z).squareRoot()
        guard eastNorm > 1e-9 * max(1, m.strength), eastNorm.isFinite else { return nil }
        east = (east.x / eastNorm, east.y / eastNorm, east.z / eastNorm)
        let north = (
            x: up.y * east.z - up.z * east.y, y: up.z * east.x - up.x * east.z, z: up.x * east.y - up.y * east.x
        )
        let topIsUpright = abs(up.y) > cos(uprightLimit * .pi / 180)
        let degrees = topIsUpright
            ? atan2(-east.z, -north.z) * 180 / .pi
            : atan2(east.y, north.y) * 180 / .pi
        return normalized(degrees)
    }

    /// H1: the field's inclination below the horizontal, degrees, gravity's reaction being up.
    public static func inclination(field m: MagneticField, gravity a: Acceleration) -> Double? {
        let strength = m.strength, norm = a.magnitude
        guard strength > 0, norm > 0 else { return nil }
        let downward = -(m.x * a.x + m.y * a.y + m.z * a.z) / (strength * norm)
        return asin(min(1, max(-1, downward))) * 180 / .pi
    }

    /// H2: a heading of the device's natural orientation turned to an app's interface
    /// orientation (iOS `headingOrientation`): the top of the interface is the device's
    /// right side in interface landscapeRight (device landscapeLeft), its left side in
    /// landscapeLeft, its bottom upside down.
    public static func turned(_ heading: Double, to interface: InterfaceOrientation) -> Double {
        switch interface {
        case .portrait: return heading
        case .landscapeRight: return normalized(heading + 90)
        case .landscapeLeft: return normalized(heading - 90)
        case .portraitUpsideDown: return normalized(heading + 180)
        }
    }
}
