import Foundation
import SextantClient
import SextantProtocol
import Testing

/// The iOS upgrade prompt end to end: the real sextantd, its sockets and sextantctl
/// (docs/platforms.md I2–I4, I6).
@Suite("iOS provisional Always through the real daemon")
struct IOSUpgradeFlowTests {
    static let app = "com.example.shop"

    @Test("I2 I3 I4 I6: provisional Always set with sextantctl, a region entry in the background raises the upgrade prompt, keepWhileUsing sends authorizedWhenInUse; the facets survive kill -9")
    func testI4_provisionalAlwaysUpgradeKeptThroughSextantctl() throws {
        let daemon = try DaemonHarness()
        let set = try daemon.ctl(["permissions", "set", Self.app, "authorizedAlways", "--provisional"])
        #expect(set.status == 0 && set.stdout.contains("authorizedAlways (provisional: While Using)"), "\(set.stdout)\(set.stderr)")
        // Launched in the background (as iOS relaunches an app for a region): never in use (I8).
        let (app, hello) = try daemon.app(Self.app, state: "background")
        #expect(hello["authorization"]?["status"] == "authorizedAlways", "the app reads Always")
        _ = try app.call(Method.regionMonitor, ["identifier": "shop", "lat": 48.0, "lon": 2.0, "radius": 100])
        let control = try daemon.control()
        _ = try control.call(Method.watch, ["topics": ["prompt"]])
        #expect(try daemon.ctl(["location", "set", "48.01", "2.0"]).status == 0)
        #expect(try daemon.ctl(["location", "set", "48.0", "2.0"]).status == 0)
        let prompt = try control.nextEvent(timeout: 10, description: "the upgrade prompt") { $0.method == Event.prompt }
        #expect(prompt.params["kind"] == "alwaysUpgrade" && prompt.params["app"] == .string(Self.app))
        let id = try #require(prompt.params["id"]?.stringValue)

        let wrong = try daemon.ctl(["prompts", "answer", id, "allowWhileUsing"])
        #expect(wrong.status != 0 && wrong.stderr.contains("keepWhileUsing or changeToAlways"), "\(wrong.stderr)")
        let kept = try daemon.ctl(["prompts", "answer", id, "keepWhileUsing", "--json"])
        #expect(kept.status == 0, "\(kept.stderr)")
        #expect(try JSONValue.parse(kept.stdout)["status"] == "authorizedWhenInUse")
        let event = try app.nextEvent(timeout: 10, description: "the authorization event") { $0.method == Event.authorization || $0.method == Event.region }
        #expect(event.method == Event.authorization && event.params["status"] == "authorizedWhenInUse", "the held entry is dropped: \(event)")

        daemon.kill9()
        try daemon.restart()
        let list = try JSONValue.parse(try daemon.ctl(["permissions", "list", "--json"]).stdout).arrayValue ?? []
        let entry = list.first { $0["app"] == .string(Self.app) }
        #expect(entry?["status"] == "authorizedWhenInUse" && entry?["provisional"] == nil && entry?["alwaysAsked"] == true, "\(list)")
        // I6: the install had its Always request: asking again changes nothing.
        let (again, _) = try daemon.app(Self.app)
        #expect(try again.call(Method.authorizationRequest, ["level": "always"])["status"] == "authorizedWhenInUse")
    }
}
