import SextantProtocol

/// The significant-change service's numbers (RULES S1–S3): iOS's documented figures by
/// default, each a `sextantd` option.
public struct SignificantChangeSettings: Sendable, Equatable {
    /// Metres the device must have moved since the last change delivered (`--significant-distance`).
    public var distance: Double
    /// Seconds: the least time between two changes delivered, in sample time (`--significant-interval`).
    public var interval: Double

    /// What the options accept: a distance of 1 m to 1000 km, an interval of up to a day.
    public static let distanceRange: ClosedRange<Double> = 1...1_000_000
    public static let intervalRange: ClosedRange<Double> = 0...86_400

    public init(distance: Double = 500, interval: Double = 300) {
        self.distance = distance
        self.interval = interval
    }

    var intervalNanoseconds: Int64 { Int64((interval * 1e9).rounded()) }
}

/// One app session's significant-change service (`significantChanges.start`): which of the
/// device's fixes it is told of. Pure: it reads time only from the fixes, so a trace gives
/// the same changes at every replay speed. The caller offers a fix only when the session may
/// have it (L1, L8, L9), so "the last one delivered" is the last one the app received.
public struct SignificantChangeMonitor: Sendable, Equatable {
    public let settings: SignificantChangeSettings
    private var lastDelivered: LocationFix?

    public init(settings: SignificantChangeSettings = SignificantChangeSettings()) {
        self.settings = settings
    }

    /// Whether `fix` is a significant change; if so it counts as delivered.
    /// S1: the first fix after the start is one. S2: a later fix is one when it is at least
    /// `distance` from the last one delivered and at least `interval` after it.
    /// S3: a fix older than the last one delivered (a new replay) starts the service afresh.
    public mutating func offer(_ fix: LocationFix) -> Bool {
        if let last = lastDelivered, fix.time >= last.time {
            // Past what an Int64 holds is long enough.
            let elapsed = fix.time.nanoseconds(since: last.time) ?? .max
            guard elapsed >= settings.intervalNanoseconds, Geo.distance(last, fix) >= settings.distance else { return false }
        }
        lastDelivered = fix
        return true
    }
}
