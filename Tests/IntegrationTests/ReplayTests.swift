import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// What sextantctl says of a replay and `--replay` at start, on the real daemon. A replay's
/// events (O5 at every speed, 1008, laps, recording, locationUnavailable) are tested in
/// process: Tests/SextantServerTests/ReplayHubTests.
@Suite("Replay")
struct ReplayTests {
    @Test("sextantctl replay start names a bad trace's file and line, and a missing file's 1006")
    func badTraceLineThroughSextantctl() throws {
        let daemon = try DaemonHarness()
        let text = """
            {"sextant":"trace","version":1,"start":"2026-03-01T08:00:00.000Z"}
            # a comment counts as a line
            {"t":0,"location":{"lat":1,"lon":2}}
            {"t":1,"location":{"lat":95,"lon":2}}

            """
        let path = try daemon.write("bad.jsonl", text)
        let cli = try daemon.ctl(["replay", "start", path])
        #expect(cli.status != 0)
        #expect(cli.stderr.contains("bad.jsonl:4"), "\(cli.stderr)")

        let missing = try daemon.ctl(["replay", "start", daemon.directory + "/missing.jsonl"])
        #expect(missing.status != 0)
        #expect(missing.stderr.contains("1006"))
    }

    @Test("replay start --wait returns when the replay ends; status shows the progress")
    func replayWaitAndStatus() throws {
        let daemon = try DaemonHarness()
        let path = try daemon.write("short.jsonl", syntheticTrace(count: 50, step: 0.1))
        let result = try daemon.ctl(["replay", "start", path, "--speed", "20", "--wait", "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let final = try JSONValue.parse(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(final["state"] == "finished")
        #expect(final["events"] == 50)
        #expect(abs((final["duration"]?.doubleValue ?? 0) - 4.9) < 1e-9)
        #expect(abs((final["position"]?.doubleValue ?? 0) - 4.9) < 1e-9)
    }

    @Test("--replay at start: the daemon plays the bundled demo trace to later subscribers")
    func replayAtStart() throws {
        let daemon = try DaemonHarness(arguments: ["--replay", Repository.root + "/Traces/demo-walk.jsonl", "--speed", "5", "--prompt-policy", "allowWhileUsing"])
        let (app, _) = try daemon.app("com.example.demo")
        #expect(try app.call(Method.authorizationRequest, ["level": "whenInUse"])["status"] == "authorizedWhenInUse")
        _ = try app.call(Method.locationStart)
        let fix = try app.nextEvent(timeout: 10, description: "a location from the replay") { $0.method == Event.location }
        #expect(fix.params["time"]?.stringValue?.hasPrefix("2026-03-01T08:") == true)
        let status = try daemon.control().call(Method.status)
        #expect(status["replay"]?["state"] == "running")
    }
}
