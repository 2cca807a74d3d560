import NIOCore
import SextantProtocol
import Testing

@testable import SextantHub

/// `permissions.set {once, temporaryFullAccuracy}` on an iPhone, in process, in virtual time:
/// a test starts mid-flow (issue 39 point 4), and the grant set by hand lapses by the same
/// rules as the prompt's (docs/platforms.md L5, I8, I9); `apps.list` and `permissions.list`
/// show what the app cannot see.
@Suite("iOS grants set by hand, in process", .timeLimit(.minutes(1)))
struct IOSSetByHandTests {
    static let app = "com.example.maps"

    static func opened(declaring keys: [String: JSONValue] = [:]) async throws -> (InProcessHub, TestClient, TestClient) {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": .string(Self.app), "state": "foreground", "temporaryUsageDescriptions": .object(keys)])
        return (hub, control, app)
    }

    static func appEntry(_ control: TestClient) async throws -> JSONValue {
        try #require(try await control.call(Method.appsList).arrayValue?.first { $0["app"] == .string(Self.app) })
    }

    static func listEntry(_ control: TestClient) async throws -> JSONValue {
        try #require(try await control.call(Method.permissionsList).arrayValue?.first { $0["app"] == .string(Self.app) })
    }

    @Test("L5, I8: Allow Once set by hand; the app in the background keeps it for the grace G = 10 s, then it is notDetermined")
    func testL5_I8_onceSetByHandRevertsAfterGrace() async throws {
        let (hub, control, app) = try await Self.opened()
        let set = try await control.call(Method.permissionsSet, ["app": .string(Self.app), "status": "authorizedWhenInUse", "once": true, "accuracy": "reduced"])
        #expect(set["allowOnce"] == true && set["status"] == "authorizedWhenInUse" && set["accuracy"] == "reduced", "\(set)")
        #expect(try await app.call(Method.authorizationGet)["status"] == "authorizedWhenInUse")
        #expect(try await Self.appEntry(control)["allowOnce"] == true)
        #expect(try await Self.listEntry(control)["allowOnce"] == true)
        _ = try await app.drainEvents()
        _ = try await app.call(Method.appUpdate, ["state": "background"])
        await hub.advance(by: .seconds(9))
        #expect(try await app.call(Method.authorizationGet)["status"] == "authorizedWhenInUse", "within G")
        await hub.advance(by: .seconds(2))
        #expect(try await app.call(Method.authorizationGet)["status"] == "notDetermined", "G passed: the one-time grant is gone (L5, I8)")
        let events = try await app.drainEvents().filter { $0.method == Event.authorization }.map { $0.params["status"] }
        #expect(events == ["notDetermined"], "\(events)")
        #expect(try await Self.appEntry(control)["allowOnce"] == nil)
    }

    @Test("I9: temporary full accuracy set by hand for a declared key makes the app full; no longer in use, it is reduced again")
    func testI9_temporaryFullAccuracySetByHandLapses() async throws {
        let (hub, control, app) = try await Self.opened(declaring: ["route": "Turn by turn"])
        let set = try await control.call(
            Method.permissionsSet, ["app": .string(Self.app), "status": "authorizedWhenInUse", "accuracy": "reduced", "temporaryFullAccuracy": "route"])
        #expect(set["temporaryFullAccuracy"] == ["route"] && set["accuracy"] == "reduced", "the stored accuracy stays reduced: \(set)")
        #expect(try await app.call(Method.authorizationGet)["accuracy"] == "full")
        #expect(try await Self.appEntry(control)["temporaryFullAccuracy"] == ["route"])
        #expect(try await Self.listEntry(control)["temporaryFullAccuracy"] == ["route"])
        _ = try await app.call(Method.appUpdate, ["state": "background"])
        await hub.advance(by: .seconds(11))
        #expect(try await app.call(Method.authorizationGet)["accuracy"] == "reduced", "I9: the grant lasts while in use")
        #expect(try await Self.appEntry(control)["temporaryFullAccuracy"] == nil)
        #expect(try await Self.listEntry(control)["temporaryFullAccuracy"] == nil)
    }

    @Test("I2: provisional Always shows in apps.list as Settings says it (While Using); the app reads authorizedAlways")
    func testI2_appsListShowsProvisional() async throws {
        let (hub, control, app) = try await Self.opened()
        defer { withExtendedLifetime(hub) {} }
        _ = try await control.call(Method.permissionsSet, ["app": .string(Self.app), "status": "authorizedAlways", "provisional": true])
        let entry = try await Self.appEntry(control)
        #expect(entry["provisional"] == true && entry["settings"] == "While Using" && entry["authorization"]?["status"] == "authorizedAlways", "\(entry)")
        #expect(try await app.call(Method.authorizationGet)["status"] == "authorizedAlways")
        _ = try await control.call(Method.permissionsSet, ["app": .string(Self.app), "status": "authorizedAlways"])
        #expect(try await Self.appEntry(control)["provisional"] == nil, "absent when false: other entries read as before")
    }

    @Test("L5, I10: a grant with no live session is 1004; an undeclared key, once with another status, an empty key are -32602")
    func testI10_refusals() async throws {
        let (hub, control, _) = try await Self.opened(declaring: ["route": "Turn by turn"])
        defer { withExtendedLifetime(hub) {} }
        let base: [String: JSONValue] = ["app": .string(Self.app), "status": "authorizedWhenInUse"]
        #expect(try await control.errorCode(Method.permissionsSet, ["app": "com.example.other", "status": "authorizedWhenInUse", "once": true]) == 1004)
        #expect(try await control.errorCode(Method.permissionsSet, .object(base.merging(["temporaryFullAccuracy": "other"]) { $1 })) == -32602)
        #expect(try await control.errorCode(Method.permissionsSet, ["app": .string(Self.app), "status": "authorizedAlways", "once": true]) == -32602)
        #expect(try await control.errorCode(Method.permissionsSet, .object(base.merging(["temporaryFullAccuracy": ""]) { $1 })) == -32602)
        #expect(try await control.errorCode(Method.permissionsSet, ["app": .string(Self.app), "status": "denied", "temporaryFullAccuracy": "route"]) == -32602)
    }
}
