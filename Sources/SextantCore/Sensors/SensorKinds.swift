/// The registration place of sensor kinds: a kind is known to every part of Sextant once
/// it is in ``all``.
public enum SensorKinds {
    /// Every sensor kind Sextant carries. One line a kind.
    public static let all = SensorKindTable([
        .accelerometer,
        .hinge,
        .magnetometer,
        .compass,
        .light,
        .proximity,
        .pressure,
        .gyroscope,
    ])
}

/// A list of kinds with unique names, looked up by ID or by packed name.
///
/// Readers and writers of traces take one (``SensorKinds/all`` unless told): a kind
/// declared elsewhere, such as in a test, then travels through them like a registered one.
public struct SensorKindTable: Sendable {
    public let kinds: [SensorKind]
    /// The kinds' IDs, in the same order: what a look-up compares.
    private let ids: [SensorKind.ID]

    public init(_ kinds: [SensorKind]) {
        precondition(Set(kinds.map(\.id)).count == kinds.count, "sensor kinds' names must be unique: \(kinds.map(\.name))")
        self.kinds = kinds
        self.ids = kinds.map(\.id)
    }

    /// The table with `more` kinds added.
    public func adding(_ more: [SensorKind]) -> SensorKindTable { SensorKindTable(kinds + more) }

    public subscript(id: SensorKind.ID) -> SensorKind? { index(of: id).map { kinds[$0] } }

    /// The kind whose name packs to `packedName`.
    public func kind(packedName: UInt64) -> SensorKind? { self[SensorKind.ID(packedName: packedName)] }

    public func kind(named name: String) -> SensorKind? { kinds.first { $0.name == name } }

    /// Where a kind is in the table, for tallies kept in arrays.
    public func index(of id: SensorKind.ID) -> Int? {
        for index in ids.indices where ids[index] == id { return index }
        return nil
    }
}
