#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SextantCore
import SextantProtocol

/// A control action at a time of a trace: a control method and its params, which the
/// daemon plays on the replay's clock between the samples it stands between
/// (sextant-trace(5), CONTROL LINES). A JSONL trace holds them as lines of their own,
/// `{"t":30,"control":{"method":"permissions.set","params":{…}}}`; a scenario file holds
/// nothing else. Which methods may stand there is the daemon's to say.
public struct TraceControl: Sendable, Equatable {
    /// Nanoseconds since the trace's start.
    public var offset: Int64
    /// The index of the first sample after it: it plays once every sample before that
    /// one has played (the trace's sample count: after the last).
    public var beforeSample: Int
    public var method: String
    /// Always an object.
    public var params: JSONValue
    /// Where it was read, for the errors about it.
    public var path: String
    public var line: Int

    public init(offset: Int64, beforeSample: Int, method: String, params: JSONValue, path: String, line: Int) {
        self.offset = offset
        self.beforeSample = beforeSample
        self.method = method
        self.params = params
        self.path = path
        self.line = line
    }

    /// `path:line`, as errors name it.
    public var place: String { "\(path):\(line)" }

    /// The most control lines a trace or a scenario may hold (they are kept in memory
    /// while it plays).
    public static let maximumCount = 100_000

    /// A trace's own actions and a scenario's, in the order they play: each scenario action
    /// at time T comes before the trace's samples at T or later (as if its line stood
    /// before theirs), after the trace's own actions at or before T between the same samples.
    public static func merged(_ own: [TraceControl], scenario: [TraceControl], in trace: any ReplayableTrace) throws(TraceError) -> [TraceControl] {
        guard !scenario.isEmpty else { return own }
        var placed: [TraceControl] = []
        placed.reserveCapacity(scenario.count)
        for var action in scenario {
            action.beforeSample = try trace.firstIndex(atOrAfter: action.offset)
            placed.append(action)
        }
        // Stable: the trace's own first where both stand at one place and time.
        let all = own.map { ($0, 0) } + placed.map { ($0, 1) }
        return all.enumerated().sorted { a, b in
            let (x, y) = (a.element.0, b.element.0)
            if x.beforeSample != y.beforeSample { return x.beforeSample < y.beforeSample }
            if x.offset != y.offset { return x.offset < y.offset }
            if a.element.1 != b.element.1 { return a.element.1 < b.element.1 }
            return a.offset < b.offset
        }.map(\.element.0)
    }
}

extension SextantTraceFormat {
    /// A control line's time, method and params. The line may carry no sample besides.
    static func readControl(
        _ o: [String: JSONValue], start: Timestamp, sensors: SensorKindTable, records: RecordKindTable = RecordKinds.all,
        fail: (String) -> TraceError
    ) throws(TraceError) -> (offset: Int64, method: String, params: JSONValue) {
        let offset = try readOffset(o["t"], start: start, fail: fail)
        let samples = SampleKind.all(sensors, records).filter { o[$0.description] != nil }
        guard samples.isEmpty else { throw fail("a line holds one sample or one control action, not both (\"control\" and \"\(samples[0])\")") }
        guard case .object(let body) = o["control"]! else { throw fail("\"control\" must be an object {\"method\":…,\"params\":{…}}") }
        guard let method = body["method"]?.stringValue, !method.isEmpty else { throw fail("control.method is required (a control method's name)") }
        let params = body["params"] ?? .object([:])
        guard case .object = params else { throw fail("control.params must be an object") }
        return (offset, method, params)
    }

    /// One control line (no newline), `offset` nanoseconds after the trace's start.
    public static func controlLine(offset: Int64, method: String, params: JSONValue) -> String {
        let t = JSONValue.double(Double(offset) / 1e9)
        let body: JSONValue = ["method": .string(method), "params": params]
        return "{\"t\":\(t.serialized()),\"control\":\(body.serialized())}"
    }
}

/// A scenario file (`replay.start`'s `scenario`): control lines only, `#` comments and blank
/// lines, their times in seconds of the trace they are played with, never decreasing.
public enum ScenarioFile {
    /// Reads every line of the file at `path`; a bad line throws with its line. The actions'
    /// `beforeSample` is for `TraceControl.merged` to set.
    public static func read(path: String, start: Timestamp, sensors: SensorKindTable = SensorKinds.all) throws(TraceLoadError) -> [TraceControl] {
        let fd = try TraceFile.openRegular(path: path)
        defer { close(fd) }
        var actions: [TraceControl] = []
        do {
            try FileLines.forEach(fd: fd, path: path) { bytes, number, _ throws(TraceError) in
                if let action = try readLine(bytes, number: number, path: path, start: start, sensors: sensors, after: actions.last) {
                    guard actions.count < TraceControl.maximumCount else {
                        throw TraceError(path: path, line: number, reason: "more than \(TraceControl.maximumCount) control lines")
                    }
                    actions.append(action)
                }
                return true
            }
        } catch {
            throw .invalid(error)
        }
        return actions
    }

    private static func readLine(
        _ bytes: UnsafeBufferPointer<UInt8>, number: Int, path: String, start: Timestamp, sensors: SensorKindTable, after previous: TraceControl?
    ) throws(TraceError) -> TraceControl? {
        var line = bytes
        if line.last == UInt8(ascii: "\r") { line = UnsafeBufferPointer(rebasing: line.dropLast()) }
        if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) || line.first == UInt8(ascii: "#") { return nil }
        func fail(_ reason: String) -> TraceError { TraceError(path: path, line: number, reason: reason) }
        guard let text = String(validating: line, as: UTF8.self) else { throw fail("not UTF-8 text") }
        let value: JSONValue
        do { value = try JSONValue.parse(text) } catch { throw fail("not JSON: \(error)") }
        guard case .object(let o) = value, o["control"] != nil else {
            throw fail("a scenario line must be a control line {\"t\":…,\"control\":{\"method\":…,\"params\":{…}}}")
        }
        let (offset, method, params) = try SextantTraceFormat.readControl(o, start: start, sensors: sensors, fail: fail)
        if let previous, offset < previous.offset {
            throw fail("\"t\" goes back in time (\(Double(offset) / 1e9) after \(Double(previous.offset) / 1e9))")
        }
        return TraceControl(offset: offset, beforeSample: 0, method: method, params: params, path: path, line: number)
    }
}
