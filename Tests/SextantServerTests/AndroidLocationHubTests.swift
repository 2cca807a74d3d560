import Foundation
import NIOCore
import SextantCore
import SextantProtocol
import Testing

@testable import SextantHub
@testable import SextantServer

/// `location.start` under `--platform android` through app.sock, in process on virtual time:
/// the fused provider's rules (docs/platforms.md AN25–AN34) and AOSP's fudger (AN20–AN24)
/// instead of the iOS stream and grid.
@Suite("Android location delivery in the hub (AN20–AN34)", .timeLimit(.minutes(2)))
struct AndroidLocationHubTests {
    static let metresPerDegree = Geo.earthRadius * .pi / 180

    /// A walk north at 1.4 m/s, one fix a second for 1300 s, with altitude and speed.
    static let walk: String = {
        let lines = (0..<1300).map { t in
            #"{"t":\#(t),"location":{"lat":\#(48 + 1.4 * Double(t) / metresPerDegree),"lon":2.3,"hAcc":5,"alt":35,"speed":1.4,"course":0}}"#
        }
        return HubTimeTests.trace(start: "2026-03-01T08:00:00.000Z", lines)
    }()

    static func second(_ value: JSONValue?) -> Int? {
        guard let text = value?.stringValue, let time = Timestamp(rfc3339: text) else { return nil }
        return Int((time.nanoseconds - Timestamp(rfc3339: "2026-03-01T08:00:00.000Z")!.nanoseconds) / 1_000_000_000)
    }

    /// An Android hub with the walk on disk and one app authorized always at `accuracy`.
    static func setUp(accuracy: String) async throws -> (InProcessHub, TestClient, TestClient, String) {
        let hub = try InProcessHub { $0.platform = .android(api: 34) }
        let path = try HubTimeTests.write(walk, in: hub, as: "walk.jsonl")
        let control = try await hub.connect(.control)
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": "com.example.walk", "state": "foreground"])
        _ = try await control.call(Method.permissionsSet, ["app": "com.example.walk", "status": "authorizedAlways", "accuracy": .string(accuracy)])
        _ = try await app.drainEvents()
        return (hub, control, app, path)
    }

    static func play(_ hub: InProcessHub, _ control: TestClient, _ path: String) async throws {
        _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": "max"])
        await hub.advance(by: .seconds(1400))
    }

    @Test("AN20–AN25: an approximate app asking every second gets AOSP's coarse fix every 10 min, without altitude or speed")
    func an25CoarseEveryTenMinutes() async throws {
        let (hub, control, app, path) = try await Self.setUp(accuracy: "reduced")
        _ = try await app.call(Method.locationStart, ["priority": "highAccuracy", "intervalMillis": 1000])
        try await Self.play(hub, control, path)
        let fixes = try await app.drainEvents().filter { $0.method == Event.location }.map(\.params)
        #expect(fixes.map { Self.second($0["time"]) } == [0, 600, 1200])
        for fix in fixes {
            #expect(fix["accuracy"] == "reduced" && fix["hAcc"]?.doubleValue == 2000)
            #expect(fix["alt"] == nil && fix["speed"] == nil && fix["course"] == nil)
            // AN21: on AOSP's grid of 2000/111000° (iOS's L10 grid uses other steps).
            let steps = (fix["lat"]?.doubleValue ?? 0) / (2000.0 / 111_000)
            #expect(abs(steps - steps.rounded()) < 1e-6)
        }
    }

    @Test("AN30: maxUpdateDelayMillis 5000 over 1 s delivers one `locations` event of six fixes every 6 s")
    func an30BatchAsOneEvent() async throws {
        let (hub, control, app, path) = try await Self.setUp(accuracy: "full")
        _ = try await app.call(Method.locationStart, ["intervalMillis": 1000, "maxUpdateDelayMillis": 5000, "maxUpdates": 3])
        try await Self.play(hub, control, path)
        let events = try await app.drainEvents().filter { $0.method == Event.location || $0.method == Event.locations }
        #expect(events.map(\.method) == [Event.locations, Event.locations, Event.locations])
        let first = events.first?.params["locations"]?.arrayValue ?? []
        #expect(first.map { Self.second($0["time"]) } == [0, 1, 2, 3, 4, 5])
        #expect(first.allSatisfy { $0["accuracy"] == "full" && $0["alt"]?.doubleValue == 35 })
        let decoded = try SextantEvent(method: Event.locations, params: events[0].params)
        guard case .locations(let wire) = decoded else { Issue.record("not a locations event"); return }
        #expect(wire.count == 6)
    }

    @Test("AN28: in the background, an app authorized always is served once every 30 min")
    func an28BackgroundThrottle() async throws {
        let (hub, control, app, path) = try await Self.setUp(accuracy: "full")
        _ = try await app.call(Method.locationStart, ["intervalMillis": 1000])
        _ = try await control.call(Method.appsUpdate, ["app": "com.example.walk", "state": "background"])
        try await Self.play(hub, control, path)
        let fixes = try await app.drainEvents().filter { $0.method == Event.location }
        #expect(fixes.map { Self.second($0.params["time"]) } == [0])
    }

    @Test("AN34: a bad request is refused naming the parameter; the daemon stays up")
    func an34BadRequests() async throws {
        let (hub, _, app, _) = try await Self.setUp(accuracy: "full")
        #expect(try await app.errorCode(Method.locationStart, ["priority": "passive", "intervalMillis": 1000]) == RPCErrorCode.invalidParams.rawValue)
        #expect(try await app.errorCode(Method.locationStart, ["priority": "fastest"]) == RPCErrorCode.invalidParams.rawValue)
        #expect(try await app.errorCode(Method.locationStart, ["intervalMillis": 1.5]) == RPCErrorCode.invalidParams.rawValue)
        #expect(try await app.errorCode(Method.locationStart, ["maxUpdates": 0]) == RPCErrorCode.invalidParams.rawValue)
        _ = try await app.call(Method.locationStart, ["intervalMillis": 1000])
        withExtendedLifetime(hub) {}
    }

    @Test("AN32, AN13: a While-using app in the background hears every fix while the location foreground service it started when visible runs, and none without it")
    func an32ForegroundServiceKeepsWhileUsing() async throws {
        for service in [true, false] {
            let (hub, control, app, path) = try await Self.setUp(accuracy: "full")
            _ = try await control.call(Method.permissionsSet, ["app": "com.example.walk", "grants": ["coarse", "fine"]])
            _ = try await app.call(Method.locationStart, ["intervalMillis": 1000])
            if service { _ = try await app.call(Method.appUpdate, ["foregroundService": "location"]) }
            _ = try await control.call(Method.appsUpdate, ["app": "com.example.walk", "state": "background"])
            _ = try await app.drainEvents()
            try await Self.play(hub, control, path)
            let seconds = try await app.drainEvents().filter { $0.method == Event.location }.compactMap { Self.second($0.params["time"]) }
            if service {
                #expect(seconds == Array(0..<1300), "every fix, as to a visible app: \(seconds.prefix(5))… (\(seconds.count))")
            } else {
                #expect(seconds.isEmpty, "AN32: a foreground-only grant in the background hears nothing: \(seconds.prefix(5))")
            }
        }
    }
}

