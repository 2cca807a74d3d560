import Foundation
import NIOCore
import SextantCore
import SextantProtocol
import Testing

@testable import SextantHub
@testable import SextantServer

/// RULES T1, in process on virtual time: a replay started with `startOnRequest` waits,
/// paused at its start, for the first location request any face accepts, or a resume
/// (issue 24.2).
@Suite("A trace that waits for the first location request, in process", .timeLimit(.minutes(1)))
struct ReplayStartOnRequestTests {
    /// A hub with the walk of ReplayControlTests loaded at `max`, waiting for a request.
    static func waitingHub() async throws -> (InProcessHub, TestClient) {
        let hub = try InProcessHub()
        let path = try HubTimeTests.write(ReplayControlTests.walk, in: hub, as: "walk.jsonl")
        let control = try await hub.connect(.control)
        _ = try await control.call(Method.permissionsSet, ["app": "com.example.maps", "status": "authorizedAlways"])
        _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": "max", "startOnRequest": true])
        await hub.advance(by: .seconds(60))
        let status = try await control.call(Method.replayStatus)
        #expect(status["state"] == "paused" && status["events"] == 0 && status["waitingForRequest"] == true, "\(status)")
        return (hub, control)
    }

    @Test("issue 24.2, T1: location.start starts it; the app gets every fix from the first, after the start's answer")
    func locationStartStartsIt() async throws {
        let (hub, control) = try await Self.waitingHub()
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": "com.example.maps"])
        let started = try await app.request(Method.locationStart)
        #expect(started["result"] == [:])
        #expect(app.events.isEmpty, "no fix before the answer")
        await hub.advance(by: .milliseconds(10))
        let lats = try await app.drainEvents().filter { $0.method == Event.location }.compactMap { $0.params["lat"]?.doubleValue }
        #expect(lats == (0..<10).map { 48.0 + Double($0) / 100 })
        #expect(try await control.call(Method.replayStatus)["state"] == "finished")
    }

    @Test("T1: location.once starts it and is answered with the trace's first fix")
    func locationOnceStartsIt() async throws {
        let (hub, _) = try await Self.waitingHub()
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": "com.example.maps"])
        try await app.send(#"{"jsonrpc":"2.0","id":7,"method":"location.once"}"#)
        await hub.advance(by: .milliseconds(10))
        let answer = try await app.response(to: 7)
        #expect(answer["result"]?["lat"]?.doubleValue == 48.0, "\(answer)")
    }

    @Test("T1: a gpsd client's ?WATCH starts it; replay.resume does too, and a resumed replay waits no more")
    func gpsdWatchAndResume() async throws {
        let (hub, control) = try await Self.waitingHub()
        let gpsd = try await hub.connectGPSD()
        try await gpsd.send(#"?WATCH={"enable":true,"json":true}"#)
        await hub.advance(by: .milliseconds(10))
        #expect(try await control.call(Method.replayStatus)["state"] == "finished")

        let (other, otherControl) = try await Self.waitingHub()
        let resumed = try await otherControl.call(Method.replayResume)
        #expect(resumed["state"] != "paused" && resumed["waitingForRequest"] == nil, "\(resumed)")
        await other.advance(by: .milliseconds(10))
        #expect(try await otherControl.call(Method.replayStatus)["state"] == "finished")
    }
}
