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
        // The header's trace and the samples apart: appending through a trace that a
        // binding of the header also holds would copy the samples at every line.
        var header: Trace?
        var samples: [TraceSample] = []
        // One sample a line at most: room for all at once, rather than doubling (and
        // briefly holding twice) the array as it grows.
        samples.reserveCapacity(bytes.reduce(0) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 })
        var lastOffset: Int64 = 0
        var lineNumber = 0
        var lineStart = 0
        while lineStart < bytes.count || (lineNumber == 0 && bytes.isEmpty) {
            var lineEnd = lineStart
            while lineEnd < bytes.count, bytes[lineEnd] != UInt8(ascii: "\n") { lineEnd += 1 }
            lineNumber += 1
            var line = bytes[lineStart..<lineEnd]
            lineStart = lineEnd + 1
            if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
            if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) || line.first == UInt8(ascii: "#") { continue }
            let number = lineNumber
            func fail(_ reason: String) -> TraceError { TraceError(path: path, line: number, reason: reason) }
            guard let text = String(validating: line, as: UTF8.self) else { throw fail("not UTF-8 text") }
            let value: JSONValue
            do { value = try JSONValue.parse(text) } catch { throw fail("not JSON: \(error)") }
            guard case .object(let o) = value else { throw fail("a line must be a JSON object") }
            guard let start = header?.start else {
                header = try readHeader(o, fail: fail)
                continue
            }
            let (offset, sampleValue) = try readSample(o, start: start, fail: fail)
            guard offset >= lastOffset else {
                throw fail("\"t\" goes back in time (\(Double(offset) / 1e9) after \(Double(lastOffset) / 1e9))")
            }
            lastOffset = offset
            samples.append(TraceSample(offset: offset, value: sampleValue))
        }
        guard var trace = header else { throw TraceError(path: path, line: max(lineNumber, 1), reason: "empty trace: no header line") }
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

    /// A sample line's offset (checked against `Trace.maximumOffset` and the end of
    /// time) and its value (checked by `LocationFix.problem`, `Acceleration.problem`).
    static func readSample(_ o: [String: JSONValue], start: Timestamp, fail: (String) -> TraceError) throws(TraceError) -> (Int64, SampleValue) {
        let offset = try readOffset(o["t"], start: start, fail: fail)
        let kinds = ["location", "accel", "hinge", "gps"].filter { o[$0] != nil }
        guard kinds.count == 1, let kind = kinds.first else {
            throw fail(kinds.isEmpty ? "no sample: expected one of location, accel, hinge, gps" : "one sample a line, got \(kinds.joined(separator: " and "))")
        }
        guard case .object(let body) = o[kind]! else { throw fail("\"\(kind)\" must be an object") }
        func number(_ key: String, required: Bool) throws(TraceError) -> Double? {
            guard let v = body[key], !v.isNull else {
                if required { throw fail("\(kind).\(key) is required") }
                return nil
            }
            guard let d = v.doubleValue, d.isFinite else { throw fail("\(kind).\(key) must be a number") }
            return d
        }
        switch kind {
        case "location":
            let fix = LocationFix(
                latitude: try number("lat", required: true)!, longitude: try number("lon", required: true)!,
                altitude: try number("alt", required: false),
                horizontalAccuracy: try number("hAcc", required: false) ?? LocationFix.defaultHorizontalAccuracy,
                verticalAccuracy: try number("vAcc", required: false), speed: try number("speed", required: false),
                course: try number("course", required: false), time: start.adding(nanoseconds: offset))
            if let problem = fix.problem { throw fail("location.\(problem)") }
            return (offset, .location(fix))
        case "accel":
            let (x, y, z) = (try number("x", required: true)!, try number("y", required: true)!, try number("z", required: true)!)
            if let problem = Acceleration.problem(x: x, y: y, z: z) { throw fail("accel: \(problem)") }
            return (offset, .acceleration(Acceleration(x: x, y: y, z: z)))
        case "hinge":
            let angle = try number("angle", required: true)!
            guard (0...180).contains(angle) else { throw fail("hinge.angle must be within 0...180 degrees") }
            return (offset, .hingeAngle(angle))
        default:
            guard let name = body["state"]?.stringValue, let signal = GPSSignal(rawValue: name) else {
                throw fail("gps.state must be one of: \(GPSSignal.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return (offset, .gps(signal))
        }
    }

    /// `t` in nanoseconds: a number of seconds within 0...`Trace.maximumOffset`, whose
    /// instant (start + t) is one a timestamp holds.
    static func readOffset(_ value: JSONValue?, start: Timestamp, fail: (String) -> TraceError) throws(TraceError) -> Int64 {
        guard let value else { throw fail("\"t\" (seconds since start) is required") }
        guard let t = value.doubleValue, t.isFinite, t >= 0 else { throw fail("\"t\" must be a number of seconds, 0 or more") }
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
