import NIOCore
import SextantCore
import SextantProtocol
import Testing

@testable import SextantHub
@testable import SextantServer

/// The iOS upgrade prompt through app.sock and control.sock, in process (docs/platforms.md
/// I3, I4): a region event in the background for an app with provisional Always.
@Suite("iOS upgrade prompt, in process", .timeLimit(.minutes(1)))
struct IOSUpgradeHubTests {
    static let app = "com.example.shop"
    static let shop: JSONValue = ["identifier": "shop", "lat": 48.0, "lon": 2.0, "radius": 100]

    struct Setting {
        let hub: InProcessHub
        let control: TestClient
        let app: TestClient
    }

    /// The app with provisional Always monitoring the shop from outside it, then sent to
    /// the background past the grace; the control client watches prompts.
    static func provisionalInBackground() async throws -> Setting {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": .string(Self.app)])
        let set = try await control.call(Method.permissionsSet, ["app": .string(Self.app), "status": "authorizedAlways", "provisional": true])
        #expect(set["provisional"] == true && set["settings"] == "While Using")
        _ = try await app.call(Method.regionMonitor, Self.shop)
        _ = try await control.call(Method.deviceSet, ["location": ["lat": 48.01, "lon": 2.0, "hAcc": 5]])
        _ = try await control.call(Method.appsUpdate, ["app": .string(Self.app), "state": "background"])
        await hub.advance(by: .seconds(11))  // past the grace of 10 s: not in use (I8)
        _ = try await control.call(Method.watch, ["topics": ["prompt"]])
        _ = try await app.drainEvents()
        _ = try await control.drainEvents()
        return Setting(hub: hub, control: control, app: app)
    }

    /// Enters the shop: the region event that needs Always in the background.
    static func enter(_ setting: Setting) async throws -> JSONValue {
        _ = try await setting.control.call(Method.deviceSet, ["location": ["lat": 48.0, "lon": 2.0, "hAcc": 5]])
        let prompts = try await setting.control.drainEvents().filter { $0.method == Event.prompt }.map(\.params)
        #expect(prompts.count == 1 && prompts.first?["kind"] == "alwaysUpgrade" && prompts.first?["level"] == "always", "\(prompts)")
        #expect(try await setting.app.drainEvents().isEmpty, "the entry is held while the prompt is open")
        return try #require(prompts.first)
    }

    @Test("I3, I4: a region entry in the background raises the upgrade prompt; Keep sends authorizedWhenInUse and drops the entry")
    func testI4_keepDropsHeldRegionEvent() async throws {
        let setting = try await Self.provisionalInBackground()
        defer { withExtendedLifetime(setting) {} }
        let prompt = try await Self.enter(setting)
        _ = try await setting.control.call(Method.promptsAnswer, ["id": prompt["id"]!, "choice": "keepWhileUsing"])
        let events = try await setting.app.drainEvents()
        #expect(events.map(\.method) == [Event.authorization], "\(events)")
        #expect(events.first?.params["status"] == "authorizedWhenInUse")
        let list = try await setting.control.call(Method.permissionsList).arrayValue ?? []
        #expect(list.first?["status"] == "authorizedWhenInUse" && list.first?["provisional"] == nil && list.first?["alwaysAsked"] == true, "\(list)")
    }

    @Test("I3, I4: Change to Always delivers the held entry and no authorization event; a second entry raises no second prompt")
    func testI4_changeToAlwaysDeliversHeldRegionEvent() async throws {
        let setting = try await Self.provisionalInBackground()
        defer { withExtendedLifetime(setting) {} }
        let prompt = try await Self.enter(setting)
        _ = try await setting.control.call(Method.promptsAnswer, ["id": prompt["id"]!, "choice": "changeToAlways"])
        let events = try await setting.app.drainEvents()
        #expect(events.map(\.method) == [Event.region], "\(events)")
        #expect(events.first?.params["transition"] == "enter")
        _ = try await setting.control.call(Method.deviceSet, ["location": ["lat": 48.01, "lon": 2.0, "hAcc": 5]])
        #expect(try await setting.app.drainEvents().map(\.method) == [Event.region], "the exit goes straight out")
        #expect(try await setting.control.drainEvents().filter { $0.method == Event.prompt }.isEmpty)
    }

    @Test("I4: an entry held longer than 300 s is dropped even on Change to Always")
    func testI4_staleHeldEventDropped() async throws {
        let setting = try await Self.provisionalInBackground()
        defer { withExtendedLifetime(setting) {} }
        let prompt = try await Self.enter(setting)
        await setting.hub.advance(by: .seconds(301))
        _ = try await setting.control.call(Method.promptsAnswer, ["id": prompt["id"]!, "choice": "changeToAlways"])
        #expect(try await setting.app.drainEvents().isEmpty)
    }

    @Test("I3: in the foreground the entry goes straight out and no prompt opens")
    func testI3_foregroundNeedsNoUpgrade() async throws {
        let setting = try await Self.provisionalInBackground()
        defer { withExtendedLifetime(setting) {} }
        _ = try await setting.control.call(Method.appsUpdate, ["app": .string(Self.app), "state": "foreground"])
        _ = try await setting.control.call(Method.deviceSet, ["location": ["lat": 48.0, "lon": 2.0, "hAcc": 5]])
        #expect(try await setting.app.drainEvents().map(\.method).contains(Event.region))
        #expect(try await setting.control.drainEvents().filter { $0.method == Event.prompt }.isEmpty)
    }
}

/// I12 through app.sock: told why at `location.start`.
@Suite("iOS background mode, in process", .timeLimit(.minutes(1)))
struct IOSBackgroundModeHubTests {
    @Test("I12: location.start from the background without the location mode fails with 1001 saying why; with it, it streams")
    func testI12_startFromBackgroundToldWhy() async throws {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        _ = try await control.call(Method.permissionsSet, ["app": "com.example.run", "status": "authorizedAlways"])
        let without = try await hub.connect(.app)
        _ = try await without.call(Method.hello, ["app": "com.example.run", "state": "background", "backgroundModes": ["fetch"]])
        let refused = try await without.request(Method.locationStart)
        #expect(refused["error"]?["code"] == 1001 && refused["error"]?["message"]?.stringValue?.contains("background mode") == true, "\(refused)")
        let with = try await hub.connect(.app)
        _ = try await with.call(Method.hello, ["app": "com.example.run", "state": "background", "backgroundModes": ["location"]])
        _ = try await with.call(Method.locationStart)
        _ = try await control.call(Method.deviceSet, ["location": ["lat": 48.0, "lon": 2.0, "hAcc": 5]])
        #expect(try await with.drainEvents().contains { $0.method == Event.location })
        #expect(try await without.drainEvents().isEmpty)
        withExtendedLifetime(hub) {}
    }
}
