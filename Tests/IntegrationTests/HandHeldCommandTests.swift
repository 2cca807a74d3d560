import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// `sextantctl magnet`, `sextantctl heading set`/`release` and `status`'s list of what is
/// held by hand (issue 21 "values set by hand", issue 24's leftovers), and `run --scenario`,
/// through the real daemon and the real sextantctl.
@Suite("sextantctl magnet, heading, status's held sensors and run --scenario", .serialized)
struct HandHeldCommandTests {
    @Test("issue 21, O4a: sextantctl heading set and magnet hold; status says what is held, in JSON and in text; release lets go")
    func headingAndMagnetByHand() throws {
        let daemon = try DaemonHarness(arguments: ["--no-gpsd"])
        let set = try daemon.ctl(["heading", "set", "45.5", "--accuracy", "3"])
        #expect(set.status == 0 && set.stdout.contains("45.5"), "\(set.stderr)")
        try daemon.waitForStatus("the heading held") { $0["heading"]?["magnetic"] == 45.5 && $0["heading"]?["accuracy"] == 3 }
        #expect(try daemon.control().call(Method.status)["held"] == ["compass"])
        #expect(try daemon.ctl(["rotate", "faceUp"]).status == 0)
        let text = try daemon.ctl(["status"]).stdout
        #expect(text.contains("Held by hand:      accel, compass"), "\(text)")

        #expect(try daemon.ctl(["magnet", "0", "-20", "-40"]).status == 0)
        try daemon.waitForStatus("the field held") { $0["heading"]?["magnetic"] == 180 && $0["held"] == ["accel", "magnet"] }
        #expect(try daemon.ctl(["magnet", "release"]).status == 0)
        #expect(try daemon.ctl(["accel", "release"]).status == 0)
        let released = try daemon.control().call(Method.status)
        #expect(released["held"] == [], "\(released)")
        #expect(!(try daemon.ctl(["status"]).stdout.contains("Held by hand")))
    }

    @Test("sextantctl heading set --true, release, and bad values refused with what is wrong")
    func headingTrueAndRefusals() throws {
        let daemon = try DaemonHarness(arguments: ["--no-gpsd"])
        // A true heading needs the place's declination: a fix first.
        #expect(try daemon.ctl(["location", "set", "48.85", "2.29"]).status == 0)
        #expect(try daemon.ctl(["heading", "set", "90", "--true"]).status == 0)
        try daemon.waitForStatus("the true heading held") { ($0["heading"]?["magnetic"]?.doubleValue).map { abs($0 - 90) < 5 && $0 != 90 } ?? false }
        #expect(try daemon.ctl(["heading", "release"]).status == 0)
        #expect(try daemon.control().call(Method.status)["held"] == [])
        let outOfRange = try daemon.ctl(["heading", "set", "400"])
        #expect(outOfRange.status != 0 && outOfRange.stderr.contains("heading"), "\(outOfRange.stderr)")
        let badField = try daemon.ctl(["magnet", "1", "2"])
        #expect(badField.status != 0 && badField.stderr.contains("X Y Z"), "\(badField.stderr)")
        let tooStrong = try daemon.ctl(["magnet", "1", "2", "9000"])
        #expect(tooStrong.status != 0 && tooStrong.stderr.contains("magnet: z must be"), "\(tooStrong.stderr)")
    }

    @Test("issue 24: run --scenario passes the scenario to run's replay; a bad scenario line is a usage error naming file and line")
    func runWithScenario() throws {
        let scratch = try TemporaryDirectory("runscenario")
        let scenario = try scratch.write("scenario.jsonl", #"{"t":1,"control":{"method":"services.set","params":{"enabled":false}}}"# + "\n")
        let walk = Repository.root + "/Traces/demo-walk.jsonl"
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = scratch.path
        environment.removeValue(forKey: "SEXTANT_RUNTIME_DIR")
        let script = """
            \(Binaries.sextantctl) replay resume --until 2 --wait >/dev/null && \(Binaries.sextantctl) --json status \
            && printf '%s' "$SEXTANT_RUN_SCENE"
            """
        let result = try run(
            [Binaries.sextantctl, "run", "--trace", walk, "--scenario", scenario, "--speed", "max", "--", "/bin/sh", "-c", script], environment: environment)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n")
        let status = try JSONValue.parse(String(try #require(lines.first)))
        #expect(status["servicesEnabled"] == false, "the scenario's action at 1 s played: \(status)")
        let scene = try JSONValue.parse(String(try #require(lines.last)))
        #expect(scene["scenario"]?.stringValue == scenario, "\(scene)")

        let bad = try scratch.write("bad.jsonl", "{not json\n")
        let refused = try run([Binaries.sextantctl, "run", "--trace", walk, "--scenario", bad, "--", "/bin/true"], environment: environment)
        #expect(refused.status == 64 && refused.stderr.contains("\(bad):1:"), "\(refused.stderr)")
        let alone = try run([Binaries.sextantctl, "run", "--scenario", scenario, "--", "/bin/true"], environment: environment)
        #expect(alone.status == 64 && alone.stderr.contains("--scenario"), "\(alone.stderr)")
    }
}
