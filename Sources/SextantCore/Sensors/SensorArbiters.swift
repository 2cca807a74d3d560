/// One ``SensorArbiter`` per sensor kind: whose readings of each kind the engines hear.
/// An arbiter is made the first time its kind is heard or held, so a kind added to
/// ``SensorKinds/all`` is arbitrated without a line here.
public struct SensorArbiters: Sendable {
    private var arbiters: [SensorKind.ID: SensorArbiter] = [:]

    public init() {}

    /// Whether a reading of `kind` from a source of `rank`, at monotonic time `now`, is heard.
    public mutating func admits(_ kind: SensorKind.ID, _ rank: SensorArbiter.Rank, at now: Int64) -> Bool {
        arbiters[kind, default: SensorArbiter()].admits(rank, at: now)
    }

    /// A value of `kind` is held by hand: only the manual source is heard until `release`.
    public mutating func hold(_ kind: SensorKind.ID) { arbiters[kind, default: SensorArbiter()].hold() }

    /// The hand lets go of `kind`: the other sources are heard again at once.
    public mutating func release(_ kind: SensorKind.ID) { arbiters[kind]?.release() }

    /// Whether a value of `kind` is held by hand.
    public func isHeld(_ kind: SensorKind.ID) -> Bool { arbiters[kind]?.isHeld ?? false }
}
