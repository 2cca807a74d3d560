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
        var trace: Trace?
        var lastOffset: Int64 = 0
        var lineNumber = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = rawLine.hasSuffix("\r") ? rawLine.dropLast() : rawLine
            if line.allSatisfy({ $0 == " " || $0 == "\t" }) || line.first == "#" { continue }
            func fail(_ reason: String) -> TraceError { TraceError(path: path, line: lineNumber, reason: reason) }
            let value: JSONValue
            do { value = try JSONValue.parse(String(line)) } catch { throw fail("not JSON: \(error)") }
            guard case .object(let o) = value else { throw fail("a line must be a JSON object") }
            guard let header = trace else {
                trace = try readHeader(o, fail: fail)
                continue
            }
            let (offset, sampleValue) = try readSample(o, start: header.start, fail: fail)
            guard offset >= lastOffset else {
                throw fail("\"t\" goes back in time (\(Double(offset) / 1e9) after \(Double(lastOffset) / 1e9))")
            }
            lastOffset = offset
            trace!.samples.append(TraceSample(offset: offset, value: sampleValue))
        }
        guard let trace else { throw TraceError(path: path, line: max(lineNumber, 1), reason: "empty trace: no header line") }
        return trace
    }

    static func readHeader(_ o: [String: JSONValue], fail: (String) -> TraceError) throws(TraceError) -> Trace {
        guard o["sextant"] == .string("trace") else {
            throw fail("the first line must be a header {\"sextant\":\"trace\",\"version\":1,\"start\":...}")
        }
        guard let version = o["version"]?.intValue else { throw fail("header: \"version\" is required") }
        guard version == Self.version else { throw fail("header: unsupported version \(version) (this daemon reads \(Self.version))") }
        guard let startText = o["start"]?.stringValue else { throw fail("header: \"start\" is required (RFC 3339 time)") }
        guard let start = Timestamp(rfc3339: startText) else { throw fail("header: \"start\" is not an RFC 3339 time: \(startText)") }
        var profile: DeviceProfile?
        if let p = o["profile"], !p.isNull {
            guard let name = p.stringValue, let known = DeviceProfile(rawValue: name) else {
                throw fail("header: \"profile\" must be phone, tablet or foldable")
            }
            profile = known
        }
        return Trace(start: start, profile: profile)
    }

    static func readSample(_ o: [String: JSONValue], start: Timestamp, fail: (String) -> TraceError) throws(TraceError) -> (Int64, SampleValue) {
        guard let tValue = o["t"] else { throw fail("\"t\" (seconds since start) is required") }
        guard let t = tValue.doubleValue, t.isFinite, t >= 0 else { throw fail("\"t\" must be a number of seconds, 0 or more") }
        let offset = Int64((t * 1e9).rounded())
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
            let lat = try number("lat", required: true)!, lon = try number("lon", required: true)!
            if let problem = LocationFix.problem(latitude: lat, longitude: lon) { throw fail("location: \(problem)") }
            let hAcc = try number("hAcc", required: false) ?? LocationFix.defaultHorizontalAccuracy
            guard hAcc >= 0 else { throw fail("location.hAcc must not be negative") }
            let speed = try number("speed", required: false)
            if let speed, speed < 0 { throw fail("location.speed must not be negative") }
            let course = try number("course", required: false)
            if let course, !(0..<360).contains(course) { throw fail("location.course must be within 0..<360") }
            let vAcc = try number("vAcc", required: false)
            if let vAcc, vAcc < 0 { throw fail("location.vAcc must not be negative") }
            let fix = LocationFix(
                latitude: lat, longitude: lon, altitude: try number("alt", required: false), horizontalAccuracy: hAcc,
                verticalAccuracy: vAcc, speed: speed, course: course, time: start.adding(nanoseconds: offset))
            return (offset, .location(fix))
        case "accel":
            let a = Acceleration(x: try number("x", required: true)!, y: try number("y", required: true)!, z: try number("z", required: true)!)
            return (offset, .acceleration(a))
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
            var o: [String: JSONValue] = ["lat": .double(fix.latitude), "lon": .double(fix.longitude), "hAcc": .double(fix.horizontalAccuracy)]
            if let alt = fix.altitude { o["alt"] = .double(alt) }
            if let vAcc = fix.verticalAccuracy { o["vAcc"] = .double(vAcc) }
            if let speed = fix.speed { o["speed"] = .double(speed) }
            if let course = fix.course { o["course"] = .double(course) }
            body = ("location", .object(o))
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
