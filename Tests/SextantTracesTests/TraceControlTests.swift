import Foundation
import SextantCore
import SextantProtocol
import SextantTestSupport
import Testing

@testable import SextantTraces

/// Control lines of a JSONL trace and a scenario file (issue 24.3): read in place among the
/// samples, by a whole read and by the streamed index alike, written back as they were.
@Suite("Trace control lines")
struct TraceControlTests {
    static let header = #"{"sextant":"trace","version":1,"start":"2026-03-01T08:00:00Z"}"#
    static let grant = #"{"t":1,"control":{"method":"permissions.set","params":{"app":"com.example.maps","status":"authorizedAlways"}}}"#
    static let text = [
        header, #"{"t":0,"location":{"lat":48.85,"lon":2.29}}"#, #"{"t":1,"location":{"lat":48.86,"lon":2.29}}"#, grant,
        #"{"t":2,"location":{"lat":48.87,"lon":2.29}}"#, #"{"t":9,"control":{"method":"services.set","params":{"enabled":false}}}"#,
    ].joined(separator: "\n") + "\n"

    let scratch: TemporaryDirectory
    init() throws { scratch = try TemporaryDirectory("controls") }

    @Test("A whole read and the streamed index keep each control line before the sample that follows it; written back, the same lines")
    func readInPlace() throws {
        let whole = try SextantTraceFormat.read(Self.text, path: "t.jsonl")
        #expect(whole.samples.count == 3)
        #expect(whole.controls.map(\.beforeSample) == [2, 3] && whole.controls.map(\.line) == [4, 6])
        #expect(whole.controls[0].method == "permissions.set" && whole.controls[0].params["status"] == "authorizedAlways")
        #expect(whole.controls[1].offset == 9_000_000_000)
        let streamed = try StreamedJSONLTrace(path: try scratch.write("t.jsonl", Self.text))
        #expect(streamed.controls.map(\.beforeSample) == [2, 3] && streamed.sampleCount == 3)
        #expect(try SextantTraceFormat.read(SextantTraceFormat.write(whole), path: "again.jsonl") == whole.renamed("again.jsonl"))
    }

    @Test("A control line is refused with its line when it breaks a rule")
    func badControlLines() {
        let cases: [(String, String)] = [
            (#"{"t":1,"control":{"method":"x"},"location":{"lat":1,"lon":2}}"#, "not both"),
            (#"{"t":1,"control":"permissions.set"}"#, "must be an object"),
            (#"{"t":1,"control":{"method":"x","params":[1]}}"#, "control.params must be an object"),
            (#"{"control":{"method":"x"}}"#, "\"t\""),
        ]
        for (line, says) in cases {
            #expect {
                try SextantTraceFormat.read(Self.header + "\n" + line + "\n", path: "t.jsonl")
            } throws: { error in
                guard let error = error as? TraceError else { return false }
                return error.line == 2 && error.reason.contains(says)
            }
        }
    }

    @Test("A scenario's action at T comes before the trace's samples at T, after the trace's own actions between the same samples")
    func mergedWithAScenario() throws {
        let trace = try SextantTraceFormat.read(Self.text, path: "t.jsonl")
        let scenario = try ScenarioFile.read(
            path: try scratch.write("s.jsonl", "# at 1 s\n" + Self.grant.replacingOccurrences(of: "authorizedAlways", with: "denied") + "\n"),
            start: trace.start)
        let merged = try TraceControl.merged(trace.controls, scenario: scenario, in: trace)
        #expect(merged.map(\.beforeSample) == [1, 2, 3], "the scenario's, at 1 s, before the sample at 1 s")
        #expect(merged[0].params["status"] == "denied" && merged[0].line == 2)
    }
}

extension Trace {
    /// The same trace with its control lines said to come from `path`.
    func renamed(_ path: String) -> Trace {
        var copy = self
        for index in copy.controls.indices { copy.controls[index].path = path }
        return copy
    }
}
