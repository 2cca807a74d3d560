import SextantCore
import SextantProtocol
import SextantTraces
import Testing

@Suite("Sextant JSONL traces")
struct SextantTraceFormatTests {
    let header = #"{"sextant":"trace","version":1,"start":"2026-03-01T08:00:00.000Z","profile":"foldable"}"#

    @Test("Reads every sample kind; hAcc defaults to 5 m; times are start + t")
    func readsSamples() throws {
        let text = [
            header, "", "# comment",
            #"{"t":0.000,"location":{"lat":48.85837,"lon":2.29448,"alt":35.0,"speed":1.4,"course":90}}"#,
            #"{"t":0.010,"accel":{"x":0.02,"y":9.79,"z":0.31}}"#,
            #"{"t":0.500,"hinge":{"angle":92.5}}"#,
            #"{"t":12.0,"gps":{"state":"lost"}}"#,
        ].joined(separator: "\n")
        let trace = try SextantTraceFormat.read(text, path: "t.jsonl")
        #expect(trace.profile == .foldable)
        #expect(trace.samples.count == 4)
        guard case .location(let fix) = trace.samples[0].value else { Issue.record("not a location"); return }
        #expect(fix.horizontalAccuracy == 5)
        #expect(fix.altitude == 35 && fix.speed == 1.4 && fix.course == 90)
        #expect(fix.time.rfc3339 == "2026-03-01T08:00:00.000Z")
        #expect(trace.samples[1].value == .acceleration(Acceleration(x: 0.02, y: 9.79, z: 0.31)))
        #expect(trace.samples[1].offset == 10_000_000)
        #expect(trace.samples[2].value == .hingeAngle(92.5))
        #expect(trace.samples[3].value == .gps(.lost))
        #expect(trace.duration == 12)
    }

    @Test("A bad line names its physical line (header 1, blanks and comments count) and why", arguments: [
        (#"{"t":1,"location":{"lat":91,"lon":0}}"#, "lat"),
        (#"{"t":1,"location":{"lon":0}}"#, "location.lat is required"),
        (#"{"t":-1,"accel":{"x":0,"y":0,"z":0}}"#, "\"t\""),
        (#"{"t":1,"accel":{"x":0,"y":0}}"#, "accel.z is required"),
        (#"{"t":1,"hinge":{"angle":181}}"#, "hinge.angle"),
        (#"{"t":1,"gps":{"state":"gone"}}"#, "gps.state"),
        (#"{"t":1}"#, "no sample"),
        (#"{"t":1,"hinge":{"angle":1},"gps":{"state":"ok"}}"#, "one sample a line"),
        (#"{"t":1,"location":{"lat":1,"lon":1,"course":360}}"#, "course"),
        (#"{"t":1,"location":"#, "not JSON"),
        (#"{"t":0.5,"hinge":{"angle":1}}"#, "back in time"),
    ])
    func badLine(line: String, reason: String) {
        let text = [header, "", "# comment", #"{"t":0.9,"hinge":{"angle":1}}"#, line].joined(separator: "\n")
        #expect(throws: TraceError.self) { try SextantTraceFormat.read(text, path: "x.jsonl") }
        do {
            _ = try SextantTraceFormat.read(text, path: "x.jsonl")
        } catch {
            #expect(error.line == 5)
            #expect(error.path == "x.jsonl")
            #expect(error.reason.contains(reason), "\(error.reason)")
        }
    }

    @Test("The header is checked: kind, version, start")
    func badHeader() {
        for (text, reason) in [
            (#"{"t":0,"hinge":{"angle":1}}"#, "header"),
            (#"{"sextant":"trace","version":2,"start":"2026-03-01T08:00:00Z"}"#, "version"),
            (#"{"sextant":"trace","version":1,"start":"soon"}"#, "start"),
            ("", "empty"),
        ] {
            do {
                _ = try SextantTraceFormat.read(text, path: "h.jsonl")
                Issue.record("accepted \(text)")
            } catch {
                #expect(error.line == 1)
                #expect(error.reason.contains(reason), "\(error.reason)")
            }
        }
    }

    @Test("What the writer writes, the reader reads back exactly")
    func roundTrip() throws {
        let start = Timestamp(rfc3339: "2026-03-01T08:00:00.000Z")!
        let fix = LocationFix(latitude: 1.25, longitude: -3.5, altitude: 10, horizontalAccuracy: 3, verticalAccuracy: 4, speed: 2, course: 180, time: start.adding(nanoseconds: 250_000_000))
        let trace = Trace(start: start, profile: .tablet, samples: [
            TraceSample(offset: 250_000_000, value: .location(fix)),
            TraceSample(offset: 260_000_000, value: .acceleration(Acceleration(x: -0.5, y: 9.80665, z: 0.125))),
            TraceSample(offset: 1_000_000_000, value: .hingeAngle(45)),
            TraceSample(offset: 2_000_000_000, value: .gps(.noFix)),
        ])
        #expect(try SextantTraceFormat.read(SextantTraceFormat.write(trace), path: "r") == trace)
    }
}
