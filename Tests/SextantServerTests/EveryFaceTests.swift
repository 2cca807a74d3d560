import NIOCore
import SextantCore
import SextantProtocol
import Testing

@testable import SextantGPSDFace
@testable import SextantHub
@testable import SextantServer

/// An event kind is decided once and encoded by each face that speaks it, in process, on
/// app.sock and the gpsd face side by side (``InProcessHub``).
@Suite("Every face, in process", .timeLimit(.minutes(1)))
struct EveryFaceTests {
    /// A location-derived event kind no face but JSON-RPC speaks, as a future one (a
    /// geofence's enter or exit) would be before a face learns it.
    struct RegionProbe: AppEventKind {
        static var topic: AppTopic { .location }
        static var isLocationDerived: Bool { true }
        var outboundKind: OutboundKind { .essential }
        var method: String { "regionProbe" }
        var params: JSONValue { ["region": "home"] }
    }

    /// An app on app.sock streaming, and a gpsd client watching, both authorized always.
    private func streamingOnBothFaces(_ hub: InProcessHub) async throws -> (control: TestClient, app: TestClient, gpsd: GPSDTestClient) {
        let control = try await hub.connect(.control)
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": "com.example.both"])
        for id in ["com.example.both", GPSDPeer.unknownApp] {
            _ = try await control.call(Method.permissionsSet, ["app": .string(id), "status": "authorizedAlways"])
        }
        _ = try await app.call(Method.locationStart)
        let gpsd = try await hub.connectGPSD()
        try await gpsd.send(#"?WATCH={"enable":true,"json":true}"#)
        #expect(try await gpsd.nextReport(ofClass: "WATCH")["enable"] == true)
        _ = try await app.drainEvents()
        _ = try await gpsd.drainReports()
        return (control, app, gpsd)
    }

    private func publishToEverySession(_ hub: InProcessHub, _ event: @escaping @Sendable () -> any AppEventKind) async throws {
        try await hub.onLoop { hub in
            for session in hub.sessions.ordered { hub.publish(to: session, event()) }
        }
    }

    @Test("A fix reaches app.sock as a location event and the gpsd face as a TPV; an event kind the gpsd face does not speak is ignored there")
    func oneFixEveryFace() async throws {
        let hub = try InProcessHub()
        let (_, app, gpsd) = try await streamingOnBothFaces(hub)

        try await FanOutTests.ingestFix(hub, latitude: 48.85)
        #expect(try await app.nextMessage()["params"]?["lat"] == 48.85)
        let tpv = try await gpsd.nextReport(ofClass: "TPV")
        #expect(tpv["lat"] == 48.85)

        try await publishToEverySession(hub) { RegionProbe() }
        let probe = try await app.nextMessage()
        #expect(probe["method"] == "regionProbe" && probe["params"]?["region"] == "home")
        #expect(try await gpsd.drainReports().isEmpty, "gpsd has no report for the probe's kind")
    }

    @Test("L9: after a revoke, no location-derived event of any kind reaches the app, on app.sock or the gpsd face")
    func revokeStopsEveryLocationDerivedKindOnEveryFace() async throws {
        let hub = try InProcessHub()
        let (control, app, gpsd) = try await streamingOnBothFaces(hub)

        for id in ["com.example.both", GPSDPeer.unknownApp] {
            _ = try await control.call(Method.permissionsSet, ["app": .string(id), "status": "denied"])
        }
        try await publishToEverySession(hub) { RegionProbe() }
        try await FanOutTests.ingestFix(hub, latitude: 48.86)

        let appEvents = try await app.drainEvents().map(\.method)
        #expect(appEvents == ["authorization"], "only the decision itself: \(appEvents)")
        let reports = try await gpsd.drainReports()
        #expect(!reports.isEmpty && reports.allSatisfy { $0["class"] == "TPV" && $0["mode"] == 1 }, "only no-fix TPVs: \(reports)")
    }

    @Test("R11: a region crossing reaches app.sock as a region event; the gpsd face, which has no report for it, writes only its TPVs")
    func regionEventEveryFace() async throws {
        let hub = try InProcessHub()
        let (control, app, gpsd) = try await streamingOnBothFaces(hub)
        for id in ["com.example.both", GPSDPeer.unknownApp] {
            _ = try await control.call(Method.regionsAdd, ["app": .string(id), "identifier": "home", "lat": 48.0, "lon": 2.29, "radius": 100])
        }
        try await FanOutTests.ingestFix(hub, latitude: 48.01)
        try await FanOutTests.ingestFix(hub, latitude: 48.0)
        let regionEvents = try await app.drainEvents().filter { $0.method == Event.region }
        #expect(regionEvents.map { $0.params["transition"] } == ["enter"])
        // Beside its TPVs, the gpsd face's SKY (N8, G6), which it speaks.
        let reports = try await gpsd.drainReports().filter { $0["class"] != "SKY" }
        #expect(reports.count == 2 && reports.allSatisfy { $0["class"] == "TPV" }, "\(reports)")
    }

    @Test("A session hears orientation events only while subscribed to their topic")
    func topicSubscription() async throws {
        let hub = try InProcessHub()
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": "com.example.topics"])
        let change = DeviceOrientationChange(previous: .portrait, orientation: .landscapeLeft, time: Timestamp(nanoseconds: 0))

        try await publishToEverySession(hub) { DeviceOrientationEvent(change: change) }
        #expect(try await app.drainEvents().isEmpty)
        _ = try await app.call(Method.orientationStart)
        try await publishToEverySession(hub) { DeviceOrientationEvent(change: change) }
        #expect(try await app.drainEvents().map(\.method) == [Event.deviceOrientation])
        _ = try await app.call(Method.orientationStop)
        try await publishToEverySession(hub) { DeviceOrientationEvent(change: change) }
        #expect(try await app.drainEvents().isEmpty)
    }
}
