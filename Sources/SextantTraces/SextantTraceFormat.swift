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
/// ```
public enum SextantTraceFormat {
    public static let version = 1

    /// Reads a whole trace. Nothing is returned unless every line is good: a bad line
    /// throws with its 1-based physical line number.
    public static func read(_ text: String, path: String) throws(TraceError) -> Trace {
        var text = text
        return try text.withUTF8 { bytes in Result { () throws(TraceError) in try read(bytes, path: path) } }.get()
    }

    /// Reads a whole trace from its bytes, a line at a time: no copy of the file is made.
    public static func read(_ bytes: UnsafeBufferPointer<UInt8>, path: String) throws(TraceError) -> Trace {
        var reader = JSONLLineReader(path: path)
        var samples: [TraceSample] = []
        // One sample a line at most: room for all at once, rather than doubling (and
        // briefly holding twice) the array as it grows.
        samples.reserveCapacity(JSONLLines.count(in: bytes))
        let lines = try JSONLLines.forEach(in: bytes) { line, number throws(TraceError) in
            if let sample = try reader.read(line, number: number) { samples.append(sample) }
        }
        var trace = try reader.finish(lines: lines)
        trace.samples = samples
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

    /// The kinds of sample a line can carry, by their JSONL names.
    enum SampleKind: String, CaseIterable {
        case location, accel, hinge, gps

        /// The numbers its body may carry.
        var fields: ArraySlice<SampleField> {
            switch self {
            case .location: return Self.fieldList[0..<7]
            case .accel: return Self.fieldList[7..<10]
            case .hinge: return Self.fieldList[10..<11]
            case .gps: return []
            }
        }

        private static let fieldList: [SampleField] = [.lat, .lon, .alt, .hAcc, .vAcc, .speed, .course, .x, .y, .z, .angle]
    }

    /// The numbers of a sample's body, by their JSONL names.
    enum SampleField: Int, CaseIterable {
        case lat, lon, alt, hAcc, vAcc, speed, course, x, y, z, angle

        static let names = LocationKey.numbers + ["x", "y", "z", "angle"]
        var name: String { Self.names[rawValue] }
    }

    /// A sample line's offset (checked against `Trace.maximumOffset` and the end of
    /// time) and its value (checked by `LocationFix.problem`, `Acceleration.problem`).
    static func readSample(_ o: [String: JSONValue], start: Timestamp, fail: (String) -> TraceError) throws(TraceError) -> (Int64, SampleValue) {
        let offset = try readOffset(o["t"], start: start, fail: fail)
        let kinds = SampleKind.allCases.filter { o[$0.rawValue] != nil }
        guard kinds.count == 1, let kind = kinds.first else {
            throw fail(kinds.isEmpty ? "no sample: expected one of location, accel, hinge, gps" : "one sample a line, got \(kinds.map(\.rawValue).joined(separator: " and "))")
        }
        guard case .object(let body) = o[kind.rawValue]! else { throw fail("\"\(kind)\" must be an object") }
        func number(_ field: SampleField) throws(TraceError) -> Double? {
            guard let v = body[field.name], !v.isNull else { return nil }
            guard let d = v.doubleValue, d.isFinite else { throw fail("\(kind).\(field.name) must be a number") }
            return d
        }
        return (offset, try makeSample(kind: kind, offset: offset, start: start, number: number, state: body["state"]?.stringValue, fail: fail))
    }

    /// A sample from its body's members, however the line was parsed (the general parser
    /// or `SampleLineFastPath`): one set of checks and messages for both.
    static func makeSample(
        kind: SampleKind, offset: Int64, start: Timestamp, number: (SampleField) throws(TraceError) -> Double?, state: String?,
        fail: (String) -> TraceError
    ) throws(TraceError) -> SampleValue {
        func required(_ field: SampleField) throws(TraceError) -> Double {
            guard let value = try number(field) else { throw fail("\(kind).\(field.name) is required") }
            return value
        }
        switch kind {
        case .location:
            let fix = LocationFix(
                latitude: try required(.lat), longitude: try required(.lon), altitude: try number(.alt),
                horizontalAccuracy: try number(.hAcc) ?? LocationFix.defaultHorizontalAccuracy,
                verticalAccuracy: try number(.vAcc), speed: try number(.speed),
                course: try number(.course), time: start.adding(nanoseconds: offset))
            if let problem = fix.problem { throw fail("location.\(problem)") }
            return .location(fix)
        case .accel:
            let (x, y, z) = (try required(.x), try required(.y), try required(.z))
            if let problem = Acceleration.problem(x: x, y: y, z: z) { throw fail("accel: \(problem)") }
            return .acceleration(Acceleration(x: x, y: y, z: z))
        case .hinge:
            let angle = try required(.angle)
            guard (0...180).contains(angle) else { throw fail("hinge.angle must be within 0...180 degrees") }
            return .hingeAngle(angle)
        case .gps:
            guard let state, let signal = GPSSignal(rawValue: state) else {
                throw fail("gps.state must be one of: \(GPSSignal.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return .gps(signal)
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

    /// One sample line (no newline), `offset` nanoseconds after the trace's start.
    public static func line(offset: Int64, value: SampleValue) -> String {
        let t = JSONValue.double(Double(offset) / 1e9)
        let body: (String, JSONValue)
        switch value {
        case .location(let fix):
            body = ("location", .object(fix.jsonMembers(includingTime: false)))
        case .acceleration(let a):
            body = ("accel", ["x": .double(a.x), "y": .double(a.y), "z": .double(a.z)])
        case .hingeAngle(let angle):
            body = ("hinge", ["angle": .double(angle)])
        case .gps(let signal):
            body = ("gps", ["state": .string(signal.rawValue)])
        }
        // `t` first, for people reading the file.
        return "{\"t\":\(t.serialized()),\"\(body.0)\":\(body.1.serialized())}"
    }

    /// A whole trace as text.
    public static func write(_ trace: Trace) -> String {
        var out = header(start: trace.start, profile: trace.profile) + "\n"
        for sample in trace.samples { out += line(offset: sample.offset, value: sample.value) + "\n" }
        return out
    }
}
