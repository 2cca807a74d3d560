import Foundation
import SextantCore
import SextantProtocol
import Testing

/// The hinge by hand, and a replayed turn at three speeds, in process on virtual time.
@Suite("Posture and a replayed turn, in process", .timeLimit(.minutes(1)))
struct PostureAndReplayedTurnHubTests {
    static func hinge(_ hub: InProcessHub, _ control: TestClient, _ angle: Double) async throws {
        _ = try await control.call(Method.deviceSet, ["hingeAngle": .double(angle)])
        await hub.advance(by: OrientationHubTests.settle)
    }

    @Test("P1–P4: the hinge by hand on a foldable: first decision with previous null, hysteresis, fold direction")
    func postureByHand() async throws {
        let (hub, control, app, hello) = try await OrientationHubTests.setUp { $0.profile = .foldable }
        #expect(hello["posture"] == .null)
        _ = try await app.call(Method.postureStart)

        try await Self.hinge(hub, control, 90)
        let first = try #require(try await app.drained(Event.posture).first)
        #expect(first["state"] == "halfOpened" && first["previous"] == .null && first["fold"] == "vertical")
        #expect(first["hingeAngle"]?.doubleValue == 90)

        try await Self.hinge(hub, control, 140)
        try await Self.hinge(hub, control, 150)
        let flat = try await app.drained(Event.posture)
        #expect(flat.count == 1 && flat.first?["state"] == "flat" && flat.first?["previous"] == "halfOpened")
        #expect(flat.first?["hingeAngle"]?.doubleValue == 150)

        // P3: flat holds down to 125; below it is halfOpened again. P4: in a landscape the fold is horizontal.
        try await OrientationHubTests.rotate(hub, control, "landscapeLeft")
        try await Self.hinge(hub, control, 126)
        #expect(try await app.drained(Event.posture).isEmpty)
        try await Self.hinge(hub, control, 124)
        let half = try await app.drained(Event.posture)
        #expect(half.count == 1 && half.first?["state"] == "halfOpened" && half.first?["fold"] == "horizontal")
        #expect(try await control.call(Method.status)["posture"]?["state"] == "halfOpened")
        #expect(try await control.errorCode(Method.deviceSet, ["hingeAngle": 181]) == -32602)
    }

    @Test("P4: a device without a hinge reports no posture")
    func noHingeNoPosture() async throws {
        let (hub, control, _, hello) = try await OrientationHubTests.setUp()
        defer { withExtendedLifetime(hub) {} }  // the hub outlives its clients
        #expect(hello["posture"] == .null)
        #expect(try await control.call(Method.status)["posture"] == .null)
    }

    /// A trace that holds the device upright in portrait, turns it to landscapeLeft over
    /// 0.4 s, then lays it flat face up: accelerometer at 100 Hz, times from the trace.
    static func turningTrace() -> String {
        let g = 9.80665
        var lines = [#"{"sextant":"trace","version":1,"start":"2026-03-01T08:00:00.000Z"}"#]
        func add(_ t: Double, _ x: Double, _ y: Double, _ z: Double) {
            lines.append(String(format: #"{"t":%.2f,"accel":{"x":%.5f,"y":%.5f,"z":%.5f}}"#, t, x, y, z))
        }
        for i in 0..<100 { add(Double(i) / 100, 0, g, 0) }
        for i in 0..<40 {  // gravity reaction turns from +y to +x
            let a = Double(i + 1) / 40 * .pi / 2
            add(1 + Double(i) / 100, g * sin(a), g * cos(a), 0)
        }
        for i in 0..<200 { add(1.4 + Double(i) / 100, g, 0, 0) }
        for i in 0..<200 { add(3.4 + Double(i) / 100, 0, 0, g) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The device orientation events of the whole turning trace replayed at `speed`.
    static func replayedOrientation(speed: JSONValue) async throws -> [JSONValue] {
        let (hub, control, app, _) = try await OrientationHubTests.setUp()
        let path = try HubTimeTests.write(turningTrace(), in: hub, as: "turn.jsonl")
        _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": speed])
        await hub.advance(by: .seconds(7))  // the trace's 5.4 s at 1×, with room
        #expect(try await control.call(Method.replayStatus)["state"] == "finished")
        return try await app.drained(Event.deviceOrientation)
    }

    @Test("O5: a replayed turn gives the same device events, with the trace's times, at max, 37× and 1×")
    func replayDeterminism() async throws {
        let atMax = try await Self.replayedOrientation(speed: "max")
        #expect(atMax.map { $0["orientation"] } == ["portrait", "landscapeLeft", "faceUp"])
        #expect(atMax.map { $0["previous"] } == ["unknown", "portrait", "landscapeLeft"])
        // Every decision is stamped with a sample's own time from the trace.
        let start = try #require(Timestamp(rfc3339: "2026-03-01T08:00:00.000Z")).nanoseconds
        for event in atMax {
            let time = try #require(event["time"]?.stringValue.flatMap { Timestamp(rfc3339: $0) })
            #expect((time.nanoseconds - start) % 10_000_000 == 0)
        }
        #expect(try await Self.replayedOrientation(speed: 37) == atMax)
        #expect(try await Self.replayedOrientation(speed: 1) == atMax)
    }
}
