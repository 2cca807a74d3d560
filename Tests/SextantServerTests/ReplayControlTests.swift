import Foundation
import NIOCore
import SextantCore
import SextantProtocol
import Testing

@testable import SextantHub
@testable import SextantServer

/// Replay control for exact scenarios, in process on virtual time: pause, resume, step,
/// seek, `until`; the samples and their times stay those of an uninterrupted replay (O5).
@Suite("Replay control, in process", .timeLimit(.minutes(1)))
struct ReplayControlTests {
    /// Fixes at t = 0, 1, …, 9 s, lat 48.0 + t/100.
    static let walk = HubTimeTests.trace(
        start: "2026-03-01T08:00:00.000Z", (0..<10).map { #"{"t":\#($0),"location":{"lat":\#(48.0 + Double($0) / 100),"lon":2.3}}"# })

    /// A hub replaying the walk at speed 1 to an app that streams, and the two clients.
    static func setUp(_ params: [String: JSONValue] = [:]) async throws -> (InProcessHub, TestClient, TestClient) {
        let hub = try InProcessHub()
        let path = try HubTimeTests.write(walk, in: hub, as: "walk.jsonl")
        let control = try await hub.connect(.control)
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": "com.example.maps"])
        _ = try await control.call(Method.permissionsSet, ["app": "com.example.maps", "status": "authorizedAlways"])
        _ = try await app.call(Method.locationStart)
        var start: [String: JSONValue] = ["path": .string(path), "speed": 1]
        start.merge(params) { $1 }
        _ = try await control.call(Method.replayStart, .object(start))
        return (hub, control, app)
    }

    static func times(_ app: TestClient) async throws -> [String] {
        try await app.drainEvents().filter { $0.method == Event.location }.compactMap { $0.params["time"]?.stringValue }
    }

    @Test("Paused, nothing plays however long; resumed, the walk goes on where it stood, same times")
    func pauseAndResume() async throws {
        let (hub, control, app) = try await Self.setUp()
        await hub.advance(by: .milliseconds(2500))
        #expect(try await Self.times(app).count == 3)
        #expect(try await control.call(Method.replayPause)["state"] == "paused")
        await hub.advance(by: .seconds(60))
        #expect(try await Self.times(app).isEmpty)
        let status = try await control.call(Method.replayStatus)
        #expect(status["state"] == "paused" && status["position"] == 2.5)
        _ = try await control.call(Method.replayResume)
        await hub.advance(by: .milliseconds(499))
        #expect(try await Self.times(app).isEmpty, "t = 3 s is 0.5 s after where it paused")
        await hub.advance(by: .milliseconds(1))
        #expect(try await Self.times(app) == ["2026-03-01T08:00:03.000Z"])
    }

    @Test("until: the replay pauses when the virtual clock reaches it, the sample at exactly that time played")
    func untilPauses() async throws {
        let (hub, control, app) = try await Self.setUp(["until": 4])
        await hub.advance(by: .seconds(4))
        #expect(try await Self.times(app).count == 5, "t = 0…4")
        #expect(try await control.call(Method.replayStatus)["state"] == "paused")
        // A revoke at exactly t = 4 s: nothing after it reaches the app.
        _ = try await control.call(Method.permissionsSet, ["app": "com.example.maps", "status": "denied"])
        _ = try await control.call(Method.replayResume)
        await hub.advance(by: .seconds(10))
        #expect(try await Self.times(app).isEmpty)
        #expect(try await control.call(Method.replayStatus)["state"] == "finished")
    }

    @Test("resume --until (issue 24.3): the replay pauses again exactly at T, at every speed", arguments: [JSONValue.int(1), .int(4), .string("max")])
    func resumeUntilPausesAtT(speed: JSONValue) async throws {
        let (hub, control, app) = try await Self.setUp(["until": 2, "speed": speed])
        await hub.advance(by: .seconds(3))
        #expect(try await Self.times(app).count == 3, "t = 0…2")
        #expect(try await control.errorCode(Method.replayResume, ["until": 1.5]) == -32602, "T behind the position")
        _ = try await control.call(Method.replayResume, ["until": 6])
        await hub.advance(by: .seconds(10))
        #expect(try await Self.times(app) == (3...6).map { "2026-03-01T08:00:0\($0).000Z" })
        let status = try await control.call(Method.replayStatus)
        #expect(status["state"] == "paused" && status["position"] == 6)
        _ = try await control.call(Method.replayResume, ["until": 7.5])
        await hub.advance(by: .seconds(10))
        #expect(try await Self.times(app) == ["2026-03-01T08:00:07.000Z"])
        #expect(try await control.call(Method.replayStatus)["position"] == 7.5, "the clock stops at T between two samples")
        _ = try await control.call(Method.replayResume)
        await hub.advance(by: .seconds(10))
        #expect(try await Self.times(app).count == 2)
        #expect(try await control.call(Method.replayStatus)["state"] == "finished")
    }

    @Test("step plays the next samples at once while paused; seek skips to a position")
    func stepAndSeek() async throws {
        let (hub, control, app) = try await Self.setUp()
        _ = try await control.call(Method.replayPause)
        #expect(try await Self.times(app) == ["2026-03-01T08:00:00.000Z"])
        #expect(try await control.call(Method.replayStep, ["count": 2])["stepped"] == 2)
        #expect(try await Self.times(app) == ["2026-03-01T08:00:01.000Z", "2026-03-01T08:00:02.000Z"])
        _ = try await control.call(Method.replaySeek, ["position": 7.5])
        #expect(try await control.call(Method.replayStep)["stepped"] == 1)
        #expect(try await Self.times(app) == ["2026-03-01T08:00:08.000Z"])
        _ = try await control.call(Method.replayResume)
        await hub.advance(by: .seconds(1))
        #expect(try await Self.times(app) == ["2026-03-01T08:00:09.000Z"])
        #expect(try await control.errorCode(Method.replayStep) == -32602, "stepping needs a pause")
    }

    @Test("O5: pausing and stepping through a replay gives the same events as playing it through")
    func sameEventsAcrossPauses() async throws {
        let (hub, control, app) = try await Self.setUp()
        for _ in 0..<3 {
            await hub.advance(by: .milliseconds(700))
            _ = try await control.call(Method.replayPause)
            _ = try await control.call(Method.replayStep)
            _ = try await control.call(Method.replayResume)
        }
        await hub.advance(by: .seconds(20))
        let interrupted = try await Self.times(app)
        let (hub2, _, app2) = try await Self.setUp()
        await hub2.advance(by: .seconds(20))
        #expect(interrupted == (try await Self.times(app2)))
        #expect(interrupted.count == 10)
    }

    @Test("watch with app sees exactly what that app received; an unknown topic is -32602")
    func watchOneApp() async throws {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        #expect(try await control.errorCode(Method.watch, ["topics": ["sunrise"]]) == -32602)
        let watcher = try await hub.connect(.control)
        _ = try await watcher.call(Method.watch, ["app": "com.example.maps"])
        let maps = try await hub.connect(.app)
        _ = try await maps.call(Method.hello, ["app": "com.example.maps"])  // no orientation.start
        let other = try await hub.connect(.app)
        _ = try await other.call(Method.hello, ["app": "com.example.other"])
        _ = try await other.call(Method.orientationStart)
        _ = try await control.call(Method.deviceSet, ["orientation": "landscapeLeft"])
        await hub.advance(by: .seconds(1))
        _ = try await control.call(Method.permissionsSet, ["app": "com.example.maps", "status": "authorizedWhenInUse"])
        let seen = try await watcher.drainEvents().map(\.method)
        #expect(seen == [Event.authorization], "the turn went to the other app; maps only heard of its authorization")
        #expect(try await maps.drainEvents().map(\.method) == [Event.authorization])
    }
}
