/// One ``SensorArbiter`` per sensor kind: whose readings of each kind the engines hear.
/// An arbiter is made the first time its kind is heard, so a kind added to
/// ``SensorKinds/all`` is arbitrated without a line here.
public struct SensorArbiters: Sendable {
    private var arbiters: [SensorKind.ID: SensorArbiter] = [:]

    public init() {}

    /// Whether a reading of `kind` from a source of `rank`, at monotonic time `now`, is heard.
    public mutating func admits(_ kind: SensorKind.ID, _ rank: SensorArbiter.Rank, at now: Int64) -> Bool {
        arbiters[kind, default: SensorArbiter()].admits(rank, at: now)
    }
}
