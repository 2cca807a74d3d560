import NIOCore
import SextantCore
import SextantProtocol
import Testing

@testable import SextantHub
@testable import SextantServer

/// Regions through app.sock, in process: the methods, the `region` event from fixes of any
/// source, and the authorization rules that gate it (RULES R1–R10, L9).
@Suite("Regions on app.sock, in process", .timeLimit(.minutes(1)))
struct RegionHubTests {
    static let app = "com.example.shop"
    static let shop: JSONValue = ["identifier": "shop", "lat": 48.0, "lon": 2.0, "radius": 100]

    /// A hub, its control client, and the app, authorized as asked. The hub is held with the
    /// clients: a test that drops it while its clients live would use a freed hub.
    struct Setting {
        let hub: InProcessHub
        let control: TestClient
        let app: TestClient
    }

    static func setUp(status: String = "authorizedAlways", accuracy: String = "full") async throws -> Setting {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": .string(Self.app)])
        _ = try await control.call(Method.permissionsSet, ["app": .string(Self.app), "status": .string(status), "accuracy": .string(accuracy)])
        return Setting(hub: hub, control: control, app: app)
    }

    /// A fix by hand at `lat`, 2.0, ±5 m.
    static func fix(_ control: TestClient, _ lat: Double, hAcc: Double = 5) async throws {
        _ = try await control.call(Method.deviceSet, ["location": ["lat": .double(lat), "lon": 2.0, "hAcc": .double(hAcc)]])
    }

    static func regionEvents(_ client: TestClient) async throws -> [JSONValue] {
        try await client.drainEvents().filter { $0.method == Event.region }.map(\.params)
    }

    @Test("R1, R2, R4, R7: entry and exit from hand-set fixes, with the fix's time and no coordinates; the first fix is a state")
    func enterAndExit() async throws {
        let setting = try await Self.setUp()
        let (hub, control, app) = (setting.hub, setting.control, setting.app)
        defer { withExtendedLifetime(setting) {} }
        _ = try await app.call(Method.regionMonitor, Self.shop)
        try await Self.fix(control, 48.0)
        #expect(try await Self.regionEvents(app).isEmpty, "R4: registering inside is no entry")
        #expect(try await app.call(Method.regionState, ["identifier": "shop"]) == ["state": "inside"])
        await hub.advance(by: .seconds(3))
        try await Self.fix(control, 48.01)
        await hub.advance(by: .seconds(4))
        try await Self.fix(control, 48.0005)
        let events = try await Self.regionEvents(app)
        #expect(events.map { $0["transition"] } == ["exit", "enter"])
        #expect(events.map { $0["time"] } == ["2026-03-01T08:00:03.000Z", "2026-03-01T08:00:07.000Z"])
        #expect(events.first.map { Set($0.objectValue!.keys) } == ["identifier", "transition", "state", "time"])
        #expect(events.map { $0["state"] } == ["outside", "inside"])
    }

    @Test("R5: a jump across the region by hand gives its entry and exit, in order")
    func teleportCrosses() async throws {
        let setting = try await Self.setUp()
        let (control, app) = (setting.control, setting.app)
        defer { withExtendedLifetime(setting) {} }
        _ = try await app.call(Method.regionMonitor, Self.shop)
        try await Self.fix(control, 48.01)
        try await Self.fix(control, 47.99)
        #expect(try await Self.regionEvents(app).map { $0["transition"] } == ["enter", "exit"])
    }

