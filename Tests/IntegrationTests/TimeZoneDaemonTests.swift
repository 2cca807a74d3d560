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
