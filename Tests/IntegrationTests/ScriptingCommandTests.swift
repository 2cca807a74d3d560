import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// What scripts need from `sextantctl` (issue 11, point 5): waits that end on the daemon's
/// decision, prompts found by app, replays followed to their own end, one exit-status table
/// and JSON errors. The built binary against a real daemon.
@Suite("sextantctl for scripts")
struct ScriptingCommandTests {
    @Test("rotate --wait returns once the judge has decided: status says so at once (O1, O2 settling)")
    func rotateWait() throws {
        let daemon = try DaemonHarness()
        for orientation in ["landscapeLeft", "faceUp", "portrait"] {
            let result = try daemon.ctl(["rotate", orientation, "--wait"])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(try daemon.control().call(Method.status)["deviceOrientation"] == .string(orientation))
        }
        let again = try daemon.ctl(["--json", "rotate", "portrait", "--wait"])
        #expect(again.status == 0 && again.stdout.contains("\"orientation\":\"portrait\""), "already there: at once")
    }

    @Test("issue 24.5: permissions grant for an app id never seen warns on stderr and in --json, and grants all the same")
    func grantUnseenAppWarns() throws {
        let daemon = try DaemonHarness()
        let unseen = try daemon.ctl(["permissions", "grant", "com.example.mpas"])
        #expect(unseen.status == 0, "\(unseen.stderr)")
        #expect(unseen.stderr.contains("warning: com.example.mpas has never been seen"), "\(unseen.stderr)")
        let json = try daemon.ctl(["--json", "permissions", "grant", "com.example.typo", "--always"])
        let answer = try JSONValue.parse(json.stdout)
        #expect(answer["warning"]?.stringValue?.contains("com.example.typo") == true, "\(json.stdout)")
        #expect(answer["status"] == "authorizedAlways")
        let list = try daemon.control().call(Method.permissionsList).arrayValue ?? []
        #expect(list.contains { $0["app"] == "com.example.mpas" && $0["status"] == "authorizedWhenInUse" }, "still allowed: \(list)")
        // Known ids: a stored decision, a live session.
        let stored = try daemon.ctl(["--json", "permissions", "grant", "com.example.mpas"])
        let storedAnswer = try JSONValue.parse(stored.stdout)
        #expect(stored.status == 0 && stored.stderr.isEmpty && storedAnswer["warning"] == nil, "\(stored.stderr)\(stored.stdout)")
        let (app, _) = try daemon.app("com.example.maps")
        defer { app.close() }
        let live = try daemon.ctl(["permissions", "grant", "com.example.maps"])
        #expect(live.status == 0 && live.stderr.isEmpty, "\(live.stderr)")
    }

    @Test("prompts wait --app prints the prompt; prompts answer --app answers it; the app's request is decided (L5)")
    func promptByApp() throws {
        let daemon = try DaemonHarness(arguments: ["--prompt-policy", "ask"])
        let (app, _) = try daemon.app("com.example.asking")
        let request = try app.send(Method.authorizationRequest, ["level": "whenInUse"])
        let waited = try daemon.ctl(["prompts", "wait", "--app", "com.example.asking", "--timeout", "20"])
        #expect(waited.status == 0, "\(waited.stderr)")
        let listed = try daemon.control().call(Method.promptsList)
        #expect(waited.stdout.hasPrefix(listed.arrayValue?.first?["id"]?.stringValue ?? "?"), "\(waited.stdout) vs \(listed)")
        let answered = try daemon.ctl(["prompts", "answer", "--app", "com.example.asking", "allowWhileUsing", "--approximate"])
        #expect(answered.status == 0, "\(answered.stderr)")
        let decision = try app.response(to: request)
        #expect(decision["status"] == "authorizedWhenInUse" && decision["accuracy"] == "reduced")
        let none = try daemon.ctl(["prompts", "answer", "--app", "com.example.asking", "allowOnce"])
        #expect(none.status == 1 && none.stderr.contains("no pending prompt for com.example.asking"))
    }

    @Test("prompts wait: a prompt already pending counts; none within --timeout exits 75")
    func promptWaitTimeout() throws {
        let daemon = try DaemonHarness()
        let timedOut = try daemon.ctl(["prompts", "wait", "--timeout", "0.3"])
        #expect(timedOut.status == 75 && timedOut.stderr.contains("timed out"), "\(timedOut)")
        let (app, _) = try daemon.app("com.example.early")
        _ = try app.send(Method.authorizationRequest, ["level": "always"])
        try daemon.waitForStatus("the prompt") { _ in (try? daemon.control().call(Method.promptsList).arrayValue?.count) == 1 }
        let pending = try daemon.ctl(["--json", "prompts", "wait"])
        let prompt = try JSONValue.parse(pending.stdout)
        #expect(pending.status == 0 && prompt["app"] == "com.example.early" && prompt["level"] == "always")
    }

