import Foundation
import NIOCore
import SextantCore
import SextantProtocol
import Testing

@testable import SextantHub
@testable import SextantServer

/// RULES O4a and the arbitration after it, in process on virtual time: a value held by
/// hand while a replay plays wins at once and for as long as it is held, whatever the
/// replay says; let go, and the replay's own readings take over again (issue 24.1).
@Suite("A value held by hand over a playing replay, in process", .timeLimit(.minutes(1)))
struct HandOverReplayTests {
    /// 20 s of a phone upright in portrait (accelerometer at 50 Hz) lying open flat
    /// (hinge at 180°, 10 Hz), on the same clock as the hub's wall time.
    static let trace = HubTimeTests.trace(
        start: "2026-03-01T08:00:00.000Z",
        (0..<1000).flatMap { index in
            let t = Double(index) / 50
            let accel = #"{"t":\#(t),"accel":{"x":0.1,"y":9.8,"z":0.2}}"#
            return index % 5 == 0 ? [accel, #"{"t":\#(t),"hinge":{"angle":180}}"#] : [accel]
        })

    /// A foldable hub replaying `trace` at speed 1 to an app that hears orientation and posture.
    static func setUp() async throws -> (InProcessHub, TestClient, TestClient) {
        let hub = try InProcessHub { $0.profile = .foldable }
        let path = try HubTimeTests.write(trace, in: hub, as: "upright.jsonl")
        let control = try await hub.connect(.control)
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": "com.example.reader"])
        _ = try await app.call(Method.orientationStart)
        _ = try await app.call(Method.postureStart)
        _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": 1])
        await hub.advance(by: .seconds(1))
        return (hub, control, app)
    }

    static func events(_ app: TestClient, _ method: String, _ key: String) async throws -> [String] {
        try await app.drainEvents().filter { $0.method == method }.compactMap { $0.params[key]?.stringValue }
    }

    @Test("issue 24.1, O4a: rotate during a replay: the hand wins at once and holds; released, the replay's portrait returns")
    func accelerometerHeldOverReplay() async throws {
        let (hub, control, app) = try await Self.setUp()
        #expect(try await Self.events(app, Event.deviceOrientation, "orientation") == ["portrait"], "the replay's own reading first")
        _ = try await control.call(Method.deviceSet, ["orientation": "landscapeLeft"])
        // D7: the hand turns the device a quarter turn in 0.5 s, then the judge settles.
        await hub.advance(by: .milliseconds(1000))
        let turned = try await app.drainEvents()
        #expect(turned.filter { $0.method == Event.deviceOrientation }.compactMap { $0.params["orientation"]?.stringValue } == ["landscapeLeft"])
        #expect(turned.filter { $0.method == Event.interfaceOrientation }.compactMap { $0.params["orientation"]?.stringValue } == ["landscapeRight"])
        // Five seconds of the replay's portrait readings: none is heard while the hand holds.
        await hub.advance(by: .seconds(5))
        #expect(try await Self.events(app, Event.deviceOrientation, "orientation").isEmpty)
        #expect(try await control.call(Method.status)["deviceOrientation"] == "landscapeLeft")
        _ = try await control.call(Method.deviceSet, ["acceleration": .null])
        await hub.advance(by: .milliseconds(500))
        #expect(try await Self.events(app, Event.deviceOrientation, "orientation") == ["portrait"], "the replay takes over")
    }

    @Test("issue 24.1, P1–P4: the hinge by hand during a replay holds until released; then the replay's flat returns")
    func hingeHeldOverReplay() async throws {
        let (hub, control, app) = try await Self.setUp()
        #expect(try await Self.events(app, Event.posture, "state") == ["flat"])
        _ = try await control.call(Method.deviceSet, ["hingeAngle": 90])
        await hub.advance(by: .milliseconds(100))
        #expect(try await Self.events(app, Event.posture, "state") == ["halfOpened"], "at once")
        await hub.advance(by: .seconds(5))
        #expect(try await Self.events(app, Event.posture, "state").isEmpty, "the replay's 180° is not heard while held")
        #expect(try await control.call(Method.status)["posture"]?["state"] == "halfOpened")
        _ = try await control.call(Method.deviceSet, ["hingeAngle": .null])
        await hub.advance(by: .milliseconds(200))
        #expect(try await Self.events(app, Event.posture, "state") == ["flat"], "the replay takes over")
    }

    @Test("O4a: a replay started after a value was held takes over at its first reading of the kind")
    func laterReplayEndsAnOlderHold() async throws {
        let hub = try InProcessHub()
        let path = try HubTimeTests.write(Self.trace, in: hub, as: "upright.jsonl")
        let control = try await hub.connect(.control)
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": "com.example.reader"])
        _ = try await app.call(Method.orientationStart)
        _ = try await control.call(Method.deviceSet, ["orientation": "landscapeLeft"])
        await hub.advance(by: .milliseconds(500))
        #expect(try await Self.events(app, Event.deviceOrientation, "orientation") == ["landscapeLeft"])
        _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": 1])
        await hub.advance(by: .seconds(1))
        #expect(try await Self.events(app, Event.deviceOrientation, "orientation") == ["portrait"])
    }
}
