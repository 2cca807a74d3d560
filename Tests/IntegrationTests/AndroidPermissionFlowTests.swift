import Foundation
import SextantClient
import SextantProtocol
import Testing

/// The Android profile's permission flows end to end (docs/platforms.md AN rules): the real
/// `sextantd --platform android`, its app socket, and sextantctl answering and setting.
@Suite("Android permissions through the real daemon")
struct AndroidPermissionFlowTests {
    static let app = "com.example.android"

    /// Asks for coarse+fine and returns the request and the dialog's id, as sextantctl lists it.
    static func ask(_ app: SextantConnection, _ control: SextantConnection) throws -> (JSONValue, String) {
        let request = try app.send(Method.authorizationRequest, ["permissions": ["coarse", "fine"]])
        let prompt = try control.nextEvent(timeout: 10, description: "the Android dialog") { $0.method == Event.prompt }
        #expect(prompt.params["kind"] == "androidLocation")
        return (request, try #require(prompt.params["id"]?.stringValue))
    }

    @Test("AN3, AN5, AN15, AN17, AN19: dialog answered by sextantctl; two denials make it don't ask again until reset; Approximate gives coarse only; Settings' Allow all the time survives kill -9")
    func dialogDenialsResetAndSettings() throws {
        let daemon = try DaemonHarness(arguments: ["--platform", "android", "--android-api", "33"])
        let (app, _) = try daemon.app(Self.app)
        let control = try daemon.control()
        _ = try control.call(Method.watch, ["topics": ["prompt"]])
        for _ in 1...2 {
            let (request, id) = try Self.ask(app, control)
            let answered = try daemon.ctl(["prompts", "answer", id, "dontAllow"])
            #expect(answered.status == 0, "\(answered.stderr)")
            #expect(try app.response(to: request)["status"] == "denied")
        }
        let fixed = try app.call(Method.authorizationRequest, ["permissions": ["coarse", "fine"]])
        #expect(fixed["status"] == "denied" && fixed["grants"]?["coarse"] == "denied", "\(fixed)")
        #expect(try daemon.ctl(["permissions", "reset", Self.app]).status == 0)

        let (request, id) = try Self.ask(app, control)
        let answered = try daemon.ctl(["prompts", "answer", id, "whileUsing", "--approximate", "--json"])
        #expect(answered.status == 0, "\(answered.stderr)")
        let given = try app.response(to: request)
        #expect(given["status"] == "authorizedWhenInUse" && given["accuracy"] == "reduced", "\(given)")
        #expect(given["grants"] == ["coarse": "granted", "fine": "denied", "background": "denied"], "\(given)")

        let set = try daemon.ctl(["permissions", "set", Self.app, "--grant", "coarse,fine,background"])
        #expect(set.status == 0 && set.stdout.contains("granted: coarse, fine, background"), "\(set.stdout) \(set.stderr)")
        let always = try app.nextEvent(timeout: 5, description: "authorizedAlways") {
            $0.method == Event.authorization && $0.params["status"] == "authorizedAlways"
        }
        #expect(always.params["accuracy"] == "full" && always.params["grants"]?["background"] == "granted")

        daemon.kill9()
        try daemon.restart()
        let (reopened, hello) = try daemon.app(Self.app)
        #expect(hello["authorization"]?["status"] == "authorizedAlways", "\(hello)")
        #expect(try reopened.call(Method.authorizationGet)["grants"]?["fine"] == "granted")
        let refused = try daemon.ctl(["permissions", "set", Self.app, "--grant", "fine"])
        #expect(refused.status != 0 && refused.stderr.contains("granted with coarse"), "\(refused.stderr)")
    }
}
