import SextantProtocol

/// A value of a non-scalar sample kind (the sky; a Wi-Fi or cell scan later): a record, as
/// opposed to a sensor's reading of a few numbers (``SensorReading``).
///
/// Its type declares everything the parts that carry samples need of it, once: its kind
/// (the name its lines carry), its body on a JSONL line and how that is read back, and its
/// words in a replay's spool. The JSONL reader and writer, the spool, the trace summary and
/// the hub's routing read these requirements and name no record type, so a new kind is its
/// declaration and one line in ``RecordKinds/all``.
public protocol RecordValue: Sendable, Equatable {
    /// Its kind: a static `let` beside the conformance (the same instance every time).
    static var recordKind: RecordKind { get }
    /// Its body on a trace line: `{"t":…,"<kind>":<body>}`.
    var recordBody: JSONValue { get }
    /// A body as a line carries it, or why it is not one (the message names the member).
    static func read(recordBody: JSONValue) -> Result<Self, RecordProblem>
    /// Its words in a spool, any number of them.
    var spoolWords: [UInt64] { get }
    /// The value `spoolWords` gave, from those words: a spool holds only what this process
    /// wrote, so nothing is checked.
    init(spoolWords: ArraySlice<UInt64>)
}

extension RecordValue {
    /// Whether `other` is a value of this type equal to this one.
    fileprivate func isEqual(to other: any RecordValue) -> Bool {
        guard let other = other as? Self else { return false }
        return other == self
    }
}

/// Why a record's body was refused: a message naming the member (`sky.satellites[2]: …`).
public struct RecordProblem: Error, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// A kind of record: its name on a trace line (`sky`) and the type of its values, whose
/// conformance to ``RecordValue`` is its codecs. Compared by identity: a kind is declared
/// once, as a static `let`.
public final class RecordKind: Sendable, Hashable, CustomStringConvertible {
    /// The key of its samples in a JSONL trace and in `trace info`'s counts.
    public let name: String
    private let valueType: any RecordValue.Type

    /// `name` is its key on a line; `type` the type whose `recordKind` this is.
    public init<Value: RecordValue>(name: String, of type: Value.Type) {
        precondition(!name.isEmpty && name.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: "\"") }, "a record kind's name is printable ASCII: \(name)")
        self.name = name
        self.valueType = type
    }

    public var description: String { name }

    public static func == (a: RecordKind, b: RecordKind) -> Bool { a === b }
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// A record of this kind from a line's body, or why the body is not one.
    public func read(body: JSONValue) -> Result<SampleRecord, RecordProblem> { Self.read(valueType, body) }

    /// A record of this kind from the words its `spoolWords` gave.
    public func record(spoolWords: ArraySlice<UInt64>) -> SampleRecord { SampleRecord(valueType.init(spoolWords: spoolWords)) }

    private static func read<Value: RecordValue>(_ type: Value.Type, _ body: JSONValue) -> Result<SampleRecord, RecordProblem> {
        type.read(recordBody: body).map { SampleRecord($0) }
    }
}

/// One non-scalar sample: a value of some record kind (``SampleValue/record(_:)``).
public struct SampleRecord: Sendable, Equatable {
    /// The value, whose type declares its kind and codecs.
    public let value: any RecordValue

    public init(_ value: some RecordValue) { self.value = value }

    public var kind: RecordKind { type(of: value).recordKind }

    /// The value, when it is a `Value`.
    public func value<Value: RecordValue>(as type: Value.Type) -> Value? { value as? Value }

    /// Its body on a trace line.
    public var body: JSONValue { value.recordBody }

    /// Its words in a spool (``RecordKind/record(spoolWords:)`` reads them back).
    public var spoolWords: [UInt64] { value.spoolWords }

    public static func == (a: SampleRecord, b: SampleRecord) -> Bool { a.value.isEqual(to: b.value) }
}
