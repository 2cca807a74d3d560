import Foundation
import SextantCore
import SextantProtocol
import Testing

/// `GreatCircleLeg` checked against values worked out by hand, or by other textbook
/// formulas than the one it uses (spherical linear interpolation): the midpoint formula
/// and the destination-point formula, written out here.
@Suite("Great-circle legs")
struct GreatCircleTests {
    static let radius = 6_371_008.8
    static func rad(_ d: Double) -> Double { d * .pi / 180 }
    static func deg(_ r: Double) -> Double { r * 180 / .pi }

    @Test("the midpoint of (0°, 0°) and (45°, 90°) is (30°, atan(1/√2) = 35.2643897°), worked by hand")
    func handMidpoint() {
        let leg = GreatCircleLeg(from: GeoPoint(latitude: 0, longitude: 0), to: GeoPoint(latitude: 45, longitude: 90))
        let mid = leg.point(at: 0.5)
        // Bx = cos45·cos90 = 0, By = cos45·sin90 = √½; φm = atan2(√½, √(1 + ½)) = atan(1/√3) = 30°;
        // λm = atan2(√½, 1) = 35.26438968°.
        #expect(abs(mid.latitude - 30) < 1e-9)
        #expect(abs(mid.longitude - 35.264389682754654) < 1e-9)
        // Its length: cos c = cos45·cos90 = 0, a quarter circle.
        #expect(abs(leg.length - Self.radius * .pi / 2) < 1e-6)
    }

    @Test("along the equator and a meridian, a fraction of the way is that fraction of the angle")
    func axes() {
        let east = GreatCircleLeg(from: GeoPoint(latitude: 0, longitude: 10), to: GeoPoint(latitude: 0, longitude: 11))
        #expect(abs(east.point(at: 0.25).longitude - 10.25) < 1e-12 && abs(east.point(at: 0.25).latitude) < 1e-12)
        #expect(abs(east.course(at: east.point(at: 0.25)) - 90) < 1e-9)
        let north = GreatCircleLeg(from: GeoPoint(latitude: -20, longitude: 5), to: GeoPoint(latitude: 40, longitude: 5))
        #expect(abs(north.point(at: 0.3).latitude - -2) < 1e-9 && abs(north.point(at: 0.3).longitude - 5) < 1e-9)
        #expect(abs(north.course(at: north.to)) < 1e-9, "arriving northbound")
    }

    /// The destination from `start` after `distance` metres on initial bearing `θ`.
    static func destination(_ start: GeoPoint, bearing θ: Double, distance: Double) -> GeoPoint {
        let δ = distance / radius, φ1 = rad(start.latitude), λ1 = rad(start.longitude), t = rad(θ)
        let φ2 = asin(sin(φ1) * cos(δ) + cos(φ1) * sin(δ) * cos(t))
        let λ2 = λ1 + atan2(sin(t) * sin(δ) * cos(φ1), cos(δ) - sin(φ1) * sin(φ2))
        return GeoPoint(latitude: deg(φ2), longitude: deg(λ2))
    }

    /// The initial bearing from `a` to `b` (forward azimuth).
    static func bearing(_ a: GeoPoint, _ b: GeoPoint) -> Double {
        let φ1 = rad(a.latitude), φ2 = rad(b.latitude), Δλ = rad(b.longitude - a.longitude)
        let θ = deg(atan2(sin(Δλ) * cos(φ2), cos(φ1) * sin(φ2) - sin(φ1) * cos(φ2) * cos(Δλ)))
        return θ < 0 ? θ + 360 : θ
    }

    @Test("Paris to New York: every tenth of the way matches the destination formula to 1 mm", arguments: [0.1, 0.3, 0.5, 0.7, 0.9])
    func parisNewYork(fraction: Double) {
        let paris = GeoPoint(latitude: 48.8566, longitude: 2.3522), newYork = GeoPoint(latitude: 40.7128, longitude: -74.0060)
        let leg = GreatCircleLeg(from: paris, to: newYork)
        // Haversine, written out: the length the destination formula walks a fraction of.
        let φ1 = Self.rad(paris.latitude), φ2 = Self.rad(newYork.latitude)
        let h = pow(sin((φ2 - φ1) / 2), 2) + cos(φ1) * cos(φ2) * pow(sin(Self.rad(newYork.longitude - paris.longitude) / 2), 2)
        let length = 2 * Self.radius * asin(h.squareRoot())
        #expect(abs(leg.length - length) < 1e-6)
        let expected = Self.destination(paris, bearing: Self.bearing(paris, newYork), distance: fraction * length)
        let got = leg.point(at: fraction)
        let metresPerDegree = Self.radius * .pi / 180
        #expect(abs(got.latitude - expected.latitude) * metresPerDegree < 1e-3)
        #expect(abs(got.longitude - expected.longitude) * metresPerDegree * cos(Self.rad(got.latitude)) < 1e-3)
        // The course there is the bearing on to New York.
        #expect(abs(leg.course(at: got) - Self.bearing(got, newYork)) < 1e-9)
    }
}
