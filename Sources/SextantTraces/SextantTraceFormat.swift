import SextantCore
import SextantProtocol

/// Sextant's own trace format: JSON Lines, a header then one timed sample a line.
///
/// ```
/// {"sextant":"trace","version":1,"start":"2026-03-01T08:00:00.000Z","profile":"foldable"}
/// {"t":0.000,"location":{"lat":48.85837,"lon":2.29448,"alt":35.0,"hAcc":5}}
/// {"t":0.010,"accel":{"x":0.02,"y":9.79,"z":0.31}}
/// {"t":0.500,"hinge":{"angle":92.5}}
/// {"t":12.0,"gps":{"state":"lost"}}
/// {"t":13.0,"sky":{"satellites":[{"constellation":"gps","svid":5,"el":41.2,"az":130.5,"cn0":38.5,"used":true}]}}
/// ```
public enum SextantTraceFormat: Sendable {
    public static let version = 1

    /// Reads a whole trace. Nothing is returned unless every line is good: a bad line
    /// throws with its 1-based physical line number.
    public static func read(
        _ text: String, path: String, sensors: SensorKindTable = SensorKinds.all, records: RecordKindTable = RecordKinds.all
    ) throws(TraceError) -> Trace {
        var text = text
        return try text.withUTF8 { bytes in Result { () throws(TraceError) in try read(bytes, path: path, sensors: sensors, records: records) } }.get()
    }

    /// Reads a whole trace from its bytes, a line at a time: no copy of the file is made.
    public static func read(
        _ bytes: UnsafeBufferPointer<UInt8>, path: String, sensors: SensorKindTable = SensorKinds.all,
        records: RecordKindTable = RecordKinds.all
    ) throws(TraceError) -> Trace {
        var reader = JSONLLineReader(path: path, sensors: sensors, records: records)
        var samples: [TraceSample] = []
        // One sample a line at most: room for all at once, rather than doubling (and
        // briefly holding twice) the array as it grows.
        samples.reserveCapacity(JSONLLines.count(in: bytes))
        let lines = try JSONLLines.forEach(in: bytes) { line, number throws(TraceError) in
            if let sample = try reader.read(line, number: number) { samples.append(sample) }
        }
        var trace = try reader.finish(lines: lines)
        trace.samples = samples
        trace.controls = reader.controls
        return trace
    }

    static func readHeader(_ o: [String: JSONValue], fail: (String) -> TraceError) throws(TraceError) -> Trace {
        guard o["sextant"] == .string("trace") else {
            throw fail("the first line must be a header {\"sextant\":\"trace\",\"version\":1,\"start\":...}")
        }
        guard let version = o["version"]?.intValue else { throw fail("header: \"version\" is required") }
        guard version == Self.version else { throw fail("header: unsupported version \(version) (this daemon reads \(Self.version))") }
        guard let startText = o["start"]?.stringValue else { throw fail("header: \"start\" is required (RFC 3339 time)") }
        let start: Timestamp
        do { start = try Timestamp.parse(rfc3339: startText) } catch { throw fail("header: \"start\" is \(error): \(startText)") }
        var profile: DeviceProfile?
        if let p = o["profile"], !p.isNull {
            guard let name = p.stringValue, let known = DeviceProfile(rawValue: name) else {
                throw fail("header: \"profile\" must be phone, tablet or foldable")
            }
            profile = known
        }
        return Trace(start: start, profile: profile)
    }

    /// The kinds of sample a line can carry: a fix, a GPS state, a reading of one of the
    /// sensor kinds of the table the reader was given (``SensorKinds/all`` unless told), or
    /// a record of one of the record kinds of its other table (``RecordKinds/all``).
    enum SampleKind: CustomStringConvertible {
        case location, gps
        case sensor(SensorKind)
        case record(RecordKind)

        /// Its key on a line.
        var description: String {
            switch self {
            case .location: return "location"
            case .gps: return "gps"
            case .sensor(let kind): return kind.name
            case .record(let kind): return kind.name
            }
        }

        /// Every kind a line may carry, in the order messages list them.
        static func all(_ sensors: SensorKindTable, _ records: RecordKindTable) -> [SampleKind] {
            [.location] + sensors.kinds.map { .sensor($0) } + [.gps] + records.kinds.map { .record($0) }
        }

        /// The names of a fix's numbers, by slot.
        static let locationFields = LocationKey.numbers

        /// The name of the number in slot `slot` of its body.
        func fieldName(_ slot: Int) -> String {
            switch self {
            case .location: return Self.locationFields[slot]
            case .sensor(let kind): return kind.fields[slot].name
            case .gps, .record: return ""
            }
        }
    }

    /// A sample line's offset (checked against `Trace.maximumOffset` and the end of
    /// time) and its value (checked by `LocationFix.problem`, the sensor kind's bounds or
    /// the record kind's reader).
    static func readSample(
        _ o: [String: JSONValue], start: Timestamp, sensors: SensorKindTable = SensorKinds.all,
        records: RecordKindTable = RecordKinds.all, fail: (String) -> TraceError
    ) throws(TraceError) -> (Int64, SampleValue) {
        let offset = try readOffset(o["t"], start: start, fail: fail)
        let kinds = SampleKind.all(sensors, records).filter { o[$0.description] != nil }
        guard kinds.count == 1, let kind = kinds.first else {
            let names = SampleKind.all(sensors, records).map(\.description).joined(separator: ", ")
            throw fail(kinds.isEmpty ? "no sample: expected one of \(names)" : "one sample a line, got \(kinds.map(\.description).joined(separator: " and "))")
        }
        guard case .object(let body) = o[kind.description]! else { throw fail("\"\(kind)\" must be an object") }
        if case .record(let record) = kind {
            switch record.read(body: .object(body)) {
            case .success(let value): return (offset, .record(value))
            case .failure(let problem): throw fail(problem.description)
            }
        }
        func number(_ slot: Int) throws(TraceError) -> Double? {
            let name = kind.fieldName(slot)
            guard let v = body[name], !v.isNull else { return nil }
            guard let d = v.doubleValue, d.isFinite else { throw fail("\(kind).\(name) must be a number") }
            return d
        }
        return (offset, try makeSample(kind: kind, offset: offset, start: start, number: number, state: body["state"]?.stringValue, fail: fail))
    }