    @Test("--json: errors are JSON on stdout with the daemon's code, or the exit status for sextantctl's own")
    func jsonErrors() throws {
        let daemon = try DaemonHarness()
        let refused = try daemon.ctl(["--json", "prompts", "answer", "nope", "allowOnce"])
        #expect(refused.status == 1)
        let error = try JSONValue.parse(refused.stdout)["error"]
        #expect(error?["code"] == 1005 && error?["message"]?.stringValue?.contains("nope") == true, "\(refused.stdout)")
        let usage = try daemon.ctl(["--json", "rotate", "sideways"])
        let usageError = try JSONValue.parse(usage.stdout)["error"]
        #expect(usage.status == 64 && usageError?["code"] == 64, "\(usage)")
        let missing = try run([Binaries.sextantctl, "--json", "status", "--runtime-dir", daemon.directory + "/nowhere"])
        let missingError = try JSONValue.parse(missing.stdout)["error"]
        #expect(missing.status == 69 && missingError?["code"] == 69, "\(missing)")
        let human = try daemon.ctl(["prompts", "answer", "nope", "allowOnce"])
        #expect(human.status == 1 && human.stdout.isEmpty && human.stderr.contains("error 1005"))
    }

    @Test("location set -- LAT LON: the form scripts use before a negative number")
    func locationAfterDoubleDash() throws {
        let daemon = try DaemonHarness()
        // Everything after -- is positional, so the runtime directory comes first here.
        let result = try run([Binaries.sextantctl, "--runtime-dir", daemon.runtime, "location", "set", "--", "-33.8568", "151.2153"])
        #expect(result.status == 0, "\(result.stderr)")
        let fix = try daemon.control().call(Method.status)["location"]
        #expect(fix?["lat"] == -33.8568 && fix?["lon"] == 151.2153)
    }

    @Test("reset: every permission forgotten, Location Services on, prompt policy ask")
    func reset() throws {
        let daemon = try DaemonHarness(arguments: ["--prompt-policy", "dontAllow"])
        _ = try daemon.ctl(["permissions", "grant", "com.example.a"])
        _ = try daemon.ctl(["services", "off"])
        let result = try daemon.ctl(["reset"])
        #expect(result.status == 0, "\(result.stderr)")
        let status = try daemon.control().call(Method.status)
        #expect(status["servicesEnabled"] == true && status["promptPolicy"]?["mode"] == "ask")
        #expect(try daemon.control().call(Method.permissionsList) == [])
    }
}

/// `replay start --wait` follows the replay it started, and only it.
@Suite("sextantctl replay start --wait")
struct ReplayWaitTests {
    /// Starts `replay start --wait` on a ten-minute trace and returns once it is running.
    private func follower(_ daemon: DaemonHarness, extra: [String] = []) throws -> (Process, String) {
        let trace = try daemon.write("long.jsonl", syntheticTrace(count: 600, step: 1))
        let watcher = try daemon.control()
        _ = try watcher.call(Method.watch, ["topics": ["replay"]])
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binaries.sextantctl)
        process.arguments = ["replay", "start", "--wait", trace, "--runtime-dir", daemon.runtime] + extra
        process.standardError = FileHandle(forWritingAtPath: try daemon.write("follower.err", ""))
        try launch(process)
        _ = try watcher.nextEvent(timeout: 20, description: "the follower's replay") { $0.params["state"] == "running" }
        return (process, trace)
    }

    private func exitStatus(_ process: Process, within seconds: Double) throws -> Int32 {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { usleep(10_000) }  // a Process has no wait with a deadline
        guard !process.isRunning else {
            process.terminate()
            throw HarnessError("replay start --wait still running after \(seconds) s")
        }
        return process.terminationStatus
    }

    @Test("Another replay replacing it ends the wait at once, status 1, saying so")
    func replaced() throws {
        let daemon = try DaemonHarness()
        let (process, trace) = try follower(daemon)
        _ = try daemon.control().call(Method.replayStart, ["path": .string(trace), "speed": 2])
        #expect(try exitStatus(process, within: 10) == 1)
        #expect(try String(contentsOfFile: daemon.directory + "/follower.err", encoding: .utf8).contains("another replay replaced it"))
    }

    @Test("A stop ends the wait at once, status 1")
    func stopped() throws {
        let daemon = try DaemonHarness()
        let (process, _) = try follower(daemon)
        _ = try daemon.control().call(Method.replayStop)
        #expect(try exitStatus(process, within: 10) == 1)
        #expect(try String(contentsOfFile: daemon.directory + "/follower.err", encoding: .utf8).contains("stopped before its end"))
    }

    @Test("SIGINT stops the replay it started (130); with --detach the replay goes on")
    func interrupted() throws {
        let daemon = try DaemonHarness()
        let (process, _) = try follower(daemon)
        kill(process.processIdentifier, SIGINT)
        #expect(try exitStatus(process, within: 10) == 130)
        #expect(try daemon.control().call(Method.replayStatus)["state"] == "stopped")

        let (detached, _) = try follower(daemon, extra: ["--detach"])
        kill(detached.processIdentifier, SIGINT)
        #expect(try exitStatus(detached, within: 10) == 130)
        #expect(try daemon.control().call(Method.replayStatus)["state"] == "running")
    }

    @Test("A replay that finishes: status 0 and its final state")
    func finishes() throws {
        let daemon = try DaemonHarness()
        let trace = try daemon.write("short.jsonl", syntheticTrace(count: 50, step: 1))
        let result = try daemon.ctl(["--json", "replay", "start", "--wait", "--speed", "max", trace])
        #expect(result.status == 0, "\(result.stderr)")
        let final = try JSONValue.parse(result.stdout)
        #expect(final["state"] == "finished" && final["events"] == 50)
    }
}
