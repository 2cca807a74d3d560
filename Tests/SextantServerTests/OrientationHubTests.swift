import Foundation
import NIOCore
import SextantCore
import SextantProtocol
import Testing

@testable import SextantHub

/// Device orientation, interface orientation and posture, held by hand or replayed, through
/// the same judge and engines as in the daemon; in process, on virtual time. (What sextantctl
/// prints of them stays in Tests/IntegrationTests/OrientationTests.)
@Suite("Orientation and posture, in process", .timeLimit(.minutes(1)))
struct OrientationHubTests {
    /// Long enough for a turn by hand (at most π rad/s, D7: a half turn takes 1 s) and the
    /// judge's decision after it (40 ms of settling upright, 500 ms flat), in virtual time.
    static let settle = TimeAmount.seconds(2)

    /// A hub, its control connection and an app that subscribed to orientation events.
    static func setUp(
        _ configure: (inout HubConfiguration) -> Void = { _ in }
    ) async throws -> (InProcessHub, TestClient, TestClient, JSONValue) {
        let hub = try InProcessHub(configure: configure)
        let control = try await hub.connect(.control)
        let (app, hello) = try await hub.app("com.example.game", subscribe: [Method.orientationStart])
        return (hub, control, app, hello)
    }

    /// `rotate ORIENTATION`, then time for the judge.
    static func rotate(_ hub: InProcessHub, _ control: TestClient, _ orientation: String) async throws {
        try await control.rotate(orientation)
        await hub.advance(by: settle)
    }

    @Test("O6 O7 O4a: rotate by hand; the judge decides; device landscapeLeft gives interface landscapeRight")
    func rotateByHand() async throws {
        let (hub, control, app, hello) = try await Self.setUp()
        #expect(hello["deviceOrientation"] == "unknown")
        #expect(hello["interfaceOrientation"] == "portrait", "O6: unknown counts as portrait")

        try await Self.rotate(hub, control, "landscapeLeft")
        let first = try await app.settled()
        #expect(first.map(\.method) == [Event.deviceOrientation, Event.interfaceOrientation])
        #expect(first.first?.params["orientation"] == "landscapeLeft")
        #expect(first.first?.params["previous"] == "unknown", "O4: the first event's previous is unknown")
        #expect(first.last?.params["orientation"] == "landscapeRight" && first.last?.params["previous"] == "portrait")

        // O7: a 180° turn moves the interface in one step.
        try await Self.rotate(hub, control, "landscapeRight")
        let turned = try await app.settled()
        #expect(turned.map(\.method) == [Event.deviceOrientation, Event.interfaceOrientation], "\(turned)")
        #expect(turned.first?.params["orientation"] == "landscapeRight")
        #expect(turned.last?.params == ["orientation": "landscapeLeft", "previous": "landscapeRight"])
        #expect(try await control.call(Method.status)["deviceOrientation"] == "landscapeRight")
        #expect(try await control.call(Method.appsList).arrayValue?.first?["interfaceOrientation"] == "landscapeLeft")
    }

    @Test("O3 O4a: faceUp set by hand is decided after 500 ms of the held gravity, and changes no interface")
    func faceUpByHand() async throws {
        let (hub, control, app, _) = try await Self.setUp()
        try await Self.rotate(hub, control, "faceUp")
        let events = try await app.settled()
        #expect(events.map(\.method) == [Event.deviceOrientation], "no interface event: \(events.map(\.method))")
        #expect(events.first?.params["orientation"] == "faceUp")
        let decided = try #require(events.first?.params["time"]?.stringValue.flatMap { Timestamp(rfc3339: $0) })
        let start = try #require(Timestamp(rfc3339: "2026-03-01T08:00:00.000Z"))
        #expect(decided.nanoseconds - start.nanoseconds >= 500_000_000, "O3: tilt ≥ 80 on every sample of the last 500 ms")
    }

    @Test("accel X Y Z holds a reading that the judge decides from, like a sensor at rest")
    func accelByHand() async throws {
        let (hub, control, app, _) = try await Self.setUp()
        // Upside down, leaned back 20°: gravity reaction along -y and +z.
        let g = 9.80665, tilt = 20.0 * .pi / 180
        _ = try await control.call(Method.deviceSet, ["acceleration": ["x": 0, "y": .double(-g * cos(tilt)), "z": .double(g * sin(tilt))]])
        await hub.advance(by: Self.settle)
        let events = try await app.settled()
        // A phone does not show portraitUpsideDown: the interface stays where it was.
        #expect(events.map(\.method) == [Event.deviceOrientation], "\(events.map(\.method))")
        #expect(events.first?.params["orientation"] == "portraitUpsideDown")
        _ = try await control.call(Method.deviceSet, ["acceleration": .null])
        #expect(try await control.errorCode(Method.deviceSet, ["acceleration": ["x": 1, "y": 2]]) == -32602)
    }

