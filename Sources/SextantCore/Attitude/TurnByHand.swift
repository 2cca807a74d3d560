import Foundation

/// A turn by hand (RULES D7): the device turned from one gravity to another about one axis
/// at a constant rate, sampled on the hand's grid of ticks, so that the accelerometer, the
/// gyroscope and a held field read one rotation. Pure: ticks in, readings out.
///
/// A body turning at a constant rate ω about its own axes sees a vector fixed in the world
/// (gravity, the earth's field) turn by −ω·t: the turn finds the axis that takes the first
/// gravity to the second, and the rate is the opposite way about it.
public struct TurnByHand: Sendable, Equatable {
    /// D7: at most half a turn a second (π rad/s, 180 °/s): a quarter turn in half a second.
    public static let fastestRate = Double.pi

    /// The rotation rate the gyroscope reads while the device turns (rad/s, device axes).
    public let rate: Vector3
    /// The turn lasts this many ticks; its rate is the angle over their time, at most `fastestRate`.
    public let ticks: Int
    /// Seconds between two of the hand's readings.
    public let tick: Double
    private let from: Vector3
    private let to: Vector3

    /// The turn from the reading `from` to `to` (the accelerometer's, m/s²); nil when they
    /// point the same way (within a tenth of a degree: nothing to turn) or one has no direction.
    public init?(from: Vector3, to: Vector3, tick: Double) {
        guard tick > 0, let a = from.direction, let b = to.direction else { return nil }
        let angle = atan2(a.cross(b).length, a.dot(b))
        guard angle > 0.1 * .pi / 180 else { return nil }
        let axis = a.cross(b).direction ?? Self.perpendicular(to: a)
        ticks = max(1, Int((angle / (Self.fastestRate * tick)).rounded(.up)))
        // The world's vectors turn about `axis` as the device reads them; the device the other way.
        rate = (-angle / (Double(ticks) * tick)) * axis
        (self.from, self.to, self.tick) = (from, to, tick)
    }

    /// A half turn has no one plane: it goes over the screen lying face up (over the top
    /// for a device lying flat), as a hand turns a phone over, so that the orientation
    /// judge decides none on the way (face up is passed far quicker than O3's 500 ms).
    private static func perpendicular(to a: Vector3) -> Vector3 {
        let midway = abs(a.z) < 0.5 ? Vector3(0, 0, 1) : Vector3(0, 1, 0)
        return a.cross(midway).direction ?? Vector3(1, 0, 0)
    }

    /// How far the device has turned after `k` ticks: none at 0, all from `ticks` on.
    private func turn(after k: Int) -> Quaternion {
        Quaternion.turn(rate: rate, seconds: Double(min(max(k, 0), ticks)) * tick)
    }

    /// The accelerometer's reading after `k` ticks: the first reading turned, its length
    /// going from the first's to the last's; exactly the last from `ticks` on.
    public func gravity(after k: Int) -> Vector3 {
        guard k < ticks else { return to }
        let share = Double(max(k, 0)) / Double(ticks)
        let length = from.length + (to.length - from.length) * share
        return length * (turned(from, after: k).direction ?? from)
    }

    /// A vector fixed in the world (the earth's field) as the device reads it after `k`
    /// ticks, `v` being its reading before the turn.
    public func turned(_ v: Vector3, after k: Int) -> Vector3 { turn(after: k).conjugate.rotate(v) }

    /// The gyroscope's reading at tick `k`: the mean rate over the tick that ends there, so
    /// none at the turn's first tick (the device has not moved yet) and none after its last.
    public func rotationRate(at k: Int) -> Vector3 { (1...ticks).contains(k) ? rate : .zero }

    /// Whether tick `k` is past the turn: its last reading (the gyroscope's zero) is sent.
    public func isOver(at k: Int) -> Bool { k > ticks }
}
