import NIOCore
import SextantProtocol
import Testing

@testable import SextantHub

/// `permissions.explain` in process (docs/platforms.md PF3): what decides an app's location,
/// read on virtual time, so the timers' remaining seconds are exact.
@Suite("permissions.explain in process")
struct PermissionExplainTests {
    static let app = "com.example.maps"

    @Test("PF3, L5: an Allow Once grant in the background shows its session, the grant and the expiry timer 40 s away after 20 s; after the 60 s it is gone and the app notDetermined")
    func allowOnceTimer() async throws {
        let hub = try InProcessHub { $0.allowOnceBackgroundLimit = .seconds(60) }
        let control = try await hub.connect(.control)
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": .string(Self.app), "state": "foreground"])
        try await app.send(#"{"jsonrpc":"2.0","id":"ask","method":"authorization.request","params":{"level":"whenInUse"}}"#)
        _ = try await app.call(Method.authorizationGet)  // answered after the request above was taken
        let prompt = try await control.call(Method.promptsList).arrayValue?.first
        let open = try await control.call(Method.permissionsExplain, ["app": .string(Self.app)])
        #expect(open["prompts"]?.arrayValue?.map { $0["id"] } == [prompt?["id"]], "\(open)")
        #expect(open["sessions"]?.arrayValue?.first?["prompted"] == true && open["sessions"]?.arrayValue?.first?["waitingRequests"] == 1, "\(open)")
        _ = try await control.call(Method.promptsAnswer, ["id": prompt?["id"] ?? .null, "choice": "allowOnce"])
        #expect(try await app.response(to: "ask")["result"]?["status"] == "authorizedWhenInUse")
        _ = try await app.call(Method.appUpdate, ["state": "background"])
        await hub.advance(by: .seconds(20))
        let held = try await control.call(Method.permissionsExplain, ["app": .string(Self.app)])
        #expect(held["status"] == "authorizedWhenInUse" && held["stored"] == .null && held["platform"] == ["name": "ios"], "\(held)")
        #expect(held["sessions"]?.arrayValue?.first?["state"] == "background" && held["sessions"]?.arrayValue?.first?["backgroundFor"] == 20, "\(held)")
        #expect(held["sessions"]?.arrayValue?.first?["allowOnce"] == "full" && held["prompts"] == [], "\(held)")
        #expect(held["timers"]?.arrayValue?.map { [$0["name"], $0["inSeconds"]] } == [["allowOnceExpiry", 40]], "\(held)")
        await hub.advance(by: .seconds(41))
        let gone = try await control.call(Method.permissionsExplain, ["app": .string(Self.app)])
        #expect(gone["status"] == "notDetermined" && gone["timers"] == [] && gone["sessions"]?.arrayValue?.first?["allowOnce"] == .null, "\(gone)")
        #expect(held["facets"]?["oneTime"] == true && gone["facets"]?["oneTime"] == false, "I8's facet: \(held) \(gone)")
    }

    @Test("PF3: an app with no session explains from its stored decision; the switch off is said; a bad app id is -32602")
    func storedOnly() async throws {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        _ = try await control.call(Method.permissionsSet, ["app": .string(Self.app), "status": "authorizedAlways", "accuracy": "reduced"])
        _ = try await control.call(Method.servicesSet, ["enabled": false])
        let e = try await control.call(Method.permissionsExplain, ["app": .string(Self.app)])
        #expect(e["status"] == "denied" && e["servicesEnabled"] == false && e["sessions"] == [], "\(e)")
        #expect(e["stored"]?["status"] == "authorizedAlways" && e["stored"]?["accuracy"] == "reduced", "\(e)")
        #expect(try await control.errorCode(Method.permissionsExplain, ["app": "no spaces allowed"]) == -32602)
    }
}
