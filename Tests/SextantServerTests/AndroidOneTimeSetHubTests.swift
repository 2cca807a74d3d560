import Foundation
import NIOCore
import SextantCore
import SextantProtocol
import Testing

@testable import SextantHub
@testable import SextantServer

/// `permissions.set {grants, oneTime: true}` puts an Android app in "Only this time" without
/// its dialog (docs/platforms.md AN38), so that a test starts mid-flow; AN10–AN12's timers
/// then end the grant as they end the dialog's. In process, on virtual time.
@Suite("Android Only this time set from the control side (AN38)", .timeLimit(.minutes(2)))
struct AndroidOneTimeSetHubTests {
    static let app = "com.example.onetime"

    static func setOneTime(_ control: TestClient, grants: JSONValue = ["coarse", "fine"]) async throws -> JSONValue {
        try await control.call(Method.permissionsSet, ["app": .string(app), "grants": grants, "oneTime": true])
    }

    @Test("AN38, AN10: set Only this time mid-flow: the app hears it, keeps it 59.999 s in the background, loses it at 60 s")
    func an38SetThenBackground() async throws {
        let (hub, control, client) = try await AndroidPermissionHubTests.setUp()
        let entry = try await Self.setOneTimeFor(AndroidPermissionHubTests.app, control)
        #expect(entry["status"] == "authorizedWhenInUse" && entry["android"]?["oneTime"]?["fine"] == "granted", "\(entry)")
        let told = try await client.drainEvents().filter { $0.method == Event.authorization }.map(\.params)
        #expect(told.last?["oneTime"] == true && told.last?["accuracy"] == "full", "\(told)")
        _ = try await client.call(Method.appUpdate, ["state": "background"])
        _ = try await client.drainEvents()
        await hub.advance(by: .milliseconds(59_999))
        #expect(try await client.drainEvents().filter { $0.method == Event.authorization }.isEmpty)
        // The hub checks 1 ms after the engine's deadline (Hub `scheduleExpiryCheck`).
        await hub.advance(by: .milliseconds(2))
        let revoked = try await client.drainEvents().filter { $0.method == Event.authorization }.map(\.params)
        #expect(revoked.map { $0["status"] } == ["notDetermined"])
    }

    static func setOneTimeFor(_ app: String, _ control: TestClient) async throws -> JSONValue {
        try await control.call(Method.permissionsSet, ["app": .string(app), "grants": ["coarse", "fine"], "oneTime": true])
    }

    @Test("AN38, AN11: set Only this time with no session open: the grant ends 5 s later unless the app comes")
    func an38SetWithoutSession() async throws {
        let hub = try InProcessHub { $0.platform = .android(api: 36) }
        let control = try await hub.connect(.control)
        _ = try await Self.setOneTime(control, grants: ["coarse"])
        await hub.advance(by: .milliseconds(4_999))
        let held = try await control.call(Method.permissionsExplain, ["app": .string(Self.app)])["facets"]?["oneTime"]
        #expect(held?["coarse"] == "granted" && held?["fine"] == "denied", "\(String(describing: held))")
        // The hub checks 1 ms after the engine's deadline (Hub `scheduleExpiryCheck`).
        await hub.advance(by: .milliseconds(2))
        #expect(try await control.call(Method.permissionsExplain, ["app": .string(Self.app)])["facets"]?["oneTime"] == .null)
    }

    @Test("AN38: oneTime needs coarse without background, and an Android phone; the daemon stays up")
    func an38Refusals() async throws {
        let hub = try InProcessHub { $0.platform = .android(api: 36) }
        let control = try await hub.connect(.control)
        let invalid = Int(RPCErrorCode.invalidParams.rawValue)
        #expect(try await control.errorCode(Method.permissionsSet, ["app": .string(Self.app), "grants": ["coarse", "background"], "oneTime": true]) == invalid)
        #expect(try await control.errorCode(Method.permissionsSet, ["app": .string(Self.app), "status": "authorizedWhenInUse", "oneTime": true]) == invalid)
        let ios = try InProcessHub()
        let iosControl = try await ios.connect(.control)
        #expect(try await iosControl.errorCode(Method.permissionsSet, ["app": .string(Self.app), "grants": ["coarse"], "oneTime": true]) == invalid)
        _ = try await control.call(Method.status)
    }
}
