import Foundation
import NIOCore
import SextantCore
import SextantProtocol
import Testing

@testable import SextantHub
@testable import SextantServer

/// The Android profile's permission flows through app.sock and control.sock, in process on
/// virtual time (docs/platforms.md AN rules).
@Suite("Android permissions in the hub", .timeLimit(.minutes(2)))
struct AndroidPermissionHubTests {
    static let app = "com.example.android"

    /// An Android phone at API 36 with one app in the foreground and a control client.
    static func setUp() async throws -> (InProcessHub, TestClient, TestClient) {
        let hub = try InProcessHub { $0.platform = .android(api: 36) }
        let control = try await hub.connect(.control)
        let client = try await hub.connect(.app)
        _ = try await client.call(Method.hello, ["app": .string(app)])
        return (hub, control, client)
    }

    /// Sends `authorization.request {permissions}` and returns its id; the answer is read later.
    static func ask(_ client: TestClient, _ permissions: [String], id: Int) async throws -> JSONValue {
        let message: JSONValue = [
            "jsonrpc": "2.0", "id": .int(Int64(id)), "method": .string(Method.authorizationRequest),
            "params": ["permissions": .array(permissions.map { .string($0) })],
        ]
        try await client.send(message.serialized())
        return .int(Int64(id))
    }

    /// The control side waits for the app's dialog and answers it.
    static func answer(_ control: TestClient, _ choice: String, precise: Bool = true) async throws -> JSONValue {
        try await control.call(Method.promptsAnswer, ["app": .string(app), "choice": .string(choice), "precise": .bool(precise)])
    }

    @Test("AN10: Only this time, through app.sock: the app keeps it 59 s in the background and hears notDetermined at 60 s")
    func testAN10_onlyThisTimeRevokedSixtySecondsAfterBackground() async throws {
        let (hub, control, client) = try await Self.setUp()
        let id = try await Self.ask(client, ["coarse", "fine"], id: 100)
        let prompts = try await control.call(Method.promptsList)
        #expect(prompts.arrayValue?.first?["kind"] == "androidLocation")
        #expect(prompts.arrayValue?.first?["android"]?["choices"] == ["whileUsing", "onlyThisTime", "dontAllow"])
        _ = try await Self.answer(control, "onlyThisTime", precise: false)
        let reply = try await client.response(to: id)
        #expect(reply["result"]?["status"] == "authorizedWhenInUse")
        #expect(reply["result"]?["accuracy"] == "reduced")
        #expect(reply["result"]?["grants"] == ["coarse": "granted", "fine": "denied", "background": "denied"])
        #expect(reply["result"]?["oneTime"] == true)
        let listed = try await control.call(Method.permissionsList).arrayValue?.first
        #expect(listed?["status"] == "authorizedWhenInUse" && listed?["android"]?["oneTime"]?["coarse"] == "granted", "\(String(describing: listed))")
        _ = try await client.call(Method.appUpdate, ["state": "background"])
        _ = try await client.drainEvents()
        await hub.advance(by: .seconds(59))
        #expect(try await client.drainEvents().filter { $0.method == Event.authorization }.isEmpty)
        await hub.advance(by: .milliseconds(1_100))
        let revoked = try await client.drainEvents().filter { $0.method == Event.authorization }.map(\.params)
        #expect(revoked.map { $0["status"] } == ["notDetermined"])
    }

    @Test("AN5, AN17: two denials make it don't ask again: the third request is answered denied at once; permissions reset lets it ask again")
    func testAN5_dontAskAgainUntilReset() async throws {
        let (_, control, client) = try await Self.setUp()
        for round in 1...2 {
            let id = try await Self.ask(client, ["coarse", "fine"], id: round)
            _ = try await Self.answer(control, "dontAllow")
            #expect(try await client.response(to: id)["result"]?["status"] == "denied")
        }
        let third = try await client.call(Method.authorizationRequest, ["permissions": ["coarse", "fine"]])
        #expect(third["status"] == "denied")
        #expect(try await control.call(Method.promptsList) == [])
        _ = try await control.call(Method.permissionsReset, ["app": .string(Self.app)])
        let id = try await Self.ask(client, ["coarse", "fine"], id: 9)
        _ = try await Self.answer(control, "whileUsing")
        #expect(try await client.response(to: id)["result"]?["status"] == "authorizedWhenInUse")
    }

