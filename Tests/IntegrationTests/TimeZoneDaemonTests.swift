import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// The time zone through the real `sextantd` and `sextantctl` (RULES Z1, Z9): the table
/// loaded at start, a zone set by hand kept across a `kill -9`, a bad table refused by name.
@Suite("Time zone in sextantd")
struct TimeZoneDaemonTests {
    static let table = Repository.root + "/Traces/tz/test-regions.sxtz"

    @Test("Z1, Z9: a fix in Elvas gives Lisbon; sextantctl time zone set Asia/Tokyo wins, is in status, and survives kill -9; set auto follows the position again")
    func setByHandSurvivesKill9() throws {
        let daemon = try DaemonHarness(arguments: ["--time-zone-table", Self.table])
        let (app, _) = try daemon.app("com.example.clock")
        #expect(try app.call(Method.timeZoneStart)["zone"] == .null, "Z2: no zone before the first fix")
        #expect(try daemon.ctl(["location", "set", "38.8794", "-7.0346"]).status == 0)
        let first = try app.nextEvent(timeout: 10, description: "the first timeZone event") { $0.method == Event.timeZone }.params
        #expect(first["zone"] == "Europe/Lisbon" && first["reason"] == "first")
        let set = try daemon.ctl(["time", "zone", "set", "Asia/Tokyo"])
        #expect(set.status == 0 && set.stdout.contains("Asia/Tokyo (UTC+09:00), set by hand"), "\(set.stdout)\(set.stderr)")
        let manual = try app.nextEvent(timeout: 10, description: "the manual timeZone event") { $0.method == Event.timeZone }.params
        #expect(manual["zone"] == "Asia/Tokyo" && manual["previous"] == "Europe/Lisbon" && manual["automatic"] == false)
        daemon.kill9()
        try daemon.restart()
        let status = try daemon.ctl(["status"])
        #expect(status.stdout.contains("Time zone:         Asia/Tokyo (UTC+09:00), set by hand"), "\(status.stdout)")
        let shown = try JSONValue.parse(try daemon.ctl(["--json", "time", "zone"]).stdout)
        #expect(shown["zone"] == "Asia/Tokyo" && shown["automatic"] == false && shown["table"]?["path"] == .string(Self.table))
        #expect(try daemon.ctl(["location", "set", "38.8794", "-7.0320"]).status == 0)
        let auto = try daemon.ctl(["time", "zone", "set", "auto"])
        #expect(auto.status == 0 && auto.stdout.contains("Europe/Madrid"), "\(auto.stdout)\(auto.stderr)")
        let unknown = try daemon.ctl(["time", "zone", "set", "Mars/Olympus_Mons"])
        #expect(unknown.status == 1 && unknown.stderr.contains("unknown zone \"Mars/Olympus_Mons\""), "\(unknown.stderr)")
    }

    @Test("Z1, Z9: a table that is not one, or not there, stops the start with a message naming the file; --time-zone sets the zone by hand; without a table, automatic, the zone is unknown and status says why")
    func badTableIsAStartError() throws {
        let scratch = try TemporaryDirectory("tz")
        let bad = try scratch.write("zones.sxtz", "not a table")
        for (path, message) in [(bad, "not a Sextant time zone table"), (scratch.file("missing.sxtz"), "cannot read")] {
            let result = try run(
                [Binaries.sextantd, "--runtime-dir", scratch.file("run"), "--state-dir", scratch.file("state"), "--no-gpsd", "--no-iio"]
                    + ["--time-zone-table", path])
            #expect(result.status == 1, "\(result.stderr)")
            #expect(result.stderr.contains("cannot start: --time-zone-table \(path): \(message)"), "\(result.stderr)")
        }
        let daemon = try DaemonHarness(arguments: ["--time-zone", "Asia/Kolkata"])
        let manual = try daemon.ctl(["time", "zone"])
        #expect(manual.stdout.contains("Asia/Kolkata (UTC+05:30), set by hand"), "\(manual.stdout)")
        #expect(try daemon.ctl(["time", "zone", "set", "auto"]).status == 0)
        let status = try daemon.ctl(["time", "zone"])
        #expect(status.stdout.contains("unknown") && status.stdout.contains("no time zone table"), "\(status.stdout)")
    }
}

