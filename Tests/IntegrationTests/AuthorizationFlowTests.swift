import Foundation
import SextantClient
import SextantProtocol
import Testing

/// A prompt answered through sextantctl, end to end: the real daemon, its sockets, and
/// sextantctl's commands and output. The rest of the permission model (L1–L11) is tested in
/// process: Tests/SextantServerTests/AuthorizationHubTests and AuthorizationStreamHubTests.
@Suite("Authorization through the real daemon")
struct AuthorizationFlowTests {
    @Test("L4 L5 L12: a prompt answered through sextantctl gives the pending request its status")
    func promptAnsweredThroughSextantctl() throws {
        let daemon = try DaemonHarness()
        let (app, hello) = try daemon.app("com.example.maps")
        #expect(hello["authorization"]?["status"] == "notDetermined")
        #expect(hello["protocol"] == 1)

        let control = try daemon.control()
        _ = try control.call(Method.watch, ["topics": ["prompt"]])
        let request = try app.send(Method.authorizationRequest, ["level": "whenInUse"])
        let prompt = try control.nextEvent(timeout: 10, description: "the prompt") { $0.method == Event.prompt }
        let id = try #require(prompt.params["id"]?.stringValue)

        // A pending request blocks nothing else on the same connection.
        #expect(try app.call(Method.authorizationGet)["status"] == "notDetermined")
        #expect(try !app.hasResponse(to: request))

        let listed = try daemon.ctl(["prompts", "list", "--json"])
        #expect(listed.status == 0)
        let prompts = try JSONValue.parse(listed.stdout)
        #expect(prompts.arrayValue?.first?["id"]?.stringValue == id)
        #expect(prompts.arrayValue?.first?["kind"] == "authorization")
        #expect(prompts.arrayValue?.first?["level"] == "whenInUse")

        let answered = try daemon.ctl(["prompts", "answer", id, "allowWhileUsing", "--json"])
        #expect(answered.status == 0, "\(answered.stderr)")
        #expect(try JSONValue.parse(answered.stdout)["status"] == "authorizedWhenInUse")

        let decided = try app.response(to: request)
        #expect(decided["status"] == "authorizedWhenInUse")
        #expect(decided["accuracy"] == "full")
        let event = try app.nextEvent(timeout: 5, description: "authorization event") { $0.method == Event.authorization }
        #expect(event.params["status"] == "authorizedWhenInUse")

        let list = try JSONValue.parse(try daemon.ctl(["permissions", "list", "--json"]).stdout)
        #expect(list.arrayValue?.count == 1)
        #expect(list.arrayValue?.first?["app"] == "com.example.maps")
        #expect(list.arrayValue?.first?["allowOnce"] == false)

        // L4: the app had its prompt this session; asking again answers at once. (Asking for
        // Always from When-In-Use would prompt at once: docs/platforms.md I5.)
        #expect(try app.call(Method.authorizationRequest, ["level": "whenInUse"])["status"] == "authorizedWhenInUse")

        // Answering a prompt that is gone is 1005.
        let again = try daemon.ctl(["prompts", "answer", id, "dontAllow"])
        #expect(again.status != 0)
        #expect(again.stderr.contains("1005"))
    }
}
