import Foundation
import SextantClient
import SextantProtocol
import Testing

@Suite("Replay")
struct ReplayTests {
    /// The (lat, lon, time) of every location an app receives during one replay.
    private func replayedLocations(speed: JSONValue, trace: String, count: Int) throws -> [String] {
        let daemon = try DaemonHarness()
        let path = try daemon.write("trace.jsonl", trace)
        #expect(try daemon.ctl(["permissions", "grant", "com.example.replay"]).status == 0)
        let (app, _) = try daemon.app("com.example.replay")
        _ = try app.call(Method.locationStart)
        _ = try daemon.control().call(Method.replayStart, ["path": .string(path), "speed": speed])
        var seen: [String] = []
        while seen.count < count {
            let event = try app.nextEvent(timeout: 30)
            guard event.method == Event.location else { continue }
            seen.append("\(event.params["lat"]!) \(event.params["lon"]!) \(event.params["time"]!)")
        }
        return seen
    }

    @Test("O5/replay: the same events and times at max and at 100×, as the trace says")
    func sameEventsAtEverySpeed() throws {
        let count = 2000
        let trace = syntheticTrace(count: count, step: 0.02)
        let atMax = try replayedLocations(speed: "max", trace: trace, count: count)
        let atHundred = try replayedLocations(speed: 100, trace: trace, count: count)
        #expect(atMax == atHundred)
        // And what the trace says, read here independently of the daemon.
        var expected: [String] = []
        for line in trace.split(separator: "\n").dropFirst() {
            let sample = try JSONValue.parse(String(line))
            let t = sample["t"]!.doubleValue!
            let millis = Int64((t * 1000).rounded())
            let time = Timestamp(nanoseconds: Timestamp(rfc3339: "2026-03-01T08:00:00.000Z")!.nanoseconds + millis * 1_000_000)
            expected.append("\(sample["location"]!["lat"]!) \(sample["location"]!["lon"]!) \"\(time.rfc3339)\"")
        }
        #expect(atMax == expected)
    }

    @Test("A bad trace line is error 1008 with file, line and reason; nothing is played")
    func badTraceLine() throws {
        let daemon = try DaemonHarness()
        let text = """
            {"sextant":"trace","version":1,"start":"2026-03-01T08:00:00.000Z"}
            # a comment counts as a line
            {"t":0,"location":{"lat":1,"lon":2}}
            {"t":1,"location":{"lat":95,"lon":2}}

            """
        let path = try daemon.write("bad.jsonl", text)
        let error = try #require(rpcError { try daemon.control().call(Method.replayStart, ["path": .string(path)]) })
        #expect(error.code == 1008)
        #expect(error.data?["path"] == .string(path))
        #expect(error.data?["line"] == 4)
        #expect(error.data?["reason"]?.stringValue?.contains("lat") == true)
        let status = try daemon.control().call(Method.replayStatus)
        #expect(status["state"] == "idle")
        #expect(status["events"] == 0)

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

    @Test("--loop starts the trace again with times that keep going forward; stop stops it")
    func loopAndStop() throws {
        let daemon = try DaemonHarness()
        let path = try daemon.write("lap.jsonl", syntheticTrace(count: 5, step: 0.1))
        #expect(try daemon.ctl(["permissions", "grant", "com.example.lap"]).status == 0)
        let (app, _) = try daemon.app("com.example.lap")
        _ = try app.call(Method.locationStart)
        _ = try daemon.control().call(Method.replayStart, ["path": .string(path), "speed": "max", "loop": true])
        var times: [Timestamp] = []
        while times.count < 12 {
            let event = try app.nextEvent(timeout: 10)
            if event.method == Event.location, let t = event.params["time"]?.stringValue.flatMap(Timestamp.init(rfc3339:)) { times.append(t) }
        }
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 })
        let stopped = try daemon.control().call(Method.replayStop)
        #expect(stopped["state"] == "stopped")
        #expect((stopped["lap"]?.intValue ?? 0) >= 2)
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

    @Test("record: a recorded session replays to the same location events")
    func recordThenReplay() throws {
        let daemon = try DaemonHarness()
        let source = try daemon.write("source.jsonl", syntheticTrace(count: 40, step: 0.05))
        let recording = daemon.directory + "/recorded.jsonl"
        #expect(try daemon.ctl(["permissions", "grant", "com.example.rec"]).status == 0)
        let (app, _) = try daemon.app("com.example.rec")
        _ = try app.call(Method.locationStart)
        #expect(try daemon.ctl(["record", "start", recording]).status == 0)
        #expect(try daemon.ctl(["replay", "start", source, "--speed", "max", "--wait"]).status == 0)
        let stop = try JSONValue.parse(try daemon.ctl(["record", "stop", "--json"]).stdout)
        #expect(stop["events"] == 40)
        var first: [JSONValue] = []
        while first.count < 40 { let e = try app.nextEvent(timeout: 10); if e.method == Event.location { first.append(e.params) } }

        #expect(try daemon.ctl(["replay", "start", recording, "--speed", "max", "--wait"]).status == 0)
        var second: [JSONValue] = []
        while second.count < 40 { let e = try app.nextEvent(timeout: 10); if e.method == Event.location { second.append(e.params) } }
        #expect(first == second)
    }

    @Test("locationUnavailable: once per loss of the GPS source, also to a stream that starts during the loss; a fix ends the loss")
    func locationUnavailableOncePerLoss() throws {
        let daemon = try DaemonHarness()
        let path = try daemon.write("lost.jsonl", """
            {"sextant":"trace","version":1,"start":"2026-03-01T08:00:00.000Z"}
            {"t":0,"location":{"lat":48.1,"lon":2.3}}
            {"t":0.1,"gps":{"state":"lost"}}
            {"t":0.2,"gps":{"state":"lost"}}

            """)
        #expect(try daemon.ctl(["permissions", "grant", "com.example.maps"]).status == 0)
        let (early, _) = try daemon.app("com.example.maps")
        _ = try early.call(Method.locationStart)
        _ = try daemon.control().call(Method.replayStart, ["path": .string(path), "speed": "max"])
        let told = try early.nextEvent(timeout: 10, description: "locationUnavailable") { $0.method == Event.locationUnavailable }
        #expect(told.params["reason"]?.stringValue?.contains("lost") == true)
        _ = try daemon.ctl(["replay", "start", path, "--speed", "max", "--wait"])

        // A stream that starts during the loss hears of it at once, before the response.
        let (late, _) = try daemon.app("com.example.maps")
        _ = try late.call(Method.locationStart)
        #expect(try late.takeEvents().filter { $0.method == Event.locationUnavailable }.count == 1)

        // The second "lost" of each replay is the same loss: the early app heard it once per
        // replay (each replay's first fix ended the previous loss).
        _ = try early.call(Method.authorizationGet)
        let unavailable = try early.takeEvents().filter { $0.method == Event.locationUnavailable }
        #expect(unavailable.count == 1, "one more for the second replay's loss, none for its second lost sample")

        // A fix ends the loss: a new stream then hears nothing.
        #expect(try daemon.ctl(["location", "set", "48.2", "2.3"]).status == 0)
        let (after, _) = try daemon.app("com.example.maps")
        _ = try after.call(Method.locationStart)
        _ = try after.call(Method.authorizationGet)
        #expect(try after.takeEvents().allSatisfy { $0.method != Event.locationUnavailable })
    }
}
