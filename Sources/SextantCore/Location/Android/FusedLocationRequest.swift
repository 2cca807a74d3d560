/// An app's location request under the Android profile, with the parameters of Android's
/// `LocationRequest.Builder` (docs/platforms.md AN25–AN31). Milliseconds, as Android counts.
public struct FusedLocationRequest: Sendable, Equatable {
    /// The power/accuracy trade-off (`Priority.PRIORITY_*`); a passive request never makes
    /// the provider run, it only hears fixes other requests cause (AN29).
    public enum Priority: String, Sendable, CaseIterable {
        case highAccuracy, balanced, lowPower, passive
    }

    public var priority: Priority
    /// How often the app would like a fix; the provider runs at the fastest of these (AN29).
    public var intervalMillis: Int64
    /// The least time between two fixes delivered; nil is Android's implicit value, a sixth
    /// of the interval (AN26).
    public var minUpdateIntervalMillis: Int64?
    /// A fix no further than this from the last delivered one is not delivered (AN27).
    public var minUpdateDistanceMeters: Double
    /// How long a fix may be held to be delivered with later ones in one batch (AN30).
    public var maxUpdateDelayMillis: Int64
    /// The request ends this long after it began (AN31); nil is never.
    public var durationMillis: Int64?
    /// The request ends after this many deliveries (AN31); nil is never.
    public var maxUpdates: Int?

    /// AN26: `IMPLICIT_MIN_UPDATE_INTERVAL_FACTOR` (android.location.LocationRequest).
    public static let implicitMinUpdateIntervalFactor = 1.0 / 6.0

    public init(
        priority: Priority = .balanced, intervalMillis: Int64, minUpdateIntervalMillis: Int64? = nil,
        minUpdateDistanceMeters: Double = 0, maxUpdateDelayMillis: Int64 = 0,
        durationMillis: Int64? = nil, maxUpdates: Int? = nil
    ) {
        self.priority = priority
        self.intervalMillis = intervalMillis
        self.minUpdateIntervalMillis = minUpdateIntervalMillis
        self.minUpdateDistanceMeters = minUpdateDistanceMeters
        self.maxUpdateDelayMillis = maxUpdateDelayMillis
        self.durationMillis = durationMillis
        self.maxUpdates = maxUpdates
    }

    /// What is wrong with the request, naming the parameter, or nil when Android's builder
    /// would accept it (its range checks, and "passive location requests must have an
    /// explicit minimum update interval").
    public var problem: String? {
        if intervalMillis < 0 { return "intervalMillis must be 0 or more, not \(intervalMillis)" }
        if let m = minUpdateIntervalMillis, m < 0 { return "minUpdateIntervalMillis must be 0 or more, not \(m)" }
        if !(minUpdateDistanceMeters >= 0) || !minUpdateDistanceMeters.isFinite {
            return "minUpdateDistanceMeters must be a finite number of metres, 0 or more"
        }
        if maxUpdateDelayMillis < 0 { return "maxUpdateDelayMillis must be 0 or more, not \(maxUpdateDelayMillis)" }
        if let d = durationMillis, d < 1 { return "durationMillis must be 1 or more, not \(d)" }
        if let n = maxUpdates, n < 1 { return "maxUpdates must be 1 or more, not \(n)" }
        if priority == .passive, minUpdateIntervalMillis == nil {
            return "a passive request needs an explicit minUpdateIntervalMillis"
        }
        return nil
    }

    /// AN26: the minimum update interval in force: the explicit one (never above the
    /// interval), else a sixth of the interval.
    public var effectiveMinUpdateIntervalMillis: Int64 {
        guard let explicit = minUpdateIntervalMillis else {
            return Int64(Double(intervalMillis) * Self.implicitMinUpdateIntervalFactor)
        }
        return min(explicit, intervalMillis)
    }
}
