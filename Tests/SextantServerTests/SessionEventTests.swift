import Foundation
import NIOCore
import SextantCore
import SextantProtocol
import Testing

@testable import SextantGPSDFace
@testable import SextantHub
@testable import SextantServer

/// The control side's `session` event (issue 25, point 1: the panel's apps table kept live):
/// a watcher hears each session open, change what `apps.list` shows of it, and close.
@Suite("The session event", .timeLimit(.minutes(2)))
struct SessionEventTests {
    static func sessionEvents(_ control: TestClient) async throws -> [JSONValue] {
        try await control.drainEvents().filter { $0.method == Event.session }.map(\.params)
    }

    @Test("issue 25.1: a watcher sees an app open, stream, move, get its authorization and close; an app never hears of it")
    func openChangeClose() async throws {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        _ = try await control.call(Method.watch, ["topics": [.string(Event.session)]])
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": "com.example.rows", "orientations": ["portrait", "landscapeLeft", "landscapeRight"]])
        let opened = try #require(try await Self.sessionEvents(control).first)
        #expect(opened["change"] == "opened" && opened["app"] == "com.example.rows" && opened["state"] == "foreground")
        #expect(opened["uid"] == .int(Int64(getuid())) && opened["kind"] == "app" && opened["streams"] == [])
        // The event is apps.list's entry, `change` added.
        var listed = try #require(try await control.call(Method.appsList).arrayValue?.first?.objectValue)
        listed["change"] = "opened"
        #expect(JSONValue.object(listed) == opened)

        _ = try await control.call(Method.permissionsSet, ["app": "com.example.rows", "status": "authorizedWhenInUse"])
        let granted = try await Self.sessionEvents(control)
        #expect(granted.map { $0["change"] } == ["changed"])
        #expect(granted.first?["authorization"]?["status"] == "authorizedWhenInUse")
        _ = try await app.call(Method.locationStart)
        _ = try await app.call(Method.headingStart)
        #expect(try await Self.sessionEvents(control).map { $0["streams"] } == [["location"], ["heading", "location"]])
        _ = try await app.call(Method.authorizationGet)
        #expect(try await Self.sessionEvents(control).isEmpty, "a request that changes nothing is not a change")

        _ = try await control.call(Method.appsUpdate, ["app": "com.example.rows", "state": "background"])
        #expect(try await Self.sessionEvents(control).map { $0["state"] } == ["background"])
        _ = try await control.call(Method.appsUpdate, ["app": "com.example.rows", "state": "foreground"])
        _ = try await Self.sessionEvents(control)
        _ = try await control.call(Method.deviceSet, ["orientation": "landscapeLeft"])
        await hub.advance(by: .seconds(2))  // the held gravity, judged over its readings (O1–O3)
        let turned = try #require(try await control.call(Method.appsList).arrayValue?.first?["interfaceOrientation"])
        #expect(turned != opened["interfaceOrientation"], "the interface turned")
        #expect(try await Self.sessionEvents(control).last?["interfaceOrientation"] == turned)

        #expect(try await app.drainEvents().allSatisfy { $0.method != Event.session })
        try await app.channel.close()
        await hub.advance(by: .milliseconds(1))
        let closed = try await Self.sessionEvents(control)
        #expect(closed.count == 1)
        #expect(closed.first?["change"] == "closed" && closed.first?["app"] == "com.example.rows" && closed.first?["session"] == opened["session"])
    }

    @Test("issue 25.1: a watcher of one app hears no session events (they went to no app); a gpsd client's WATCH is a change")
    func watcherOfOneAppAndTheGPSDFace() async throws {
        let hub = try InProcessHub()
        let all = try await hub.connect(.control)
        let one = try await hub.connect(.control)
        _ = try await all.call(Method.watch)
        _ = try await one.call(Method.watch, ["app": "com.example.rows"])
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": "com.example.rows"])
        let gpsd = try await hub.connectGPSD()
        try await gpsd.send(#"?WATCH={"enable":true,"json":true}"#)
        _ = try await gpsd.nextReport(ofClass: "WATCH")
        let seen = try await Self.sessionEvents(all)
        #expect(seen.map { $0["app"] } == ["com.example.rows", .string(GPSDPeer.unknownApp), .string(GPSDPeer.unknownApp)])
        #expect(seen.last?["change"] == "changed" && seen.last?["streams"] == ["heading", "location", "satellites"] && seen.last?["kind"] == "gpsd")
        #expect(try await Self.sessionEvents(one).isEmpty)
    }
}
