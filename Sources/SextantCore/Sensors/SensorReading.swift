/// One reading of any sensor kind: the kind's ID and its fields' values, by field index.
///
/// Fixed-size storage (``capacity`` values and a mask of those present) so that a sample
/// is a plain value: building, copying and storing one allocates nothing, which the JSONL
/// reader's fast path and the replay rely on. The engines read it through a kind's typed
/// view (`Acceleration(reading)`, `reading.hingeAngle`).
public struct SensorReading: Sendable, Equatable {
    /// The most fields a kind may declare.
    public static let capacity = 4

    public let kind: SensorKind.ID
    private var values = InlineArray<4, Double>(repeating: 0)
    private var present: UInt8 = 0

    public init(kind: SensorKind.ID) { self.kind = kind }

    /// A reading of `kind` with every field given, in field order.
    public init(_ kind: SensorKind, _ values: Double...) {
        precondition(values.count == kind.fields.count, "\(kind.name) has \(kind.fields.count) fields")
        self.kind = kind.id
        for (index, value) in values.enumerated() { set(index, value) }
    }

    /// The value of field `index`, nil when the reading does not carry it.
    public subscript(index: Int) -> Double? {
        present & (1 << index) == 0 ? nil : values[index]
    }

    /// The value of field `index`, which the reading carries (a required field).
    public func value(_ index: Int) -> Double { values[index] }

    public mutating func set(_ index: Int, _ value: Double) {
        values[index] = value
        present |= 1 << index
    }

    public static func == (a: SensorReading, b: SensorReading) -> Bool {
        guard a.kind == b.kind, a.present == b.present else { return false }
        for index in 0..<capacity where a.present & (1 << index) != 0 && a.values[index] != b.values[index] { return false }
        return true
    }
}
