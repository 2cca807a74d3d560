/// What a kind of sensor is, as every part of Sextant that carries its readings needs to
/// know it: its name in traces (`accel`), the numbers a reading holds with their bounds and
/// units, and the topic apps subscribe to for what the engines make of it.
///
/// The model is iio-sensor-proxy's driver table: a kind is declared once (its folder under
/// `Sensors/`, one line in ``SensorKinds/all``), and the JSONL reader and writer, the trace
/// summary and plot, the IIO source's range check and the hub's arbiters read that
/// declaration instead of naming kinds. A kind is a class so that its tables (field names,
/// their packed keys) are built once and shared, not copied with every use.
public final class SensorKind: Sendable, CustomStringConvertible {
    /// The kind's identity in a reading: its name's bytes packed little-endian into one
    /// integer (names are at most 8 ASCII bytes). A reading then carries no reference to
    /// count, and the JSONL fast path compares a key it packed with one integer compare.
    public struct ID: Hashable, Sendable, CustomStringConvertible {
        public let packedName: UInt64

        public init(packedName: UInt64) { self.packedName = packedName }

        /// The name the ID was packed from.
        public var description: String {
            var bytes: [UInt8] = []
            var rest = packedName
            while rest != 0 {
                bytes.append(UInt8(truncatingIfNeeded: rest))
                rest >>= 8
            }
            return String(decoding: bytes, as: UTF8.self)
        }
    }

    /// The key of its samples in a JSONL trace and in `status` (`accel`, `hinge`).
    public let name: String
    public let id: ID
    /// What its readings are, for people reading a log (`acceleration`, `hinge`).
    public let noun: String
    /// The numbers a reading holds, in the order they are stored and written.
    public let fields: [SensorField]
    /// The event family apps subscribe to for what the engines decide from these readings
    /// (`orientation`, `posture`).
    public let topic: AppTopic
    // What a reader checks on every line, by field index, in fixed storage: read without
    // touching `fields` (whose strings a debug build retains at each access).
    public let fieldCount: Int
    /// Each field's name packed as ``ID`` packs a kind's.
    public let packedFieldNames: InlineArray<4, UInt64>
    private let lowerBounds: InlineArray<4, Double>
    private let upperBounds: InlineArray<4, Double>
    private let requiredFields: UInt8
    /// Fields of which a reading must carry at least one (none: no such demand), for a kind
    /// whose every field is optional but which says nothing without one of them (`compass`).
    private let oneOfFields: UInt8

    /// `oneOf` names fields of which every reading must carry at least one.
    public init(name: String, noun: String, topic: AppTopic, fields: [SensorField], oneOf: [String] = []) {
        precondition(!fields.isEmpty && fields.count <= SensorReading.capacity, "\(name): 1...\(SensorReading.capacity) fields")
        guard let id = SensorKind.pack(name) else { preconditionFailure("a sensor kind's name is 1 to 8 ASCII bytes: \(name)") }
        self.name = name
        self.id = ID(packedName: id)
        self.noun = noun
        self.topic = topic
        self.fields = fields
        self.fieldCount = fields.count
        var packedNames = InlineArray<4, UInt64>(repeating: 0)
        var lower = InlineArray<4, Double>(repeating: 0), upper = InlineArray<4, Double>(repeating: 0)
        var required: UInt8 = 0
        for (index, field) in fields.enumerated() {
            guard let packed = SensorKind.pack(field.name) else { preconditionFailure("a field's name is 1 to 8 ASCII bytes: \(field.name)") }
            packedNames[index] = packed
            lower[index] = field.bounds.lowerBound
            upper[index] = field.bounds.upperBound
            if field.isRequired { required |= 1 << index }
        }
        self.packedFieldNames = packedNames
        self.lowerBounds = lower
        self.upperBounds = upper
        self.requiredFields = required
        self.oneOfFields = fields.indices.reduce(0) { mask, index in oneOf.contains(fields[index].name) ? mask | 1 << index : mask }
        precondition(oneOf.allSatisfy { name in fields.contains { $0.name == name } }, "\(name): oneOf names unknown fields \(oneOf)")
    }

