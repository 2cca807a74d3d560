import NIOCore
import SextantCore
import SextantProtocol
import Testing

@_spi(Sources) @_spi(Daemon) @testable import SextantHub
@testable import SextantServer

/// The sky (RULES N8) in process: app.sock's `satellites` event, under the rules of a
/// full-accuracy location.
@Suite("Satellites: app.sock's satellites event, in process (N8)", .timeLimit(.minutes(1)))
struct SatellitesHubTests {
    static let app = "com.example.sky"

    private func subscribed(_ hub: InProcessHub, accuracy: String = "full") async throws -> (control: TestClient, app: TestClient) {
        let control = try await hub.connect(.control)
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": .string(Self.app)])
        _ = try await control.call(Method.permissionsSet, ["app": .string(Self.app), "status": "authorizedAlways", "accuracy": .string(accuracy)])
        _ = try await app.call(Method.satellitesStart)
        _ = try await app.drainEvents()
        return (control, app)
    }

    @Test("N8: after satellites.start a fix brings a satellites event with the made-up open sky; satellites.stop ends them")
    func appSocketEvent() async throws {
        let hub = try InProcessHub()
        let (_, app) = try await subscribed(hub)
        try await FanOutTests.ingestFix(hub, latitude: 48.85)
        let events = try await app.drainEvents().filter { $0.method == Event.satellites }
        #expect(events.count == 1)
        let sky = try WireSky(json: try #require(events.first).params)
        #expect(sky.sky.inView >= 20 && sky.sky.used >= 10, "\(sky.sky.inView) in view, \(sky.sky.used) used")
        #expect(sky.sky.satellites.allSatisfy { $0.problem == nil && $0.elevation! >= SkyConditions.openSky.elevationMask })
        _ = try await app.call(Method.satellitesStop)
        await hub.advance(by: .seconds(2))
        try await FanOutTests.ingestFix(hub, latitude: 48.851)
        #expect(try await app.drainEvents().filter { $0.method == Event.satellites }.isEmpty)
    }

    @Test("N8, L10: an app with reduced accuracy hears no satellites event; nor one denied (L9)")
    func reducedAndDenied() async throws {
        let hub = try InProcessHub()
        let (control, app) = try await subscribed(hub, accuracy: "reduced")
        try await FanOutTests.ingestFix(hub, latitude: 48.85)
        #expect(try await app.drainEvents().filter { $0.method == Event.satellites }.isEmpty)
        _ = try await control.call(Method.permissionsSet, ["app": .string(Self.app), "status": "denied"])
        await hub.advance(by: .seconds(2))
        try await FanOutTests.ingestFix(hub, latitude: 48.851)
        #expect(try await app.drainEvents().filter { $0.method == Event.satellites }.isEmpty)
    }

    @Test("N8: a source's own sky (a trace's sky sample) is what apps hear, and no sky is made up for it after that")
    func recordedSky() async throws {
        let hub = try InProcessHub()
        let (_, app) = try await subscribed(hub)
        let own = SkyView(satellites: [SatelliteInView(constellation: .galileo, svid: 4, elevation: 50, azimuth: 90, cn0: 41, used: true)])
        try await hub.onLoop { hub in hub.ingest(Sample(time: hub.now.wall, value: .sky(own)), from: .manual) }
        await hub.advance(by: .seconds(2))
        try await FanOutTests.ingestFix(hub, latitude: 48.85)
        let skies = try await app.drainEvents().filter { $0.method == Event.satellites }.map { try WireSky(json: $0.params).sky }
        #expect(skies == [own])
    }
}
