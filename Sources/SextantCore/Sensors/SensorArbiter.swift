/// Decides whose readings of one sensor the engines hear when several sources speak at once.
///
/// A value held by hand outranks a replay, which outranks live hardware: a QA script that
/// says `sextantctl rotate landscapeLeft` while a walk plays, or replays a recorded turn on
/// a machine with a real accelerometer, must not have the other source argue with it. Two
/// clocks feeding one judge would be worse than either: their timestamps interleave and
/// the judge keeps starting over.
///
/// The hand's value is a hold (RULES O4a): from ``hold()`` to ``release()`` only the
/// manual source is heard, however busy the others are, and at the release the others are
/// heard again at once. Between a replay and live hardware the lower one is heard again
/// once the higher one has been quiet for ``quietPeriod`` (monotonic time, handed in by
/// the caller): a replay has no release, it ends.
public struct SensorArbiter: Sendable {
    public enum Rank: Int, Sendable, Comparable {
        case live, replay, manual

        public static func < (a: Rank, b: Rank) -> Bool { a.rawValue < b.rawValue }
    }

    /// How long a replay must be silent before live hardware is heard again.
    public static let quietPeriod: Int64 = 1_000_000_000

    private var owner: (rank: Rank, lastHeard: Int64)?
    /// Whether a value is held by hand: only the manual source is heard.
    public private(set) var isHeld = false

    public init() {}

    /// A value is held by hand from now on: the other sources go unheard until ``release()``.
    public mutating func hold() { isHeld = true }

    /// The hand lets go: the replay's or the hardware's next reading is heard at once.
    public mutating func release() {
        isHeld = false
        if owner?.rank == .manual { owner = nil }
    }

    /// Whether a reading from a source of `rank`, arriving at monotonic time `now`, is heard.
    public mutating func admits(_ rank: Rank, at now: Int64) -> Bool {
        if isHeld, rank != .manual { return false }
        if let owner, owner.rank > rank, now - owner.lastHeard <= Self.quietPeriod { return false }
        owner = (rank, now)
        return true
    }
}
