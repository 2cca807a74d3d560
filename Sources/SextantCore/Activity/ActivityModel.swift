import SextantProtocol

/// The numbers the activity and step engines decide by (RULES A1–A7), each with where it
/// comes from: docs/motion.md "Activity and steps" gives the sources in full.
public enum ActivityModel {
    /// A1: the upper bound of each band of true speed, in m/s (tddworks/baguette's
    /// `MotionKind.from(speed:)`: < 0.2 stationary, < 2.2 walking, < 4.5 running, < 8.5
    /// cycling, automotive above). 2.2 m/s is near the walk-to-run transition people choose
    /// (about 2 m/s); 8.5 m/s (31 km/h) is above GeoPulse's cycling average of 8–25 km/h.
    public static let bands: [(upTo: Double, type: ActivityType)] = [
        (0.2, .stationary), (2.2, .walking), (4.5, .running), (8.5, .cycling),
    ]

    /// A1: the activity of a true speed.
    public static func band(speed: Double) -> ActivityType {
        for band in bands where speed < band.upTo { return band.type }
        return .automotive
    }

    /// A2: the seconds of true speed a median is taken over: one noisy fix must not flip the
    /// activity, and five seconds of fixes hold a traffic light's stop-and-go.
    public static let medianWindow: Int64 = 5_000_000_000
    /// A2: the most speeds the median window keeps, whatever the fix rate (a 10 Hz trace
    /// gives 50 in five seconds).
    public static let medianCapacity = 64

    /// A3: how long a band must hold before the activity is entered, in nanoseconds. About a
    /// minute for automotive (iOS recognises driving after about a minute; Android's
    /// transitions take 1–2 minutes); ten seconds for stationary, walking and running (a
    /// few gait cycles: the step detector itself answers in about 2 s); thirty for cycling,
    /// which has no gait to see and which iOS rarely reports at all.
    public static func entryDelay(_ type: ActivityType) -> Int64 {
        switch type {
        case .automotive: return 60_000_000_000
        case .cycling: return 30_000_000_000
        case .stationary, .walking, .running: return 10_000_000_000
        }
    }

    /// A5: how long automotive holds through a stop or crawling traffic before another
    /// activity replaces it: longer than a red light (a cycle is rarely above two minutes).
    /// Meanwhile a stop is reported automotive and stationary, as iOS reports a car at a
    /// light.
    public static let automotiveHold: Int64 = 180_000_000_000

    /// A4: the dwell at which confidence becomes medium, then high; Android's percent rises
    /// from 50 at entry to 100 at `highAfter` (below 50 the platforms' plugins drop it).
    public static let mediumAfter: Int64 = 30_000_000_000
    public static let highAfter: Int64 = 120_000_000_000

    /// A4: the confidence after `dwell` nanoseconds in the activity.
    public static func confidence(dwell: Int64) -> (level: ActivityConfidence, percent: Int) {
        let level: ActivityConfidence = dwell >= highAfter ? .high : dwell >= mediumAfter ? .medium : .low
        let percent = 50 + Int((50 * min(1, Double(max(0, dwell)) / Double(highAfter))).rounded(.down))
        return (level, percent)
    }

    /// A7: the length of one step at a true speed, in metres, on foot only (walking and
    /// running bands), else nil. Step length grows with speed: 0.45 + 0.2·v walking gives
    /// 0.73 m and 1.9 steps/s (115 a minute, a usual adult cadence) at 1.4 m/s; 0.40 + 0.25·v
    /// running gives 1.28 m and 2.7 steps/s (165 a minute) at 3.5 m/s. Cadence = v / length.
    public static func stepLength(speed: Double) -> Double? {
        switch band(speed: speed) {
        case .walking: return 0.45 + 0.2 * speed
        case .running: return 0.40 + 0.25 * speed
        case .stationary, .cycling, .automotive: return nil
        }
    }

    /// A8: how far back the history answers (iOS: "the system stores only the last seven
    /// days") and the most entries it keeps whatever happens in them.
    public static let historyAge: Int64 = 7 * 86_400 * 1_000_000_000
    public static let historyCapacity = 10_080
    /// A8: the least time between two step checkpoints of the history: a query's counts are
    /// to the minute.
    public static let checkpointSpacing: Int64 = 60_000_000_000
}

/// Activities that hold at once (`CMMotionActivity`'s flags are not exclusive).
public struct ActivityFlags: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public init(_ types: [ActivityType]) {
        self.init(rawValue: 0)
        for type in types { insert(Self.flag(type)) }
    }

    static func flag(_ type: ActivityType) -> ActivityFlags {
        ActivityFlags(rawValue: 1 << UInt8(ActivityType.allCases.firstIndex(of: type)!))
    }

    public func contains(_ type: ActivityType) -> Bool { contains(Self.flag(type)) }

    /// Its activities in the order of ``ActivityType``.
    public var types: [ActivityType] { ActivityType.allCases.filter { contains($0) } }
}
