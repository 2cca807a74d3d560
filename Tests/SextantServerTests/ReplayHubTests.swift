import Foundation
import SextantCore
import SextantProtocol
import SextantTestSupport
import Testing

/// A replay's events through app.sock, in process on virtual time: the same at every speed,
/// a bad line refused, laps, a recording replayed, the GPS source's loss. (What sextantctl
/// prints and `--replay` at start stay in Tests/IntegrationTests/ReplayTests.)
@Suite("Replay, in process", .timeLimit(.minutes(1)))
struct ReplayHubTests {
    /// A hub, its control connection and an app granted and streaming locations.
    static func setUp() async throws -> (InProcessHub, TestClient, TestClient) {
        let hub = try InProcessHub()
        let (control, app, _) = try await hub.grantedApp("com.example.replay", subscribe: [Method.locationStart])
        return (hub, control, app)
    }

    /// Plays `path` at `speed` to its end.
    static func play(_ hub: InProcessHub, _ control: TestClient, _ path: String, speed: JSONValue = "max") async throws {
        _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": speed])
        await hub.advance(by: .seconds(1))
        #expect(try await control.call(Method.replayStatus)["state"] == "finished")
    }

    /// The (lat, lon, time) of every location an app receives during one replay of `trace`.
    static func replayedLocations(speed: JSONValue, trace: String) async throws -> [String] {
        let (hub, control, app) = try await setUp()
        try await play(hub, control, try HubTimeTests.write(trace, in: hub, as: "trace.jsonl"), speed: speed)
        return try await app.drained(Event.location).map { "\($0["lat"] ?? .null) \($0["lon"] ?? .null) \($0["time"] ?? .null)" }
    }

    @Test("O5/replay: the same events and times at max and at 100×, as the trace says")
    func sameEventsAtEverySpeed() async throws {
        // More samples than three of a max replay's turns (256 samples each).
        let trace = syntheticTrace(count: 800, step: 0.02)
        let atMax = try await Self.replayedLocations(speed: "max", trace: trace)
        #expect(try await Self.replayedLocations(speed: 100, trace: trace) == atMax)
        // And what the trace says, read here independently of the hub.
        let start = try #require(Timestamp(rfc3339: "2026-03-01T08:00:00.000Z")).nanoseconds
        let expected = try trace.split(separator: "\n").dropFirst().map { line in
            let sample = try JSONValue.parse(String(line))
            let millis = Int64(((sample["t"]?.doubleValue ?? 0) * 1000).rounded())
            let time = Timestamp(nanoseconds: start + millis * 1_000_000)
            return "\(sample["location"]?["lat"] ?? .null) \(sample["location"]?["lon"] ?? .null) \"\(time.rfc3339)\""
        }
        #expect(atMax.count == 800 && atMax == expected)
    }

    @Test("A bad trace line is error 1008 with file, line and reason; nothing is played")
    func badTraceLine() async throws {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        let path = try HubTimeTests.write(
            """
            {"sextant":"trace","version":1,"start":"2026-03-01T08:00:00.000Z"}
            # a comment counts as a line
            {"t":0,"location":{"lat":1,"lon":2}}
            {"t":1,"location":{"lat":95,"lon":2}}

            """, in: hub, as: "bad.jsonl")
        let error = try #require(try await control.request(Method.replayStart, ["path": .string(path)])["error"])
        #expect(error["code"] == 1008 && error["data"]?["path"] == .string(path) && error["data"]?["line"] == 4)
        #expect(error["data"]?["reason"]?.stringValue?.contains("lat") == true, "\(error)")
        let status = try await control.call(Method.replayStatus)
        #expect(status["state"] == "idle" && status["events"] == 0)
    }

    @Test("--loop starts the trace again with times that keep going forward; stop stops it")
    func loopAndStop() async throws {
        let (hub, control, app) = try await Self.setUp()
        let path = try HubTimeTests.write(syntheticTrace(count: 5, step: 0.1), in: hub, as: "lap.jsonl")
        _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": "max", "loop": true])
        // Each lap reopens the file off the loop: wait for the fixes themselves, not a time.
        var times: [Timestamp] = []
        while times.count < 12 {
            let message = try await app.nextMessage()
            guard message["method"] == .string(Event.location) else { continue }
            times += [message["params"]?["time"]?.stringValue.flatMap(Timestamp.init(rfc3339:))].compactMap { $0 }
        }
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "\(times)")
        let stopped = try await control.call(Method.replayStop)
        #expect(stopped["state"] == "stopped" && (stopped["lap"]?.intValue ?? 0) >= 2, "\(stopped)")
    }

    @Test("record: a recorded session replays to the same location events")
    func recordThenReplay() async throws {
        let (hub, control, app) = try await Self.setUp()
        let source = try HubTimeTests.write(syntheticTrace(count: 40, step: 0.05), in: hub, as: "source.jsonl")
        let recording = hub.directory + "/recorded.jsonl"
        _ = try await control.call(Method.recordStart, ["path": .string(recording)])
        try await Self.play(hub, control, source)
        #expect(try await control.call(Method.recordStop)["events"] == 40)
        let first = try await app.drained(Event.location)
        try await Self.play(hub, control, recording)
        let second = try await app.drained(Event.location)
        #expect(first.count == 40 && first == second)
    }

    @Test("locationUnavailable: once per loss of the GPS source, also to a stream that starts during the loss; a fix ends the loss")
    func locationUnavailableOncePerLoss() async throws {
        let (hub, control, early) = try await Self.setUp()
        let path = try HubTimeTests.write(
            """
            {"sextant":"trace","version":1,"start":"2026-03-01T08:00:00.000Z"}
            {"t":0,"location":{"lat":48.1,"lon":2.3}}
            {"t":0.1,"gps":{"state":"lost"}}
            {"t":0.2,"gps":{"state":"lost"}}

            """, in: hub, as: "lost.jsonl")
        try await Self.play(hub, control, path)
        let told = try await early.drained(Event.locationUnavailable)
        #expect(told.count == 1 && told.first?["reason"]?.stringValue?.contains("lost") == true, "\(told)")
        try await Self.play(hub, control, path)
        // The second "lost" of each replay is the same loss: the early app heard it once per
        // replay (each replay's first fix ended the previous loss).
        #expect(try await early.drained(Event.locationUnavailable).count == 1)

        // A stream that starts during the loss hears of it at once, before the response.
        let (late, _) = try await hub.app("com.example.replay")
        _ = try await late.call(Method.locationStart)
        #expect(late.events.filter { $0.method == Event.locationUnavailable }.count == 1)

        // A fix ends the loss: a new stream then hears nothing.
        try await control.setLocation(48.2, 2.3)
        let (after, _) = try await hub.app("com.example.replay", subscribe: [Method.locationStart])
        #expect(try await after.drained(Event.locationUnavailable).isEmpty)
    }
}