    /// A sample from its body's members, however the line was parsed (the general parser
    /// or `SampleLineFastPath`): one set of checks and messages for both. `number` gives
    /// the body's numbers by slot (`SampleKind.fieldName`).
    static func makeSample(
        kind: SampleKind, offset: Int64, start: Timestamp, number: (Int) throws(TraceError) -> Double?, state: String?,
        fail: (String) -> TraceError
    ) throws(TraceError) -> SampleValue {
        switch kind {
        case .location:
            func required(_ slot: Int) throws(TraceError) -> Double {
                guard let value = try number(slot) else { throw fail("location.\(SampleKind.locationFields[slot]) is required") }
                return value
            }
            let fix = LocationFix(
                latitude: try required(0), longitude: try required(1), altitude: try number(2),
                horizontalAccuracy: try number(3) ?? LocationFix.defaultHorizontalAccuracy,
                verticalAccuracy: try number(4), speed: try number(5),
                course: try number(6), time: start.adding(nanoseconds: offset))
            if let problem = fix.problem { throw fail("location.\(problem)") }
            return .location(fix)
        case .sensor(let sensor):
            return .reading(try sensor.reading(number, fail: fail))
        case .gps:
            guard let state, let signal = GPSSignal(rawValue: state) else {
                throw fail("gps.state must be one of: \(GPSSignal.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return .gps(signal)
        case .record(let record):
            // Read whole, by its kind, in `readSample`; the fast path never names a record.
            preconditionFailure("a record (\(record)) made from numbers")
        }
    }

    /// `t` in nanoseconds: a number of seconds within 0...`Trace.maximumOffset`, whose
    /// instant (start + t) is one a timestamp holds.
    static func readOffset(_ value: JSONValue?, start: Timestamp, fail: (String) -> TraceError) throws(TraceError) -> Int64 {
        guard let value else { throw fail("\"t\" (seconds since start) is required") }
        guard let t = value.doubleValue, t.isFinite, t >= 0 else { throw fail("\"t\" must be a number of seconds, 0 or more") }
        return try readOffset(seconds: t, start: start, fail: fail)
    }

    static func readOffset(seconds t: Double, start: Timestamp, fail: (String) -> TraceError) throws(TraceError) -> Int64 {
        guard let offset = Timestamp.checkedNanoseconds(t * 1e9), offset <= Trace.maximumOffset else {
            throw fail("\"t\" must be at most \(Trace.maximumOffset / 1_000_000_000) s (got \(t))")
        }
        guard start.checkedAdding(nanoseconds: offset) != nil else {
            throw fail("\"t\" puts the sample after \(Timestamp.latest), the last time Sextant can hold")
        }
        return offset
    }

    // MARK: - Writing

    public static func header(start: Timestamp, profile: DeviceProfile?) -> String {
        var o: [String: JSONValue] = ["sextant": "trace", "version": .int(Int64(version)), "start": .string(start.rfc3339)]
        if let profile { o["profile"] = .string(profile.rawValue) }
        return JSONValue.object(o).serialized()
    }

    /// One sample line (no newline), `offset` nanoseconds after the trace's start. A
    /// reading's kind must be in `sensors`.
    public static func line(offset: Int64, value: SampleValue, sensors: SensorKindTable = SensorKinds.all) -> String {
        let t = JSONValue.double(Double(offset) / 1e9)
        let body: (String, JSONValue)
        switch value {
        case .location(let fix):
            body = ("location", .object(fix.jsonMembers(includingTime: false)))
        case .reading(let reading):
            guard let kind = sensors[reading.kind] else { preconditionFailure("a reading of an unknown sensor kind: \(reading.kind)") }
            var members: [String: JSONValue] = [:]
            for index in kind.fields.indices {
                if let v = reading[index] { members[kind.fields[index].name] = .double(v) }
            }
            body = (kind.name, .object(members))
        case .gps(let signal):
            body = ("gps", ["state": .string(signal.rawValue)])
        case .record(let record):
            body = (record.kind.name, record.body)
        }
        // `t` first, for people reading the file.
        return "{\"t\":\(t.serialized()),\"\(body.0)\":\(body.1.serialized())}"
    }

    /// A whole trace as text.
    public static func write(_ trace: Trace, sensors: SensorKindTable = SensorKinds.all) -> String {
        var out = header(start: trace.start, profile: trace.profile) + "\n"
        var controls = trace.controls[...]
        func writeControls(before index: Int) {
            while let control = controls.first, control.beforeSample <= index {
                out += controlLine(offset: control.offset, method: control.method, params: control.params) + "\n"
                controls.removeFirst()
            }
        }
        for (index, sample) in trace.samples.enumerated() {
            writeControls(before: index)
            out += line(offset: sample.offset, value: sample.value, sensors: sensors) + "\n"
        }
        writeControls(before: trace.samples.count)
        return out
    }
}