    @Test("R8: list, replace by identifier, stop; the 21st region is refused with 1011; bounds named with -32602")
    func listReplaceStopAndLimits() async throws {
        let setting = try await Self.setUp()
        let app = setting.app
        defer { withExtendedLifetime(setting) {} }
        for n in 0..<20 {
            _ = try await app.call(Method.regionMonitor, ["identifier": .string("r\(n)"), "lat": 48.0, "lon": 2.0, "radius": 50])
        }
        let refused = try await app.request(Method.regionMonitor, ["identifier": "r20", "lat": 48.0, "lon": 2.0, "radius": 50])
        #expect(refused["error"]?["code"] == 1011)
        #expect(refused["error"]?["message"]?.stringValue?.contains("at most 20 regions") == true)
        _ = try await app.call(Method.regionMonitor, ["identifier": "r3", "lat": 48.0, "lon": 2.0, "radius": 500, "loiteringDelay": 60])
        let list = try await app.call(Method.regionList)["regions"]?.arrayValue ?? []
        #expect(list.count == 20)
        #expect(list[3]["radius"] == 500 && list[3]["loiteringDelay"] == 60 && list[3]["state"] == "unknown")
        #expect(try await app.call(Method.regionStop, ["identifier": "r3"]) == ["removed": true])
        #expect(try await app.call(Method.regionStop, ["identifier": "r3"]) == ["removed": false])
        #expect(try await app.errorCode(Method.regionState, ["identifier": "r3"]) == -32602)
        let tiny = try await app.request(Method.regionMonitor, ["identifier": "x", "lat": 48.0, "lon": 2.0, "radius": 0.5])
        #expect(tiny["error"]?["message"] == "\"radius\" must be within 1...100000 m")
        #expect(try await app.errorCode(Method.regionMonitor, ["identifier": "x", "lat": 91, "lon": 2.0, "radius": 50]) == -32602)
        #expect(try await app.errorCode(Method.regionMonitor, ["identifier": "x", "lon": 2.0, "radius": 50]) == -32602)
    }

    @Test("R8: sextantd --max-regions lets an app monitor more (Android's 100)")
    func maxRegionsOption() async throws {
        let hub = try InProcessHub { $0.services.maxRegionsPerApp = 100 }
        let control = try await hub.connect(.control)
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": .string(Self.app)])
        _ = try await control.call(Method.permissionsSet, ["app": .string(Self.app), "status": "authorizedWhenInUse"])
        for n in 0..<100 {
            _ = try await app.call(Method.regionMonitor, ["identifier": .string("r\(n)"), "lat": 48.0, "lon": 2.0, "radius": 50])
        }
        #expect(try await app.errorCode(Method.regionMonitor, ["identifier": "r100", "lat": 48.0, "lon": 2.0, "radius": 50]) == 1011)
    }

    @Test("R10: with reduced accuracy region.monitor fails with 1012; without authorization 1001; services off 1002")
    func monitorNeedsFullAccuracy() async throws {
        let setting = try await Self.setUp(status: "authorizedWhenInUse", accuracy: "reduced")
        let (control, app) = (setting.control, setting.app)
        defer { withExtendedLifetime(setting) {} }
        #expect(try await app.errorCode(Method.regionMonitor, Self.shop) == 1012)
        _ = try await control.call(Method.permissionsSet, ["app": .string(Self.app), "status": "denied"])
        #expect(try await app.errorCode(Method.regionMonitor, Self.shop) == 1001)
        _ = try await control.call(Method.servicesSet, ["enabled": false])
        #expect(try await app.errorCode(Method.regionMonitor, Self.shop) == 1002)
    }

    @Test("R10: an accuracy change to reduced tells the app once, and no region event follows; region.state is unknown")
    func reductionStopsEvents() async throws {
        let setting = try await Self.setUp()
        let (control, app) = (setting.control, setting.app)
        defer { withExtendedLifetime(setting) {} }
        _ = try await app.call(Method.regionMonitor, Self.shop)
        try await Self.fix(control, 48.01)
        _ = try await control.call(Method.permissionsSet, ["app": .string(Self.app), "status": "authorizedAlways", "accuracy": "reduced"])
        _ = try await control.call(Method.permissionsSet, ["app": .string(Self.app), "status": "authorizedWhenInUse", "accuracy": "reduced"])
        let told = try await app.drainEvents().filter { $0.method == Event.regionUnavailable }
        #expect(told.count == 1)
        #expect(told.first?.params["reason"]?.stringValue?.contains("full accuracy") == true)
        try await Self.fix(control, 48.0)
        #expect(try await Self.regionEvents(app).isEmpty)
        #expect(try await app.call(Method.regionState, ["identifier": "shop"]) == ["state": "unknown"])
        _ = try await control.call(Method.permissionsSet, ["app": .string(Self.app), "status": "authorizedWhenInUse", "accuracy": "full"])
        try await Self.fix(control, 48.01)
        #expect(try await Self.regionEvents(app).map { $0["transition"] } == ["exit"])
    }

    @Test("R11: in the background only authorizedAlways hears region events")
    func backgroundNeedsAlways() async throws {
        let setting = try await Self.setUp(status: "authorizedWhenInUse")
        let (control, app) = (setting.control, setting.app)
        defer { withExtendedLifetime(setting) {} }
        _ = try await app.call(Method.regionMonitor, Self.shop)
        try await Self.fix(control, 48.01)
        _ = try await control.call(Method.appsUpdate, ["app": .string(Self.app), "state": "background"])
        try await Self.fix(control, 48.0)
        #expect(try await Self.regionEvents(app).isEmpty)
        _ = try await control.call(Method.permissionsSet, ["app": .string(Self.app), "status": "authorizedAlways"])
        try await Self.fix(control, 48.01)
        #expect(try await Self.regionEvents(app).map { $0["transition"] } == ["exit"])
    }

