import Foundation
import NIOCore
import SextantProtocol
import Testing

@testable import SextantHub
@testable import SextantServer

/// The same trace gives the same `region` events with the same times at every replay
/// speed, paused and stepped or not (RULES R7): the engine reads only the fixes' times.
@Suite("Regions in replay: the same events at every speed", .timeLimit(.minutes(1)))
struct RegionReplayTests {
    /// Traces/shop-walk.jsonl: a walk through a shop's region, a wait, jumps in, out and across.
    static let trace = #filePath.components(separatedBy: "/Tests/")[0] + "/Traces/shop-walk.jsonl"
    static let shop: JSONValue = ["identifier": "shop", "lat": 48.8566, "lon": 2.3522, "radius": 50, "loiteringDelay": 30]

    /// What the walk decides (R1, R2, R5, R6), worked out by hand from the trace.
    static let expected = [
        "enter 08:01:51", "dwell 08:02:21", "exit 08:03:17", "enter 08:05:30", "dwell 08:06:00", "exit 08:06:40",
        "enter 08:06:50", "exit 08:06:50",
    ]

    /// A hub whose app monitors the shop, replaying the walk at `speed`.
    static func start(speed: JSONValue) async throws -> (InProcessHub, TestClient, TestClient) {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": "com.example.shop"])
        _ = try await control.call(Method.permissionsSet, ["app": "com.example.shop", "status": "authorizedAlways"])
        _ = try await app.call(Method.regionMonitor, shop)
        _ = try await control.call(Method.replayStart, ["path": .string(trace), "speed": speed])
        return (hub, control, app)
    }

    /// Steps the virtual clock until the replay has finished (a bounded number of steps).
    static func playToTheEnd(_ hub: InProcessHub, _ control: TestClient, step: TimeAmount) async throws {
        for _ in 0..<2000 {
            if try await control.call(Method.replayStatus)["state"] == "finished" { return }
            await hub.advance(by: step)
        }
        throw TestFailure("the replay did not finish")
    }

    static func heard(_ app: TestClient) async throws -> [String] {
        try await app.drainEvents().filter { $0.method == Event.region }.map { event in
            let time = event.params["time"]?.stringValue ?? "?"
            return "\(event.params["transition"]?.stringValue ?? "?") \(time.dropFirst(11).prefix(8))"
        }
    }

    @Test("R7: at 1× and at max the walk gives the same region events with the same trace times")
    func sameEventsAtOneAndMax() async throws {
        let (slowHub, slowControl, slowApp) = try await Self.start(speed: 1)
        try await Self.playToTheEnd(slowHub, slowControl, step: .seconds(1))
        let atOne = try await Self.heard(slowApp)
        let (fastHub, fastControl, fastApp) = try await Self.start(speed: "max")
        try await Self.playToTheEnd(fastHub, fastControl, step: .milliseconds(1))
        let atMax = try await Self.heard(fastApp)
        withExtendedLifetime((slowHub, fastHub)) {}
        #expect(atOne == Self.expected)
        #expect(atMax == atOne)
    }

    @Test("R7: paused for a long while, stepped fix by fix, resumed: the same events and times")
    func sameEventsAcrossPauseStepAndSeek() async throws {
        let (hub, control, app) = try await Self.start(speed: 4)
        await hub.advance(by: .seconds(30))
        _ = try await control.call(Method.replayPause)
        await hub.advance(by: .seconds(600))
        for _ in 0..<30 { _ = try await control.call(Method.replayStep, ["count": 3]) }
        _ = try await control.call(Method.replayResume)
        try await Self.playToTheEnd(hub, control, step: .milliseconds(250))
        #expect(try await Self.heard(app) == Self.expected)
        withExtendedLifetime(hub) {}
    }
}
