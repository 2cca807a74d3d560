import Foundation
import SextantProtocol
import Testing

/// The permission model through app.sock and control.sock, in process on virtual time (the
/// prompt answered through sextantctl stays in Tests/IntegrationTests/AuthorizationFlowTests).
@Suite("Authorization, in process", .timeLimit(.minutes(1)))
struct AuthorizationHubTests {
    /// Sends `authorization.request` without waiting for its answer; returns its id.
    static func ask(_ app: TestClient, level: String = "whenInUse", id: String = "ask") async throws -> JSONValue {
        try await app.send(#"{"jsonrpc":"2.0","id":"\#(id)","method":"authorization.request","params":{"level":"\#(level)"}}"#)
        return .string(id)
    }

    @Test("L5: allowOnce reverts when the app has been in the background longer than the limit")
    func allowOnceExpiresInBackground() async throws {
        let hub = try InProcessHub { $0.allowOnceBackgroundLimit = .seconds(1) }
        let control = try await hub.connect(.control)
        _ = try await control.call(Method.promptsPolicy, ["mode": "allowOnce"])
        let (app, _) = try await hub.app("com.example.once")
        #expect(try await app.call(Method.authorizationRequest, ["level": "whenInUse"])["status"] == "authorizedWhenInUse")
        let listed = try await control.call(Method.permissionsList).arrayValue?.first
        #expect(listed?["allowOnce"] == true && listed?["status"] == "authorizedWhenInUse")
        _ = try await app.settled()

        try await control.setState("com.example.once", "background")
        await hub.advance(by: .milliseconds(900))
        let early = try await app.settled()
        #expect(early.isEmpty, "not before the limit: \(early)")
        await hub.advance(by: .milliseconds(200))
        #expect(try await app.drained(Event.authorization).map { $0["status"] } == ["notDetermined"])
        #expect(try await control.call(Method.permissionsList).arrayValue?.isEmpty == true)
    }

    @Test("L5: allowOnce ends with the app session and is never stored")
    func allowOnceEndsWithSession() async throws {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        _ = try await control.call(Method.promptsPolicy, ["mode": "allowOnce"])
        let (first, _) = try await hub.app("com.example.once")
        #expect(try await first.call(Method.authorizationRequest, ["level": "whenInUse"])["status"] == "authorizedWhenInUse")
        try await first.channel.close()
        _ = try await control.call(Method.promptsPolicy, ["mode": "ask"])
        let (_, hello) = try await hub.app("com.example.once")
        #expect(hello["authorization"]?["status"] == "notDetermined")
    }

    @Test("L6: going to the background cancels an open prompt; the request returns notDetermined")
    func backgroundCancelsPrompt() async throws {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        let (app, _) = try await hub.app("com.example.cancel")
        let request = try await Self.ask(app)
        #expect(try await control.call(Method.promptsList).arrayValue?.count == 1)
        try await app.send(#"{"jsonrpc":"2.0","id":"hide","method":"app.update","params":{"state":"background"}}"#)
        #expect(try await app.response(to: request)["result"]?["status"] == "notDetermined")
        #expect(try await control.call(Method.promptsList).arrayValue?.isEmpty == true)
    }

    @Test("L4: a request from the background waits for the foreground")
    func backgroundRequestWaits() async throws {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        let (app, _) = try await hub.app("com.example.later", state: "background")
        let request = try await Self.ask(app)
        #expect(try await control.call(Method.promptsList).arrayValue?.isEmpty == true)
        try await control.setState("com.example.later", "foreground")
        let prompt = try #require(try await control.call(Method.promptsList).arrayValue?.first)
        _ = try await control.call(Method.promptsAnswer, ["id": prompt["id"] ?? .null, "choice": "dontAllow"])
        #expect(try await app.response(to: request)["result"]?["status"] == "denied")
    }

    @Test("L8: a when-in-use stream pauses in the background and resumes in the foreground")
    func whenInUsePausesInBackground() async throws {
        let hub = try InProcessHub()
        let (control, app, _) = try await hub.grantedApp("com.example.walk", subscribe: [Method.locationStart])
        try await control.setLocation(10, 20)
        #expect(try await app.drained(Event.location).map { $0["lat"] } == [10])
        try await control.setState("com.example.walk", "background")
        try await control.setLocation(11, 20)
        #expect(try await app.drained(Event.location).isEmpty)
        try await control.setState("com.example.walk", "foreground")
        try await control.setLocation(12, 20)
        #expect(try await app.drained(Event.location).map { $0["lat"] } == [12])
    }

    @Test("L8: authorizedAlways keeps delivering in the background")
    func alwaysDeliversInBackground() async throws {
        let hub = try InProcessHub()
        let (control, app, _) = try await hub.grantedApp("com.example.run", always: true, state: "background", subscribe: [Method.locationStart])
        try await control.setLocation(1, 2)
        #expect(try await app.drained(Event.location).map { $0["lon"] } == [2])
    }

    @Test("L2 L3 1001: an app without authorization gets no location and no prompt by reading")
    func unauthorizedGetsNothing() async throws {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        let (app, _) = try await hub.app("com.example.nosy")
        #expect(try await app.call(Method.authorizationGet)["status"] == "notDetermined")
        #expect(try await control.call(Method.promptsList).arrayValue?.isEmpty == true)
        #expect(try await app.errorCode(Method.locationStart) == 1001)
        #expect(try await app.errorCode(Method.locationOnce) == 1001)
        _ = try await control.call(Method.permissionsSet, ["app": "com.example.nosy", "status": "restricted"])
        #expect(try await app.call(Method.authorizationRequest, ["level": "whenInUse"])["status"] == "restricted")
        // Apps can never change permissions: the control methods do not exist on the app socket.
        #expect(try await app.errorCode(Method.permissionsSet, ["app": "com.example.nosy", "status": "authorizedAlways"]) == -32601)
    }
}
