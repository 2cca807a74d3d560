import NIOCore
import SextantCore
import SextantProtocol
import Testing

@testable import SextantHub
@testable import SextantServer

/// The hub's method tables and their effects, in process (``InProcessHub``).
@Suite("Hub dispatch, in process", .timeLimit(.minutes(1)))
struct HubDispatchTests {
    // MARK: - PROTOCOL "Errors": precedence, the same on both sockets

    @Test("-32601 before -32602: an unknown method with bad params, on the control socket")
    func controlUnknownMethodBeforeBadParams() async throws {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        #expect(try await control.errorCode("no.such.method", [1, 2]) == -32601)
        #expect(try await control.errorCode("no.such.method", ["enabled": "yes"]) == -32601)
        #expect(try await control.errorCode(Method.servicesSet, [1, 2]) == -32602)
        #expect(try await control.errorCode(Method.servicesSet, ["enabled": "yes"]) == -32602)
    }

    @Test("-32601, then 1003, then -32602 on the app socket")
    func appPrecedence() async throws {
        let hub = try InProcessHub()
        let app = try await hub.connect(.app)
        #expect(try await app.errorCode("no.such.method", [1, 2]) == -32601)
        #expect(try await app.errorCode(Method.authorizationRequest, [1, 2]) == 1003)
        #expect(try await app.errorCode(Method.authorizationRequest, ["level": "sometimes"]) == 1003)
        _ = try await app.call(Method.hello, ["app": "com.example.maps"])
        #expect(try await app.errorCode(Method.authorizationRequest, ["level": "sometimes"]) == -32602)
        #expect(try await app.errorCode(Method.status) == -32601, "a control method is unknown on the app socket")
    }

    @Test("gpsd.uidN is uid N's by its name: another uid's hello with it gets 1009, uid N's opens a session")
    func gpsdUIDNameBelongsToItsUID() async throws {
        let hub = try InProcessHub()
        let squatter = try await hub.connect(.app, uid: 65534)
        #expect(try await squatter.errorCode(Method.hello, ["app": "gpsd.uid1000"]) == 1009)
        let owner = try await hub.connect(.app, uid: 1000)
        _ = try await owner.call(Method.hello, ["app": "gpsd.uid1000"])
        let control = try await hub.connect(.control)
        let owners = try await control.call(Method.permissionsOwners).arrayValue ?? []
        #expect(owners.contains { $0["app"] == "gpsd.uid1000" && $0["uid"] == 1000 }, "the binding is stored as any other: \(owners)")
        let other = try await hub.connect(.app, uid: 65534)
        _ = try await other.call(Method.hello, ["app": "gpsd.uid65534x"])
    }