/// `sextantctl trace info --time-zone-table`: the zone changes along a trace, without a daemon.
@Suite("Time zone marks in trace info")
struct TraceInfoZoneTests {
    @Test("Z1–Z3: trace info marks Lisbon at the drive's first fix and Madrid 30 s after the first fix in Spain, as the daemon decides them; a bad table is an error naming it")
    func marksTheCrossing() throws {
        let scratch = try TemporaryDirectory("tz-info")
        var lines = [#"{"sextant":"trace","version":1,"start":"2026-07-01T10:00:00.000Z"}"#]
        for t in 0...1000 {
            let f = Double(t) / 1000
            lines.append(#"{"t":\#(t),"location":{"lat":\#(38.8810 + (38.8786 - 38.8810) * f),"lon":\#(-7.1631 + (-6.9707 + 7.1631) * f),"hAcc":5}}"#)
        }
        let trace = try scratch.write("drive.jsonl", lines.joined(separator: "\n") + "\n")
        let info = try run([Binaries.sextantctl, "trace", "info", trace, "--time-zone-table", TimeZoneDaemonTests.table, "--json"])
        let zones = try JSONValue.parse(info.stdout)["timeZones"]?.arrayValue ?? []
        #expect(zones.map { $0["zone"] } == ["Europe/Lisbon", "Europe/Madrid"], "\(info.stdout)\(info.stderr)")
        #expect(zones.first?["time"] == "2026-07-01T10:00:00.000Z" && zones.last?["previous"] == "Europe/Lisbon" && zones.last?["utcOffset"] == 7200)
        let text = try run([Binaries.sextantctl, "trace", "info", trace, "--time-zone-table", TimeZoneDaemonTests.table])
        #expect(text.stdout.contains("Zones:     Europe/Lisbon at 2026-07-01T10:00:00.000Z (first), Europe/Madrid at "), "\(text.stdout)")
        let bad = try run([Binaries.sextantctl, "trace", "info", trace, "--time-zone-table", trace])
        #expect(bad.status == 1 && bad.stderr.contains("--time-zone-table \(trace): not a Sextant time zone table"), "\(bad.stderr)")
    }

    @Test("issue 41.4: trace plot --time-zone-table names Europe/Lisbon and Europe/Madrid at the crossing, in the SVG and the HTML page; a bad table is an error naming it")
    func plotMarksTheCrossing() throws {
        let scratch = try TemporaryDirectory("tz-plot")
        var lines = [#"{"sextant":"trace","version":1,"start":"2026-07-01T10:00:00.000Z"}"#]
        for t in 0...1000 {
            let f = Double(t) / 1000
            lines.append(#"{"t":\#(t),"location":{"lat":\#(38.8810 + (38.8786 - 38.8810) * f),"lon":\#(-7.1631 + (-6.9707 + 7.1631) * f),"hAcc":5}}"#)
        }
        let trace = try scratch.write("drive.jsonl", lines.joined(separator: "\n") + "\n")
        for picture in ["drive.svg", "drive.html"] {
            let out = scratch.path + "/" + picture
            let plot = try run([Binaries.sextantctl, "trace", "plot", trace, "-o", out, "--time-zone-table", TimeZoneDaemonTests.table])
            let text = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
            #expect(plot.status == 0 && text.contains(#"class="time-zone-mark" data-zone="Europe/Lisbon""#) && text.contains(#"class="time-zone-mark" data-zone="Europe/Madrid""#), "\(picture): \(plot.stderr)")
            #expect(text.contains("Europe/Madrid UTC+02:00 DST"), "\(picture)")
        }
        let bad = try run([Binaries.sextantctl, "trace", "plot", trace, "-o", scratch.path + "/bad.svg", "--time-zone-table", trace])
        #expect(bad.status == 1 && bad.stderr.contains("--time-zone-table \(trace): not a Sextant time zone table"), "\(bad.stderr)")
    }
}
