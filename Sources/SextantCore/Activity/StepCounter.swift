import SextantProtocol

/// Steps from true movement (RULES A7): each stretch covered on foot adds its length over
/// the step length at its speed; only whole steps are banked, and the distance reported is
/// the sum of the banked steps' lengths, so steps and distance never disagree, both only
/// grow, and the distance stays within one step of the distance walked.
public struct StepCounter: Sendable {
    public private(set) var steps = 0
    /// Metres: the banked steps' lengths added up.
    public private(set) var distance = 0.0
    /// Steps per second and seconds per metre of the last stretch, while on foot.
    public private(set) var cadence: Double?
    public private(set) var pace: Double?
    /// The metres walked and not banked yet (less than a step: kept in metres, so that a
    /// change of step length never banks more than was walked).
    private var partial = 0.0

    public init() {}

    /// A stretch of `metres` at `speed` m/s; returns whether a step was banked.
    public mutating func add(metres: Double, speed: Double) -> Bool {
        guard metres > 0, let length = ActivityModel.stepLength(speed: speed) else {
            cadence = nil
            pace = nil
            return false
        }
        cadence = speed / length
        pace = 1 / speed
        partial += metres
        let whole = (partial / length).rounded(.down)
        guard whole >= 1 else { return false }
        partial -= whole * length
        steps += Int(whole)
        distance += whole * length
        return true
    }
}

/// One stretch between two fixes: its length along the great circle and its duration.
public struct FixStretch: Sendable, Equatable {
    public var metres: Double
    public var seconds: Double
    /// The fix's own speed where it has one, else the stretch's length over its duration.
    public var speed: Double
    public var time: Timestamp
}

/// The stretches a run of fixes makes: the true speed of each (A1).
public struct FixStretches: Sendable {
    private var previous: LocationFix?

    public init() {}

    /// The stretch ending at `fix`, or nil for the first fix, a fix at the same time, or one
    /// earlier than the last (a replay sought back: it begins a new run).
    public mutating func add(_ fix: LocationFix) -> FixStretch? {
        defer { previous = fix }
        guard let previous, fix.time > previous.time else { return nil }
        let seconds = Double(fix.time.nanoseconds - previous.time.nanoseconds) / 1e9
        let metres = Geo.distance(lat1: previous.latitude, lon1: previous.longitude, lat2: fix.latitude, lon2: fix.longitude)
        return FixStretch(metres: metres, seconds: seconds, speed: fix.speed ?? metres / seconds, time: fix.time)
    }
}