    @Test("Every method of PROTOCOL (and our additions) is registered on its socket, and only there")
    func tablesMatchTheProtocol() {
        #expect(
            MethodTable.appSocket().names == [
                "activity.authorization", "activity.query", "activity.requestAuthorization", "activity.start", "activity.stop", "activity.transitions.start", "activity.transitions.stop",
                "altimeter.start", "altimeter.stop", "app.update", "authorization.get", "authorization.request",
                "authorization.requestTemporaryFullAccuracy",
                "deviceMotion.start", "deviceMotion.stop",
                "diagnostics.start", "diagnostics.stop",
                "heading.start", "heading.stop",
                "hello", "light.start", "light.stop", "location.lastKnown", "location.once", "location.start",
                "location.stop", "motion.start", "motion.stop",
                "orientation.start", "orientation.stop",
                "pedometer.query", "pedometer.start", "pedometer.stop",
                "posture.start", "posture.stop",
                "proximity.start", "proximity.stop",
                "region.list", "region.monitor", "region.state", "region.stop",
                "satellites.start", "satellites.stop",
                "significantChanges.start", "significantChanges.stop",
                "timeZone.get", "timeZone.start", "timeZone.stop",
                "visits.start", "visits.stop",
            ])
        #expect(
            MethodTable.controlSocket().names == [
                "activity.set",
                "apps.list", "apps.update", "device.rotationLock", "device.set", "gnss.profile",
                "motionPermissions.list", "motionPermissions.set",
                "permissions.explain", "permissions.list", "permissions.owners",
                "permissions.reset", "permissions.set", "permissions.unbind", "prompts.answer", "prompts.list", "prompts.policy", "record.start", "record.stop",
                "regions.add", "regions.list", "regions.remove",
                "replay.pause", "replay.resume", "replay.seek", "replay.start", "replay.status", "replay.step", "replay.stop",
                "services.set", "status", "time.advance", "time.get", "time.reset", "time.set", "timeZone.set", "watch",
            ])
    }

    @Test("Requests sent right behind a first hello find the session open, and are answered after it, in order")
    func pipelinedBehindHello() async throws {
        let hub = try InProcessHub()
        let app = try await hub.connect(.app)
        try await app.send(
            [
                #"{"jsonrpc":"2.0","id":1,"method":"hello","params":{"app":"com.example.pipelined"}}"#,
                #"{"jsonrpc":"2.0","id":2,"method":"authorization.get"}"#,
                #"{"jsonrpc":"2.0","id":3,"method":"location.stop"}"#,
            ].joined(separator: "\n"))
        var ids: [JSONValue] = []
        for _ in 0..<3 {
            let message = try await app.nextMessage()
            #expect(message["error"] == nil, "\(message)")
            ids.append(message["id"] ?? .null)
        }
        #expect(ids == [1, 2, 3])
    }

    // MARK: - RULES L8a

    @Test("L8a: an app cannot bring itself forward after apps.update put it in the background")
    func l8aControlStateHolds() async throws {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": "com.example.maps"])
        _ = try await control.call(Method.permissionsSet, ["app": "com.example.maps", "status": "authorizedWhenInUse"])
        _ = try await app.call(Method.locationStart)
        _ = try await control.call(Method.appsUpdate, ["app": "com.example.maps", "state": "background"])

        let answer = try await app.call(Method.appUpdate, ["state": "foreground"])
        #expect(answer["state"] == "background", "the response says the state in force")
        #expect(try await control.call(Method.appsList).arrayValue?.first?["state"] == "background")
        _ = try await control.call(Method.deviceSet, ["location": ["lat": 48.85, "lon": 2.29]])
        #expect(try await app.call(Method.authorizationGet)["status"] == "authorizedWhenInUse")
        #expect(try await app.drainEvents().allSatisfy { $0.method != Event.location }, "L8: no location in the background")

        // The control side's word changes it, and the app's own change is honoured again
        // only in a new session.
        _ = try await control.call(Method.appsUpdate, ["app": "com.example.maps", "state": "foreground"])
        #expect(try await app.call(Method.appUpdate, ["state": "background"])["state"] == "foreground")
    }

    @Test("L8a: without a word from the control side, app.update moves the app")
    func l8aAppMovesItselfOtherwise() async throws {
        let hub = try InProcessHub()
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": "com.example.maps"])
        #expect(try await app.call(Method.appUpdate, ["state": "background"])["state"] == "background")
        #expect(try await app.call(Method.appUpdate, ["state": "foreground"])["state"] == "foreground")
    }

    // MARK: - Piles: what one client may make the daemon hold

    @Test("A session may have at most 16 authorization.request calls waiting; one more is 1010")
    func waitingAuthorizationRequestsAreBounded() async throws {
        let hub = try InProcessHub()
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": "com.example.maps"])
        for id in 1...16 {
            try await app.send(#"{"jsonrpc":"2.0","id":"w\#(id)","method":"authorization.request","params":{"level":"whenInUse"}}"#)
        }
        #expect(try await app.errorCode(Method.authorizationRequest, ["level": "whenInUse"]) == 1010)
        // The waiting ones are all answered when the prompt is.
        let control = try await hub.connect(.control)
        let prompt = try #require(try await control.call(Method.promptsList).arrayValue?.first)
        _ = try await control.call(Method.promptsAnswer, ["id": prompt["id"]!, "choice": "allowWhileUsing"])
        for id in 1...16 {
            #expect(try await app.response(to: .string("w\(id)"))["result"]?["status"] == "authorizedWhenInUse")
        }
    }

    @Test("location.once: at most 16 wait; each fails with 1006 after the configured time, fractions of a second included")
    func onceWaitersBoundedAndTimedOut() async throws {
        let hub = try InProcessHub { $0.services.location.onceTimeout = .milliseconds(1500) }
        let control = try await hub.connect(.control)
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": "com.example.maps"])
        _ = try await control.call(Method.permissionsSet, ["app": "com.example.maps", "status": "authorizedWhenInUse"])
        for id in 1...16 { try await app.send(#"{"jsonrpc":"2.0","id":\#(id),"method":"location.once"}"#) }
        #expect(try await app.errorCode(Method.locationOnce) == 1010)

        await hub.advance(by: .milliseconds(1400))
        #expect(try await app.channel.readOutbound(as: ByteBuffer.self) == nil, "not yet: 1.5 s, not 1 s")
        await hub.advance(by: .milliseconds(200))
        for id in 1...16 { #expect(try await app.response(to: .int(Int64(id)))["error"]?["code"] == 1006) }
        // Room again once they are gone.
        try await app.send(#"{"jsonrpc":"2.0","id":"again","method":"location.once"}"#)
        _ = try await control.call(Method.deviceSet, ["location": ["lat": 48.85, "lon": 2.29]])
        #expect(try await app.response(to: "again")["result"]?["lat"] == 48.85)
    }

    // MARK: - Numbers from outside

    @Test("device.set: accelerations beyond ±1000 m/s² or not finite are -32602, and the daemon goes on")
    func hugeAccelerationRefused() async throws {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        for bad: JSONValue in [1e308, -1e308, 1001] {
            #expect(try await control.errorCode(Method.deviceSet, ["acceleration": ["x": bad, "y": 0, "z": 9.8]]) == -32602)
        }
        _ = try await control.call(Method.deviceSet, ["acceleration": ["x": 0, "y": 9.8, "z": 0]])
        #expect(try await control.call(Method.status)["sources"] != nil)
    }

    @Test("device.set: a fix is checked field by field as a trace's are (one validator): a negative vAcc is -32602")
    func deviceSetFixValidatedLikeTraces() async throws {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        for (field, bad): (String, JSONValue) in [("vAcc", -1), ("hAcc", -5), ("alt", 1e300), ("speed", -0.1), ("course", 360), ("lat", 91)] {
            var location: [String: JSONValue] = ["lat": 48.85, "lon": 2.29]
            location[field] = bad
            let response = try await control.request(Method.deviceSet, ["location": .object(location)])
            #expect(response["error"]?["code"] == -32602, "\(field)")
            #expect(response["error"]?["message"]?.stringValue?.contains(field) == true, "\(response)")
        }
        #expect(try await control.call(Method.status)["location"] == .null, "nothing was taken")
    }

    @Test("replay.start: a speed outside 0.001…1e6 is -32602 naming the bounds")
    func replaySpeedBounds() async throws {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        for bad: JSONValue in [1e-12, 0, -1, 1e300, "fast"] {
            let response = try await control.request(Method.replayStart, ["path": "/nonexistent", "speed": bad])
            #expect(response["error"]?["code"] == -32602)
            #expect(response["error"]?["message"]?.stringValue?.contains("0.001") == true)
        }
    }
}
