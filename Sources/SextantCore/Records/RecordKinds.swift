/// The registration place of record kinds: a kind is known to the trace readers and
/// `trace info` once it is in ``all`` (writers, spools and the hub's routing need no table:
/// a record carries its kind).
public enum RecordKinds {
    /// Every record kind Sextant carries. One line a kind.
    public static let all = RecordKindTable([
        .sky,
        .activity,
    ])
}

/// A list of record kinds with unique names, looked up by name.
///
/// Trace readers take one (``RecordKinds/all`` unless told): a kind declared elsewhere,
/// such as in a test, then travels through them like a registered one.
public struct RecordKindTable: Sendable {
    public let kinds: [RecordKind]

    public init(_ kinds: [RecordKind]) {
        precondition(Set(kinds.map(\.name)).count == kinds.count, "record kinds' names must be unique: \(kinds.map(\.name))")
        self.kinds = kinds
    }

    /// The table with `more` kinds added.
    public func adding(_ more: [RecordKind]) -> RecordKindTable { RecordKindTable(kinds + more) }

    public func kind(named name: String) -> RecordKind? { kinds.first { $0.name == name } }

    /// Where a kind is in the table, for tallies kept in arrays.
    public func index(of kind: RecordKind) -> Int? { kinds.firstIndex { $0 === kind } }
}
