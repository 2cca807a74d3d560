import SextantCore
import SextantProtocol
import Testing

@_spi(Fuzzing) @testable import SextantTraces

@Suite("JSONL: light and prox samples")
struct EnvironmentTraceTests {
    @Test("light and prox lines read through the fast path and the parser alike, write back as read, and are refused out of bounds")
    func roundTrip() throws {
        let start = Timestamp(rfc3339: "2026-03-01T08:00:00Z")!
        let header = SextantTraceFormat.header(start: start, profile: nil)
        let lines = [#"{"t":0,"light":{"lux":320.5}}"#, #"{"t":0.5,"prox":{"near":1}}"#, #"{"t":1,"prox":{"near":0}}"#]
        let trace = try SextantTraceFormat.read(([header] + lines).joined(separator: "\n") + "\n", path: "env.jsonl")
        #expect(trace.samples.map(\.value) == [.illuminance(320.5), .proximity(near: true), .proximity(near: false)])
        for line in lines {
            #expect(Array(line.utf8).withUnsafeBufferPointer { SextantTraceFormat.fastPathAgrees($0, start: start, sensors: SensorKinds.all) })
        }
        let written = SextantTraceFormat.write(trace)
        for line in lines { #expect(written.contains(line), "\(written)") }
        #expect(throws: TraceError.self) {
            try SextantTraceFormat.read(header + "\n" + #"{"t":0,"light":{"lux":-3}}"# + "\n", path: "bad.jsonl")
        }
        do {
            _ = try SextantTraceFormat.read(header + "\n" + #"{"t":0,"prox":{"near":2}}"# + "\n", path: "bad.jsonl")
            Issue.record("near 2 was taken")
        } catch {
            #expect("\(error)".contains("prox.near must be 1 (near) or 0 (far)"), "\(error)")
        }
    }
}
