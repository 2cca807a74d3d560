import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// `sextantctl replay pause|resume|seek|step`, `replay start --until --wait` and
/// `watch --app`, the built binary against a real daemon.
@Suite("sextantctl replay control and watch --app")
struct ReplayControlCommandTests {
    private func json(_ result: CommandResult) throws -> JSONValue {
        #expect(result.status == 0, "\(result.stderr)")
        return try JSONValue.parse(result.stdout)
    }

    @Test("pause, seek, step and resume: the replay's clock moves only as told")
    func pauseSeekStepResume() throws {
        let daemon = try DaemonHarness()
        let trace = try daemon.write("long.jsonl", syntheticTrace(count: 600, step: 1))
        _ = try daemon.control().call(Method.replayStart, ["path": .string(trace), "speed": 1])
        let paused = try json(daemon.ctl(["--json", "replay", "pause"]))
        #expect(paused["state"] == "paused")
        let sought = try json(daemon.ctl(["--json", "replay", "seek", "100"]))
        #expect(sought["position"]?.doubleValue == 100 && sought["state"] == "paused")
        let stepped = try json(daemon.ctl(["--json", "replay", "step", "3"]))
        #expect(stepped["position"]?.doubleValue == 102, "the 101st, 102nd and 103rd samples are at 100, 101 and 102 s")
        #expect(try json(daemon.ctl(["--json", "replay", "resume"]))["state"] == "running")
        let badStep = try daemon.ctl(["replay", "step", "0"])
        #expect(badStep.status == 64)
    }

    @Test("replay start --until T --wait returns once the replay has paused at T")
    func untilWait() throws {
        let daemon = try DaemonHarness()
        let trace = try daemon.write("walk.jsonl", syntheticTrace(count: 100, step: 1))
        let final = try json(daemon.ctl(["--json", "replay", "start", trace, "--speed", "max", "--until", "30", "--wait"]))
        #expect(final["state"] == "paused" && final["position"]?.doubleValue == 30, "\(final)")
    }

    @Test("issue 24.3: replay start --scenario plays its actions on the replay's clock; resume --until T --wait returns paused at T; a bad line exits 1 with file and line")
    func scenarioAndResumeUntil() throws {
        let daemon = try DaemonHarness()
        let trace = try daemon.write("walk.jsonl", syntheticTrace(count: 100, step: 1))
        let scenario = try daemon.write(
            "scenario.jsonl", #"{"t":20,"control":{"method":"services.set","params":{"enabled":false}}}"# + "\n")
        let paused = try json(daemon.ctl(["--json", "replay", "start", trace, "--scenario", scenario, "--speed", "max", "--until", "10", "--wait"]))
        #expect(paused["position"]?.doubleValue == 10)
        #expect(try daemon.control().call(Method.status)["servicesEnabled"] == true, "the action at 20 s has not played at 10 s")
        let again = try json(daemon.ctl(["--json", "replay", "resume", "--until", "25", "--wait"]))
        #expect(again["state"] == "paused" && again["position"]?.doubleValue == 25, "\(again)")
        #expect(try daemon.control().call(Method.status)["servicesEnabled"] == false)
        let bad = try daemon.write("bad.jsonl", #"{"t":1,"control":{"method":"replay.stop"}}"# + "\n")
        let refused = try daemon.ctl(["replay", "start", trace, "--scenario", bad])
        #expect(refused.status == 1 && refused.stderr.contains("\(bad):1: control.method \"replay.stop\" cannot be played"), "\(refused.stderr)")
    }

    @Test("watch --app shows only what that app received; an unknown --topic is an error")
    func watchByApp() throws {
        let daemon = try DaemonHarness()
        let control = try daemon.control()
        for app in ["com.example.a", "com.example.b"] {
            _ = try control.call(Method.permissionsSet, ["app": .string(app), "status": "authorizedWhenInUse"])
        }
        let (a, _) = try daemon.app("com.example.a")
        let (b, _) = try daemon.app("com.example.b")
        _ = try a.call(Method.locationStart)
        _ = try b.call(Method.locationStart)

        let watcher = try daemon.watch(["--app", "com.example.a", "--topic", "location", "--json"])
        // Fixes until one shows, then one more.
        var lines: [String] = []
        let first = try watcher.firstLine { attempt in
            _ = try control.call(Method.deviceSet, ["location": ["lat": .double(10 + Double(attempt) * 0.001), "lon": 20]])
        }
        if let first { lines.append(first) }
        _ = try control.call(Method.deviceSet, ["location": ["lat": 11, "lon": 21]])
        while lines.last.map({ !$0.contains("\"lat\":11") }) ?? true {
            lines.append(try watcher.line(timeout: 10))
        }
        let apps = try lines.map { try JSONValue.parse($0)["params"]?["app"] }
        #expect(apps.allSatisfy { $0 == "com.example.a" }, "\(lines)")

        let unknown = try daemon.ctl(["watch", "--topic", "sunrise"])
        #expect(unknown.status == 1 && unknown.stderr.contains("no event \"sunrise\""), "\(unknown.stderr)")
    }
}
