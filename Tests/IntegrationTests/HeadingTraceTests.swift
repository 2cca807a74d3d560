import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// Issue 21.1's trace sources of a heading through the real binaries: `record` keeps the
/// `magnet` and `compass` samples that reach the daemon, and routes get a compass that
/// follows the way (`--heading course`).
@Suite("Heading samples: record and routes")
struct HeadingTraceTests {
    /// Records while `play` runs until the replay has finished; the recording's samples.
    private func recordWhile(_ daemon: DaemonHarness, _ play: () throws -> Void) throws -> RecordedTrace {
        let path = daemon.directory + "/recorded.jsonl"
        _ = try daemon.control().call(Method.recordStart, ["path": .string(path)])
        try play()
        try daemon.waitForStatus("the replay to finish", timeout: 30) { $0["replay"]?["state"] == "finished" }
        _ = try daemon.control().call(Method.recordStop)
        return try RecordedTrace(path: path)
    }

    @Test("issue 21.1: record keeps the magnet and compass samples a replay plays, with their values")
    func recordsReplayedHeadings() throws {
        let daemon = try DaemonHarness()
        let trace = """
            {"sextant":"trace","version":1,"start":"2026-03-01T08:00:00.000Z"}
            {"t":0.0,"location":{"lat":48.1,"lon":11.5}}
            {"t":0.1,"magnet":{"x":22.5,"y":5.25,"z":-40.125}}
            {"t":0.2,"compass":{"magnetic":87.5,"accuracy":10}}
            {"t":0.3,"compass":{"true":91.25}}
            {"t":0.4,"location":{"lat":48.1001,"lon":11.5}}

            """
        let path = try daemon.write("heading.jsonl", trace)
        let recorded = try recordWhile(daemon) {
            _ = try daemon.control().call(Method.replayStart, ["path": .string(path), "speed": "max"])
        }
        #expect(recorded.magneticFields.count == 1 && recorded.magneticFields.first.map { near($0, (22.5, 5.25, -40.125)) } == true)
        let headings = recorded.compassHeadings
        #expect(headings.count == 2)
        #expect(headings.first?.magnetic == 87.5 && headings.first?.trueHeading == nil)
        #expect(headings.last?.magnetic == nil && headings.last?.trueHeading == 91.25)
        // The accuracy is kept too: the raw line says so.
        let text = try String(contentsOfFile: daemon.directory + "/recorded.jsonl", encoding: .utf8)
        #expect(text.contains(#""compass":{"accuracy":10,"magnetic":87.5}"#), "\(text)")
    }

    @Test("issue 21.1: location route --heading course plays a compass whose true heading is 90° along the equator eastwards")
    func locationRouteHeading() throws {
        let daemon = try DaemonHarness()
        let recorded = try recordWhile(daemon) {
            let result = try daemon.ctl(["location", "route", "0,10", "0,10.001", "--speed", "100", "--distance", "20", "--heading", "course"])
            #expect(result.status == 0, "\(result.stderr)")
            // 111.2 m in 20 m steps: 6 fixes and the end.
            #expect(result.stdout.contains("7 fixes and 7 headings"), "\(result.stdout)")
        }
        let headings = recorded.compassHeadings
        #expect(headings.count == 7, "\(headings)")
        #expect(headings.allSatisfy { $0.magnetic == nil && $0.trueHeading.map { abs($0 - 90) < 1e-6 } == true }, "\(headings)")
    }

    @Test("issue 21.1: trace route --heading course: NMEA gets an HDT a fix; GPX leaves the headings out; an unknown heading is refused")
    func traceRouteHeading() throws {
        let scratch = try TemporaryDirectory("route-heading")
        let nmea = scratch.file("r.nmea")
        let arguments = ["trace", "route", "0,10", "0.001,10", "--speed", "10", "--interval", "5", "--heading", "course", "--start", "2026-03-01T08:00:00Z"]
        let result = try run([Binaries.sextantctl] + arguments + ["-o", nmea, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let summary = try JSONValue.parse(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        // 111.2 m north at 10 m/s every 5 s: fixes at 0, 50, 100 m and the end.
        #expect(summary["fixes"]?.intValue == 4 && summary["headings"]?.intValue == 4, "\(summary)")
        let text = try String(contentsOfFile: nmea, encoding: .utf8)
        #expect(text.components(separatedBy: "$GPHDT,0.00,T*").count - 1 == 4, "\(text)")

        let gpx = try run([Binaries.sextantctl] + arguments + ["-o", scratch.file("r.gpx")])
        #expect(gpx.status == 0 && gpx.stdout.contains("4 fixes and 4 headings"), "\(gpx.stdout) \(gpx.stderr)")
        let gpxText = try String(contentsOfFile: scratch.file("r.gpx"), encoding: .utf8)
        #expect(gpxText.components(separatedBy: "<trkpt").count - 1 == 4, "the fixes, and nothing of the headings")
        let bad = try run([Binaries.sextantctl] + ["trace", "route", "0,10", "0.001,10", "--heading", "north", "-o", scratch.file("x.jsonl")])
        #expect(bad.status != 0 && bad.stderr.contains("--heading"), "\(bad.stderr)")
    }
}