    @Test("R11, L9: after a revoke, and with Location Services off, not one more region event reaches the app")
    func revokeAndServicesOff() async throws {
        let setting = try await Self.setUp()
        let (control, app) = (setting.control, setting.app)
        defer { withExtendedLifetime(setting) {} }
        _ = try await app.call(Method.regionMonitor, Self.shop)
        try await Self.fix(control, 48.01)
        try await Self.fix(control, 48.0)
        #expect(try await Self.regionEvents(app).map { $0["transition"] } == ["enter"])
        _ = try await control.call(Method.permissionsSet, ["app": .string(Self.app), "status": "denied"])
        try await Self.fix(control, 48.01)
        try await Self.fix(control, 48.0)
        #expect(try await Self.regionEvents(app).isEmpty)
        _ = try await control.call(Method.permissionsSet, ["app": .string(Self.app), "status": "authorizedAlways"])
        _ = try await control.call(Method.servicesSet, ["enabled": false])
        try await Self.fix(control, 48.01)
        #expect(try await Self.regionEvents(app).isEmpty)
        _ = try await control.call(Method.servicesSet, ["enabled": true])
        try await Self.fix(control, 48.0)
        #expect(try await Self.regionEvents(app).map { $0["transition"] } == ["enter"])
    }

    @Test("R11: regions belong to the app: every session of it hears them, another app's do not")
    func regionsBelongToTheApp() async throws {
        let setting = try await Self.setUp()
        let (hub, control, app) = (setting.hub, setting.control, setting.app)
        defer { withExtendedLifetime(setting) {} }
        let second = try await hub.connect(.app)
        _ = try await second.call(Method.hello, ["app": .string(Self.app)])
        let other = try await hub.connect(.app)
        _ = try await other.call(Method.hello, ["app": "com.example.other"])
        _ = try await control.call(Method.permissionsSet, ["app": "com.example.other", "status": "authorizedAlways"])
        _ = try await app.call(Method.regionMonitor, Self.shop)
        try await Self.fix(control, 48.01)
        try await Self.fix(control, 48.0)
        #expect(try await Self.regionEvents(app).count == 1)
        #expect(try await Self.regionEvents(second).count == 1)
        #expect(try await Self.regionEvents(other).isEmpty)
        #expect(try await other.call(Method.regionList) == ["regions": []])
    }

    @Test("R12: the control side adds, lists and removes any app's regions, whatever its authorization; status counts them")
    func controlSide() async throws {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        _ = try await control.call(Method.regionsAdd, ["app": "com.example.new", "identifier": "shop", "lat": 48.0, "lon": 2.0, "radius": 100])
        _ = try await control.call(Method.regionsAdd, ["app": "com.example.two", "identifier": "home", "lat": 48.1, "lon": 2.0, "radius": 50])
        #expect(try await control.errorCode(Method.regionsAdd, ["app": "com.example.two", "identifier": "x", "lat": 48.1, "lon": 2.0]) == -32602)
        #expect(try await control.errorCode(Method.regionsAdd, ["app": "not an app", "identifier": "x", "lat": 48.1, "lon": 2.0, "radius": 5]) == -32602)
        let all = try await control.call(Method.regionsList).arrayValue ?? []
        #expect(all.map { $0["app"] } == ["com.example.new", "com.example.two"])
        #expect(all.first?["identifier"] == "shop" && all.first?["state"] == "unknown")
        try await Self.fix(control, 48.0)
        #expect(try await control.call(Method.regionsList, ["app": "com.example.new"]).arrayValue?.map { $0["state"] } == ["inside"])
        #expect(try await control.call(Method.status)["regions"] == ["count": 2, "apps": 2])
        #expect(try await control.call(Method.regionsRemove, ["app": "com.example.two", "identifier": "home"]) == ["removed": true])
        #expect(try await control.call(Method.status)["regions"] == ["count": 1, "apps": 1])
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": "com.example.new"])
        #expect(try await app.call(Method.regionList)["regions"]?.arrayValue?.count == 1)
    }
}