    @Test("AN1, AN7: a fine-only request and a mixed background request are refused with -32602; background alone is answered at once")
    func testAN7_backgroundIsItsOwnRequest() async throws {
        let (_, control, client) = try await Self.setUp()
        #expect(try await client.errorCode(Method.authorizationRequest, ["permissions": ["fine"]]) == -32602)
        #expect(try await client.errorCode(Method.authorizationRequest, ["permissions": ["coarse", "background"]]) == -32602)
        let alone = try await client.call(Method.authorizationRequest, ["permissions": ["background"]])
        #expect(alone["status"] == "notDetermined")
        _ = try await control.call(Method.permissionsSet, ["app": .string(Self.app), "grants": ["coarse", "fine", "background"]])
        let now = try await client.call(Method.authorizationGet)
        #expect(now["status"] == "authorizedAlways" && now["grants"]?["background"] == "granted")
    }

    /// The app gets Only this time (precise) through the dialog.
    static func onlyThisTime(_ client: TestClient, _ control: TestClient) async throws {
        let id = try await Self.ask(client, ["coarse", "fine"], id: 50)
        _ = try await Self.answer(control, "onlyThisTime")
        #expect(try await client.response(to: id)["result"]?["oneTime"] == true)
    }

    @Test("AN11: the last session closed, a new one within 5 s keeps Only this time; none for 5 s ends it")
    func testAN11_reconnectWithinFiveSecondsKeepsOneTime() async throws {
        let (hub, control, client) = try await Self.setUp()
        try await Self.onlyThisTime(client, control)
        try await client.channel.close()
        await hub.advance(by: .seconds(4))
        let again = try await hub.connect(.app)
        let hello = try await again.call(Method.hello, ["app": .string(Self.app)])
        #expect(hello["authorization"]?["oneTime"] == true, "\(hello)")
        await hub.advance(by: .seconds(10))
        #expect(try await again.call(Method.authorizationGet)["oneTime"] == true)
        try await again.channel.close()
        await hub.advance(by: .milliseconds(5_100))
        let late = try await hub.connect(.app)
        let after = try await late.call(Method.hello, ["app": .string(Self.app)])
        #expect(after["authorization"]?["status"] == "notDetermined", "\(after)")
    }

    @Test("AN13: app.update {foregroundService: location} while visible keeps Only this time in the background; none, 120 s after leaving the foreground, ends it at once")
    func testAN13_foregroundServiceKeepsOneTime() async throws {
        let (hub, control, client) = try await Self.setUp()
        try await Self.onlyThisTime(client, control)
        _ = try await client.call(Method.appUpdate, ["foregroundService": "location", "state": "background"])
        await hub.advance(by: .seconds(120))
        #expect(try await client.call(Method.authorizationGet)["oneTime"] == true)
        _ = try await client.call(Method.appUpdate, ["foregroundService": "none"])
        #expect(try await client.call(Method.authorizationGet)["status"] == "notDetermined")
        #expect(try await client.errorCode(Method.appUpdate, ["foregroundService": "camera"]) == -32602)
    }

    @Test("AN2: the gpsd face asks as a foreground Android app asking coarse+fine: the dialog opens, While using precise lets its TPV through")
    func testAN2_gpsdClientAsksAsAnAndroidApp() async throws {
        let hub = try InProcessHub { $0.platform = .android(api: 36) }
        let control = try await hub.connect(.control)
        let gpsd = try await hub.connectGPSD()
        try await gpsd.send(#"?WATCH={"enable":true,"json":true}"#)
        let prompts = try await control.call(Method.promptsList)
        let dialog = try #require(prompts.arrayValue?.first)
        #expect(dialog["kind"] == "androidLocation" && dialog["android"]?["asked"] == ["coarse", "fine"], "\(dialog)")
        _ = try await control.call(Method.promptsAnswer, ["id": dialog["id"] ?? .null, "choice": "whileUsing"])
        _ = try await gpsd.drainReports()
        _ = try await control.call(Method.deviceSet, ["location": ["lat": 48.85, "lon": 2.35, "hAcc": 5]])
        let tpv = try await gpsd.nextReport(ofClass: "TPV")
        #expect(tpv["lat"]?.doubleValue == 48.85, "\(tpv)")
    }
}
