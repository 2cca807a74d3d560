/// Says a repeated warning once, then at most once per `interval` with the count of those
/// held back, so that a sensor broken at 50 Hz, or a peer flooding bad lines, fills no log.
/// Pure: the caller gives the time.
public struct RateLimitedWarnings: Sendable {
    /// Monotonic nanoseconds between two warnings about the same thing.
    public let interval: Int64
    private var entries: [String: (lastSaid: Int64, heldBack: Int)] = [:]

    public init(interval: Int64) { self.interval = interval }

    /// Notes one occurrence of `key` at `now`: nil when it is held back, else how many were
    /// held back since the last warning said (0 for the first).
    public mutating func note(_ key: String, at now: Int64) -> Int? {
        guard let entry = entries[key] else {
            entries[key] = (now, 0)
            return 0
        }
        guard now - entry.lastSaid >= interval else {
            entries[key] = (entry.lastSaid, entry.heldBack + 1)
            return nil
        }
        entries[key] = (now, 0)
        return entry.heldBack
    }

    /// Forgets `key` (its sensor was removed): a sensor plugged in again is warned about afresh.
    public mutating func forget(_ key: String) { entries[key] = nil }
}