    /// `compass needs one of magnetic, true`, when a reading carries none of ``oneOfFields``.
    private func missingOneOf(_ reading: SensorReading) -> String? {
        guard oneOfFields != 0 else { return nil }
        for index in 0..<fieldCount where oneOfFields & (1 << index) != 0 && reading[index] != nil { return nil }
        let names = fields.indices.filter { oneOfFields & (1 << $0) != 0 }.map { fields[$0].name }
        return "\(name) needs one of \(names.joined(separator: ", "))"
    }

    /// Whether `value` is finite and within field `index`'s bounds.
    @inline(__always)
    func admits(_ value: Double, field index: Int) -> Bool {
        value.isFinite && value >= lowerBounds[index] && value <= upperBounds[index]
    }

    public var description: String { name }

    /// Up to 8 ASCII bytes as one little-endian integer; nil for a longer or empty name.
    public static func pack(_ name: String) -> UInt64? {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.count <= 8, bytes.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        return bytes.enumerated().reduce(0) { packed, byte in packed | UInt64(byte.element) << (8 * byte.offset) }
    }

    /// A reading from its fields' values, by field index (nil when absent), checked: a
    /// required field present, every value within its bounds. `fail` builds the error from
    /// the message (`accel.z is required`, or the field's own `problem`).
    public func reading<Failure: Error>(
        _ value: (Int) throws(Failure) -> Double?, fail: (String) -> Failure
    ) throws(Failure) -> SensorReading {
        var reading = SensorReading(kind: id)
        for index in 0..<fieldCount {
            if let v = try value(index) {
                reading.set(index, v)
            } else if requiredFields & (1 << index) != 0 {
                throw fail("\(name).\(fields[index].name) is required")
            }
        }
        if let missing = missingOneOf(reading) { throw fail(missing) }
        for index in 0..<fieldCount {
            if let v = reading[index], !admits(v, field: index) { throw fail(fields[index].problem) }
        }
        return reading
    }

    /// The message of the first field whose value is out of its bounds, or nil.
    public func problem(_ reading: SensorReading) -> String? {
        if let missing = missingOneOf(reading) { return missing }
        for index in 0..<fieldCount {
            if let v = reading[index], !admits(v, field: index) { return fields[index].problem }
        }
        return nil
    }

    /// A sensor source's account of the first value out of bounds, with the value
    /// (`acceleration y 1000.5 m/s² is not within -1000.0...1000.0`), or nil.
    public func rangeProblem(_ reading: SensorReading) -> String? {
        for index in fields.indices {
            let field = fields[index]
            if let v = reading[index], !field.admits(v) { return "\(noun) \(field.name) \(v) \(field.unit) is not within \(field.bounds)" }
        }
        return nil
    }
}

/// One number of a sensor reading.
public struct SensorField: Sendable {
    /// Its key in a trace's sample body (`x`, `angle`).
    public let name: String
    public let unit: String
    /// The values a reading may carry: anything else never reaches an engine.
    public let bounds: ClosedRange<Double>
    /// Whether a reading must have it (a trace line without it is refused).
    public let isRequired: Bool
    /// What a trace line with a value out of `bounds` is refused with, whole.
    public let problem: String

    public init(name: String, unit: String, bounds: ClosedRange<Double>, isRequired: Bool = true, problem: String) {
        self.name = name
        self.unit = unit
        self.bounds = bounds
        self.isRequired = isRequired
        self.problem = problem
    }

    public func admits(_ value: Double) -> Bool { value.isFinite && bounds.contains(value) }

    /// `x`, `y` and `z` in `unit`, each required and within ±`limit`: a three-axis sensor
    /// in the device frame (`accel`, `magnet`), its messages naming the kind.
    public static func axes(of kind: String, unit: String, limit: Double) -> [SensorField] {
        ["x", "y", "z"].map { axis in
            SensorField(name: axis, unit: unit, bounds: -limit...limit, problem: "\(kind): \(axis) must be a number within ±\(Int(limit)) \(unit)")
        }
    }
}
