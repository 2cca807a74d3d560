// The C math library (sin, atan2…): Foundation would cost every program that links
// SextantCore its 6 MiB of resident code.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A point on the sphere, in degrees.
public struct GeoPoint: Sendable, Equatable {
    public var latitude: Double
    public var longitude: Double

    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}

/// One great-circle leg between two points on `Geo`'s sphere, for walking along it: the
/// point a fraction of the way, and the course there.
public struct GreatCircleLeg: Sendable {
    public let from: GeoPoint
    public let to: GeoPoint
    /// The leg's central angle, radians.
    public let angle: Double

    public init(from: GeoPoint, to: GeoPoint) {
        self.from = from
        self.to = to
        angle = Geo.distance(lat1: from.latitude, lon1: from.longitude, lat2: to.latitude, lon2: to.longitude) / Geo.earthRadius
    }

    /// Length in metres.
    public var length: Double { angle * Geo.earthRadius }

    /// The point `fraction` (0...1) of the way along the leg: spherical linear
    /// interpolation of the two points' unit vectors. A leg too short for the formula
    /// (under a micrometre) or between antipodes (no single great circle) is walked in
    /// a straight line of latitude and longitude, which is as good at that length and
    /// defined for antipodes.
    public func point(at fraction: Double) -> GeoPoint {
        let sinAngle = sin(angle)
        guard abs(sinAngle) > 1e-12 else {
            return GeoPoint(
                latitude: from.latitude + (to.latitude - from.latitude) * fraction,
                longitude: from.longitude + (to.longitude - from.longitude) * fraction)
        }
        let a = sin((1 - fraction) * angle) / sinAngle, b = sin(fraction * angle) / sinAngle
        let p = Self.unitVector(from), q = Self.unitVector(to)
        let x = a * p.x + b * q.x, y = a * p.y + b * q.y, z = a * p.z + b * q.z
        let latitude = atan2(z, (x * x + y * y).squareRoot()) * 180 / .pi
        let longitude = atan2(y, x) * 180 / .pi
        return GeoPoint(latitude: latitude, longitude: longitude)
    }

    /// The course at `point` (on the leg) towards the leg's end, degrees from true north,
    /// 0..<360; at the end itself, the course on arrival.
    public func course(at point: GeoPoint) -> Double {
        let remaining = Geo.distance(lat1: point.latitude, lon1: point.longitude, lat2: to.latitude, lon2: to.longitude)
        if remaining > 1e-6 {
            return Geo.bearing(lat1: point.latitude, lon1: point.longitude, lat2: to.latitude, lon2: to.longitude)
        }
        // The course on arrival is the reverse of the initial bearing from the end back.
        let back = Geo.bearing(lat1: to.latitude, lon1: to.longitude, lat2: from.latitude, lon2: from.longitude)
        return (back + 180).truncatingRemainder(dividingBy: 360)
    }

    static func unitVector(_ p: GeoPoint) -> (x: Double, y: Double, z: Double) {
        let φ = p.latitude * .pi / 180, λ = p.longitude * .pi / 180
        return (cos(φ) * cos(λ), cos(φ) * sin(λ), sin(φ))
    }
}
