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

    @Test("PF3, A11: the motion permission is explained: iOS's Motion & Fitness status; Android's ACTIVITY_RECOGNITION with its denials in a row (A15)")
    func motionPermission() async throws {
        let ios = try InProcessHub()
        let iosControl = try await ios.connect(.control)
        let before = try await iosControl.call(Method.permissionsExplain, ["app": .string(Self.app)])
        #expect(before["motion"] == ["permission": "Motion & Fitness", "status": "notDetermined"], "\(before)")
        _ = try await iosControl.call(Method.motionPermissionsSet, ["app": .string(Self.app), "status": "authorized"])
        let set = try await iosControl.call(Method.permissionsExplain, ["app": .string(Self.app)])
        #expect(set["motion"] == ["permission": "Motion & Fitness", "status": "authorized"], "\(set)")

        let android = try InProcessHub { $0.platform = .android(api: 34) }
        let control = try await android.connect(.control)
        let app = try await android.connect(.app)
        _ = try await app.call(Method.hello, ["app": .string(Self.app)])
        for id in [100, 101] {
            try await app.send(#"{"jsonrpc":"2.0","id":\#(id),"method":"activity.requestAuthorization"}"#)
            _ = try await control.call(Method.promptsAnswer, ["app": .string(Self.app), "kind": "androidActivityRecognition", "choice": "dontAllow"])
            _ = try await app.response(to: .int(Int64(id)))
            let e = try await control.call(Method.permissionsExplain, ["app": .string(Self.app)])
            let denials: Int64 = id == 100 ? 1 : 2
            #expect(e["motion"] == ["permission": "ACTIVITY_RECOGNITION", "status": "denied", "denials": .int(denials), "dontAskAgain": .bool(denials == 2)], "\(e)")
        }
    }
}
