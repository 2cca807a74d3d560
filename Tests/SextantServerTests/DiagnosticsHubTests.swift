import NIOCore
import SextantCore
import SextantProtocol
import Testing

@testable import SextantHub
@testable import SextantServer

/// iOS's `diagnostics` stream through app.sock and control.sock, in process, in virtual
/// time (docs/platforms.md I13): the flags at start, then one event per change only.
@Suite("iOS diagnostics, in process", .timeLimit(.minutes(1)))
struct DiagnosticsHubTests {
    static let app = "com.example.maps"

    struct Setting {
        let hub: InProcessHub
        let control: TestClient
        let app: TestClient
    }

    /// An app that started the diagnostics stream, its first event read.
    static func started(status: String? = nil) async throws -> (Setting, JSONValue) {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": .string(Self.app)])
        if let status { _ = try await control.call(Method.permissionsSet, ["app": .string(Self.app), "status": .string(status)]) }
        _ = try await app.drainEvents()
        _ = try await app.call(Method.diagnosticsStart)
        let first = try await Self.diagnostics(app)
        #expect(first.count == 1, "the current flags at start: \(first)")
        return (Setting(hub: hub, control: control, app: app), try #require(first.first))
    }

    /// The `diagnostics` events the app got since the last look.
    static func diagnostics(_ app: TestClient) async throws -> [JSONValue] {
        try await app.drainEvents().filter { $0.method == Event.diagnostics }.map(\.params)
    }

    /// The flags that are true in one event.
    static func raised(_ event: JSONValue) -> Set<String> {
        Set((event.objectValue ?? [:]).filter { $0.value == true }.keys)
    }

    @Test("I13: at start every flag is sent; a denial raises authorizationDenied, once")
    func testI13_denialRaisesAuthorizationDenied() async throws {
        let (setting, first) = try await Self.started(status: "authorizedWhenInUse")
        defer { withExtendedLifetime(setting) {} }
        #expect(first.objectValue?.count == WireDiagnostics.flags.count, "every flag, as a bool: \(first)")
        #expect(Self.raised(first).isEmpty, "\(first)")
        _ = try await setting.control.call(Method.permissionsSet, ["app": .string(Self.app), "status": "denied"])
        let events = try await Self.diagnostics(setting.app)
        #expect(events.map(Self.raised) == [["authorizationDenied"]], "\(events)")
        _ = try await setting.control.call(Method.deviceSet, ["location": ["lat": 48.0, "lon": 2.0, "hAcc": 5]])
        #expect(try await Self.diagnostics(setting.app).isEmpty, "a fix changes no flag: nothing sent")
    }

    @Test("I13: Location Services off raises authorizationDeniedGlobally, on lowers it")
    func testI13_servicesOffRaisesDeniedGlobally() async throws {
        let (setting, _) = try await Self.started(status: "authorizedWhenInUse")
        defer { withExtendedLifetime(setting) {} }
        _ = try await setting.control.call(Method.servicesSet, ["enabled": false])
        #expect(try await Self.diagnostics(setting.app).map(Self.raised) == [["authorizationDeniedGlobally"]])
        _ = try await setting.control.call(Method.servicesSet, ["enabled": true])
        #expect(try await Self.diagnostics(setting.app).map(Self.raised) == [[]])
    }

    @Test("I13: While Using in the background raises insufficientlyInUse; the foreground lowers it")
    func testI13_backgroundWithoutInUseIsInsufficientlyInUse() async throws {
        let (setting, _) = try await Self.started(status: "authorizedWhenInUse")
        defer { withExtendedLifetime(setting) {} }
        _ = try await setting.control.call(Method.appsUpdate, ["app": .string(Self.app), "state": "background"])
        #expect(try await Self.diagnostics(setting.app).map(Self.raised) == [["insufficientlyInUse"]])
        _ = try await setting.control.call(Method.appsUpdate, ["app": .string(Self.app), "state": "foreground"])
        #expect(try await Self.diagnostics(setting.app).map(Self.raised) == [[]])
    }

    @Test("I13: an open prompt of the session raises authorizationRequestInProgress until it is answered")
    func testI13_openPromptIsRequestInProgress() async throws {
        let (setting, first) = try await Self.started()
        defer { withExtendedLifetime(setting) {} }
        #expect(Self.raised(first).isEmpty, "notDetermined is no denial: \(first)")
        _ = try await setting.control.call(Method.watch, ["topics": ["prompt"]])
        try await setting.app.send(#"{"jsonrpc":"2.0","id":99,"method":"authorization.request","params":{"level":"whenInUse"}}"#)
        let prompt = try await setting.control.nextMessage()
        #expect(prompt["method"] == "prompt", "\(prompt)")
        #expect(try await Self.diagnostics(setting.app).map(Self.raised) == [["authorizationRequestInProgress"]])
        _ = try await setting.control.call(Method.promptsAnswer, ["id": prompt["params"]!["id"]!, "choice": "allowWhileUsing", "precise": false])
        let reply = try await setting.app.response(to: 99)
        #expect(reply["result"]?["status"] == "authorizedWhenInUse", "\(reply)")
        let events = try await Self.diagnostics(setting.app)
        #expect(events.last.map(Self.raised) == ["accuracyLimited", "fullAccuracyDenied"], "approximate: \(events)")
    }

    @Test("I13: a temporary full accuracy prompt denied from the control side lowers authorizationRequestInProgress")
    func testI13_deniedTemporaryPromptEndsRequestInProgress() async throws {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": .string(Self.app), "temporaryUsageDescriptions": ["route": "Turn by turn"]])
        _ = try await control.call(Method.permissionsSet, ["app": .string(Self.app), "status": "authorizedWhenInUse", "accuracy": "reduced"])
        _ = try await app.call(Method.diagnosticsStart)
        #expect(try await Self.diagnostics(app).map(Self.raised) == [["accuracyLimited", "fullAccuracyDenied"]])
        _ = try await control.call(Method.watch, ["topics": ["prompt"]])
        try await app.send(#"{"jsonrpc":"2.0","id":98,"method":"authorization.requestTemporaryFullAccuracy","params":{"purposeKey":"route"}}"#)
        let prompt = try await control.nextMessage()
        #expect(prompt["params"]?["kind"] == "temporaryFullAccuracy", "\(prompt)")
        #expect(try await Self.diagnostics(app).map(Self.raised) == [["accuracyLimited", "authorizationRequestInProgress", "fullAccuracyDenied"]])
        _ = try await control.call(Method.promptsAnswer, ["id": prompt["params"]!["id"]!, "choice": "deny"])
        #expect(try await app.response(to: 98)["result"]?["accuracy"] == "reduced")
        #expect(try await Self.diagnostics(app).map(Self.raised) == [["accuracyLimited", "fullAccuracyDenied"]], "closed with no authorization change")
    }

    @Test("I13: the upgrade prompt a region entry raises is a request in progress; keeping While Using is alwaysAuthorizationDenied")
    func testI13_upgradePromptThenKeepWhileUsing() async throws {
        let setting = try await IOSUpgradeHubTests.provisionalInBackground()
        defer { withExtendedLifetime(setting) {} }
        _ = try await setting.app.call(Method.diagnosticsStart)
        #expect(try await Self.diagnostics(setting.app).map(Self.raised) == [[]], "provisional Always is no denial")
        _ = try await setting.control.call(Method.deviceSet, ["location": ["lat": 48.0, "lon": 2.0, "hAcc": 5]])  // into the shop
        let prompts = try await setting.control.drainEvents().filter { $0.method == Event.prompt }.map(\.params)
        let prompt = try #require(prompts.first, "the upgrade prompt opens")
        #expect(prompt["kind"] == "alwaysUpgrade")
        let events = try await setting.app.drainEvents()
        #expect(events.map(\.method) == [Event.diagnostics], "the entry is held, the flags are told: \(events)")
        #expect(events.map { Self.raised($0.params) } == [["authorizationRequestInProgress"]])
        _ = try await setting.control.call(Method.promptsAnswer, ["id": prompt["id"]!, "choice": "keepWhileUsing"])
        #expect(try await Self.diagnostics(setting.app).map(Self.raised) == [["alwaysAuthorizationDenied", "insufficientlyInUse"]])
    }

    @Test("I13: reduced accuracy raises accuracyLimited and fullAccuracyDenied")
    func testI13_reducedAccuracyIsAccuracyLimited() async throws {
        let (setting, _) = try await Self.started(status: "authorizedWhenInUse")
        defer { withExtendedLifetime(setting) {} }
        _ = try await setting.control.call(Method.permissionsSet, ["app": .string(Self.app), "status": "authorizedWhenInUse", "accuracy": "reduced"])
        #expect(try await Self.diagnostics(setting.app).map(Self.raised) == [["accuracyLimited", "fullAccuracyDenied"]])
    }

    @Test("I13: the GPS source lost raises locationUnavailable; the next fix lowers it")
    func testI13_gpsLossIsLocationUnavailable() async throws {
        let (setting, _) = try await Self.started(status: "authorizedWhenInUse")
        defer { withExtendedLifetime(setting) {} }
        try await setting.hub.onLoop { $0.services.fixes.gpsSignal(.lost, from: .gpsd) }
        #expect(try await Self.diagnostics(setting.app).map(Self.raised) == [["locationUnavailable"]])
        _ = try await setting.control.call(Method.deviceSet, ["location": ["lat": 48.0, "lon": 2.0, "hAcc": 5]])
        #expect(try await Self.diagnostics(setting.app).map(Self.raised) == [[]])
    }

    @Test("I13: after diagnostics.stop nothing more is sent")
    func testI13_stopEndsTheStream() async throws {
        let (setting, _) = try await Self.started(status: "authorizedWhenInUse")
        defer { withExtendedLifetime(setting) {} }
        _ = try await setting.app.call(Method.diagnosticsStop)
        _ = try await setting.control.call(Method.permissionsSet, ["app": .string(Self.app), "status": "denied"])
        #expect(try await Self.diagnostics(setting.app).isEmpty)
    }

    @Test("I13: the Android profile has no diagnostics stream")
    func testI13_androidHasNoDiagnostics() async throws {
        let hub = try InProcessHub { $0.platform = .android(api: 36) }
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": .string(Self.app)])
        #expect(try await app.errorCode(Method.diagnosticsStart) == -32601)
    }
}
