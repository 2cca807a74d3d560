/// Whether the device is still, for the `stationary` diagnostic (docs/platforms.md I14).
///
/// Apple says only that Core Location reports stationary when it stops delivering updates
/// because the device has not moved (`CLLocationUpdate.isStationary`); no distance or time
/// is published. Sextant's rule: the device is stationary once every fix for
/// ``stillFor`` has stayed within its own accuracy of the anchor (the first fix of the
/// still run): the larger of the two accuracy radii, so that a fix's noise is not taken
/// for a move. A fix beyond it is a move: stationary is false at once and that fix is the
/// new anchor. Fed only while someone hears diagnostics: unheard it costs nothing.
public struct IOSStillnessJudge: Sendable, Equatable {
    /// I14: 30 s without a move (Apple publishes no number; said in docs/platforms.md).
    public static let stillFor: Int64 = 30_000_000_000

    private var anchor: LocationFix?
    /// When the anchor was taken, by the device's monotonic clock (nanoseconds).
    private var since: Int64 = 0
    public private(set) var stationary = false
    /// Whether it holds an anchor: something to forget once nobody listens.
    public var isAnchored: Bool { anchor != nil }

    public init() {}

    /// A decided fix at `now` (device monotonic nanoseconds); true when `stationary` changed.
    public mutating func fixArrived(_ fix: LocationFix, at now: Int64) -> Bool {
        let before = stationary
        if let anchor, Geo.distance(anchor, fix) <= max(anchor.horizontalAccuracy, fix.horizontalAccuracy) {
            stationary = now - since >= Self.stillFor
        } else {
            (anchor, since, stationary) = (fix, now, false)
        }
        return stationary != before
    }

    /// Nobody hears it any more: the next listener starts from its first fix.
    public mutating func forget() { self = IOSStillnessJudge() }
}
