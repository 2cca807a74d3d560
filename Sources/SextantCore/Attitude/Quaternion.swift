#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A vector of three numbers: a direction or a rate in the device frame or the reference frame.
public struct Vector3: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var z: Double

    public init(_ x: Double, _ y: Double, _ z: Double) { (self.x, self.y, self.z) = (x, y, z) }

    public static let zero = Vector3(0, 0, 0)
    /// Up in an east-north-up frame.
    public static let up = Vector3(0, 0, 1)

    public static func + (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x + b.x, a.y + b.y, a.z + b.z) }
    public static func - (a: Vector3, b: Vector3) -> Vector3 { Vector3(a.x - b.x, a.y - b.y, a.z - b.z) }
    public static func * (k: Double, v: Vector3) -> Vector3 { Vector3(k * v.x, k * v.y, k * v.z) }

    public func dot(_ b: Vector3) -> Double { x * b.x + y * b.y + z * b.z }
    public func cross(_ b: Vector3) -> Vector3 { Vector3(y * b.z - z * b.y, z * b.x - x * b.z, x * b.y - y * b.x) }
    public var length: Double { dot(self).squareRoot() }

    /// The unit vector along it; nil for a vector too short to have a direction.
    public var direction: Vector3? {
        let n = length
        guard n > 1e-12, n.isFinite else { return nil }
        return (1 / n) * self
    }
}

/// A unit quaternion: a rotation. Sextant's attitude quaternions rotate a vector given in the
/// device frame into the reference frame (`q ⊗ v ⊗ q*`): the convention of Android's rotation
/// vector, of the W3C's `OrientationSensor.quaternion` and of Core Motion's `CMQuaternion`
/// (the identity when the device's axes lie on the reference's).
public struct Quaternion: Sendable, Equatable {
    public var w: Double
    public var x: Double
    public var y: Double
    public var z: Double

    public init(w: Double, x: Double, y: Double, z: Double) { (self.w, self.x, self.y, self.z) = (w, x, y, z) }

    public static let identity = Quaternion(w: 1, x: 0, y: 0, z: 0)

    /// A turn of `angle` radians about `axis` (a unit vector), counter-clockwise seen from its end.
    public init(axis: Vector3, angle: Double) {
        let s = sin(angle / 2)
        self.init(w: cos(angle / 2), x: axis.x * s, y: axis.y * s, z: axis.z * s)
    }

    /// A turn about the vertical (z) by `angle` radians.
    public static func aboutVertical(_ angle: Double) -> Quaternion { Quaternion(axis: .up, angle: angle) }

    /// The rotation `b` then `a` (Hamilton's product `a ⊗ b`).
    public static func * (a: Quaternion, b: Quaternion) -> Quaternion {
        Quaternion(
            w: a.w * b.w - a.x * b.x - a.y * b.y - a.z * b.z,
            x: a.w * b.x + a.x * b.w + a.y * b.z - a.z * b.y,
            y: a.w * b.y - a.x * b.z + a.y * b.w + a.z * b.x,
            z: a.w * b.z + a.x * b.y - a.y * b.x + a.z * b.w)
    }

    /// The opposite rotation (for a unit quaternion).
    public var conjugate: Quaternion { Quaternion(w: w, x: -x, y: -y, z: -z) }

    /// The same rotation at unit length, its `w` made non-negative so that equal rotations
    /// compare equal (q and −q are one rotation).
    public var normalized: Quaternion {
        let n = (w * w + x * x + y * y + z * z).squareRoot()
        let k = (w < 0 ? -1 : 1) / n
        return Quaternion(w: w * k, x: x * k, y: y * k, z: z * k)
    }

    /// `v` turned by this rotation: `q ⊗ v ⊗ q*`.
    public func rotate(_ v: Vector3) -> Vector3 {
        let u = Vector3(x, y, z)
        let t = 2 * u.cross(v)
        return v + w * t + u.cross(t)
    }

    /// The rotation whose matrix has rows `r0`, `r1`, `r2` (each a unit vector of a
    /// right-handed orthonormal set): for device → reference, the reference's axes given in
    /// the device frame.
    public init(rows r0: Vector3, _ r1: Vector3, _ r2: Vector3) {
        // Shepperd's method: the largest of the four candidates divides, so nothing is lost.
        let trace = r0.x + r1.y + r2.z
        if trace > 0 {
            let s = 2 * (trace + 1).squareRoot()
            self.init(w: s / 4, x: (r2.y - r1.z) / s, y: (r0.z - r2.x) / s, z: (r1.x - r0.y) / s)
        } else if r0.x > r1.y && r0.x > r2.z {
            let s = 2 * (1 + r0.x - r1.y - r2.z).squareRoot()
            self.init(w: (r2.y - r1.z) / s, x: s / 4, y: (r0.y + r1.x) / s, z: (r0.z + r2.x) / s)
        } else if r1.y > r2.z {
            let s = 2 * (1 + r1.y - r0.x - r2.z).squareRoot()
            self.init(w: (r0.z - r2.x) / s, x: (r0.y + r1.x) / s, y: s / 4, z: (r1.z + r2.y) / s)
        } else {
            let s = 2 * (1 + r2.z - r0.x - r1.y).squareRoot()
            self.init(w: (r1.x - r0.y) / s, x: (r0.z + r2.x) / s, y: (r1.z + r2.y) / s, z: s / 4)
        }
        self = normalized
    }

    /// The turn a body rotating at `rate` (rad/s, about its own axes) makes in `seconds`:
    /// the exact exponential, so a constant rate integrates without error at any step.
    public static func turn(rate: Vector3, seconds: Double) -> Quaternion {
        let angle = rate.length * seconds
        guard angle > 1e-15, let axis = rate.direction else { return .identity }
        return Quaternion(axis: axis, angle: angle)
    }
}
