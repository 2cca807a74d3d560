/// Decides whose readings of one sensor the engines hear when several sources speak at once.
///
/// A value held by hand outranks a replay, which outranks live hardware: a QA script that
/// says `sextantctl rotate landscapeLeft`, or replays a recorded turn, on a machine with a
/// real accelerometer must not have the real one argue with it. Two clocks feeding one
/// judge would be worse than either: their timestamps interleave and the judge keeps
/// starting over. A lower source is heard again once the higher one has been quiet for
/// `quietPeriod` (monotonic time, handed in by the caller).
public struct SensorArbiter: Sendable {
    public enum Rank: Int, Sendable, Comparable {
        case live, replay, manual

        public static func < (a: Rank, b: Rank) -> Bool { a.rawValue < b.rawValue }
    }

    /// How long a higher source must be silent before a lower one is heard again.
    public static let quietPeriod: Int64 = 1_000_000_000

    private var owner: (rank: Rank, lastHeard: Int64)?

    public init() {}

    /// Whether a reading from a source of `rank`, arriving at monotonic time `now`, is heard.
    public mutating func admits(_ rank: Rank, at now: Int64) -> Bool {
        if let owner, owner.rank > rank, now - owner.lastHeard <= Self.quietPeriod { return false }
        owner = (rank, now)
        return true
    }
}