    @Test("O8 O9a: an app that freezes its interface gets device events only; unfreezing moves it before the response")
    func interfaceLocked() async throws {
        let (hub, control, app, _) = try await Self.setUp()
        #expect(try await app.call(Method.appUpdate, ["interfaceLocked": true])["interfaceOrientation"] == "portrait")
        try await Self.rotate(hub, control, "landscapeLeft")
        #expect(try await app.settled().map(\.method) == [Event.deviceOrientation])

        let answer = try await app.call(Method.appUpdate, ["interfaceLocked": false])
        #expect(answer["interfaceOrientation"] == "landscapeRight")
        // `call` keeps the notifications read before the response: the event came first.
        #expect(try await app.drained(Event.interfaceOrientation) == [["orientation": "landscapeRight", "previous": "portrait"]], "O9a")
    }

    @Test("O9: the system rotation lock freezes every app; turning it off moves them at once")
    func rotationLock() async throws {
        let (hub, control, app, _) = try await Self.setUp()
        _ = try await control.call(Method.deviceRotationLock, ["enabled": true])
        try await Self.rotate(hub, control, "landscapeRight")
        #expect(try await app.settled().map(\.method) == [Event.deviceOrientation])

        // O9: a launch under the lock takes the device as portrait.
        let (late, lateHello) = try await hub.app("com.example.late", subscribe: [Method.orientationStart])
        #expect(lateHello["interfaceOrientation"] == "portrait")

        _ = try await control.call(Method.deviceRotationLock, ["enabled": false])
        #expect(try await app.drained(Event.interfaceOrientation) == [["orientation": "landscapeLeft", "previous": "portrait"]])
        #expect(try await late.drained(Event.interfaceOrientation).map { $0["orientation"] } == ["landscapeLeft"])
        #expect(try await control.call(Method.status)["rotationLock"] == false)
    }

    @Test("O6: a landscape-only app launches Home-right, unless the device is already in a landscape")
    func landscapeOnlyLaunch() async throws {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        let landscapes = ["landscapeLeft", "landscapeRight"]
        let (_, first) = try await hub.app("com.example.racer", orientations: landscapes, subscribe: [Method.orientationStart])
        #expect(first["interfaceOrientation"] == "landscapeRight")
        try await Self.rotate(hub, control, "landscapeRight")
        #expect(try await control.call(Method.status)["deviceOrientation"] == "landscapeRight")
        let (_, second) = try await hub.app("com.example.racer2", orientations: landscapes, subscribe: [Method.orientationStart])
        #expect(second["interfaceOrientation"] == "landscapeLeft", "device landscapeRight goes with interface landscapeLeft")
    }

    @Test("O10: dropping the current orientation from the supported set moves the app at once, as at launch")
    func supportedSetChange() async throws {
        let (hub, _, app, _) = try await Self.setUp()
        defer { withExtendedLifetime(hub) {} }  // the hub outlives its clients
        #expect(try await app.call(Method.appUpdate, ["orientations": ["landscapeLeft"]])["interfaceOrientation"] == "landscapeLeft")
        #expect(try await app.drained(Event.interfaceOrientation) == [["orientation": "landscapeLeft", "previous": "portrait"]])
        // An empty effective set is refused.
        #expect(try await app.errorCode(Method.appUpdate, ["orientations": ["portraitUpsideDown"]]) == -32602)
    }

    @Test("O11: a background app gets no interface events and jumps in one event on return")
    func backgroundApp() async throws {
        let (hub, control, app, _) = try await Self.setUp()
        _ = try await app.call(Method.appUpdate, ["state": "background"])
        try await Self.rotate(hub, control, "landscapeLeft")
        try await Self.rotate(hub, control, "landscapeRight")
        #expect(try await app.settled().map(\.method) == [Event.deviceOrientation, Event.deviceOrientation])
        #expect(try await app.call(Method.appUpdate, ["state": "foreground"])["interfaceOrientation"] == "landscapeLeft")
        #expect(try await app.drained(Event.interfaceOrientation) == [["orientation": "landscapeLeft", "previous": "portrait"]])
    }
}
