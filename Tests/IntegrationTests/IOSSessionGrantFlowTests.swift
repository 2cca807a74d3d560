import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// `sextantctl permissions set --once / --temporary-full-accuracy` against the real sextantd,
/// and what `sextantctl apps` and `permissions list` print of the hidden facets
/// (docs/platforms.md L5, I2, I8, I9).
@Suite("iOS session grants through sextantctl")
struct IOSSessionGrantFlowTests {
    static let app = "com.example.shop"

    @Test("L5, I9: --temporary-full-accuracy and --once set mid-flow; apps and permissions list print them; time advance past G reverts Allow Once")
    func testL5_I9_sessionGrantsThroughSextantctl() throws {
        let daemon = try DaemonHarness()
        let app = try SextantConnection.app(runtimeDirectory: daemon.runtime)
        _ = try app.call(Method.hello, ["app": .string(Self.app), "temporaryUsageDescriptions": ["route": "Turn by turn"]])
        let full = try daemon.ctl(["permissions", "set", Self.app, "authorizedWhenInUse", "--accuracy", "reduced", "--temporary-full-accuracy", "route"])
        #expect(full.status == 0 && full.stdout.contains("(temporary full accuracy: route)"), "\(full.stdout)\(full.stderr)")
        #expect(try app.call(Method.authorizationGet)["accuracy"] == "full")
        let apps = try daemon.ctl(["apps", "list"])
        #expect(apps.stdout.contains("authorizedWhenInUse/full (temporary full accuracy: route)"), "\(apps.stdout)")
        let undeclared = try daemon.ctl(["permissions", "set", Self.app, "authorizedWhenInUse", "--temporary-full-accuracy", "other"])
        #expect(undeclared.status != 0 && undeclared.stderr.contains("not in \(Self.app)'s temporaryUsageDescriptions"), "\(undeclared.stderr)")

        let once = try daemon.ctl(["permissions", "set", Self.app, "authorizedWhenInUse", "--once"])
        #expect(once.status == 0 && once.stdout.contains("(allowOnce)"), "\(once.stdout)\(once.stderr)")
        #expect(try daemon.ctl(["permissions", "list"]).stdout.contains("allowOnce"))
        #expect(try daemon.ctl(["apps", "list"]).stdout.contains("(allowOnce)"))
        _ = try app.call(Method.appUpdate, ["state": "background"])
        #expect(try daemon.ctl(["time", "advance", "11s"]).status == 0)
        #expect(try app.call(Method.authorizationGet)["status"] == "notDetermined", "I8: G = 10 s passed")
        let none = try daemon.ctl(["permissions", "set", "com.example.gone", "authorizedWhenInUse", "--once"])
        #expect(none.status != 0 && none.stderr.contains("no live session"), "\(none.stderr)")
    }

    @Test("I13: sextantctl watch --topic diagnostics shows the flags of an app that did not ask for them")
    func testI13_watchShowsDiagnostics() throws {
        let daemon = try DaemonHarness()
        let (app, _) = try daemon.app(Self.app)
        let watcher = try daemon.watch(["--topic", "diagnostics"])
        // A flag changed until a line shows.
        let shown = try #require(
            try watcher.firstLine { attempt throws in
                #expect(try daemon.ctl(["permissions", "set", Self.app, attempt % 2 == 0 ? "denied" : "authorizedWhenInUse"]).status == 0)
            })
        #expect(shown.contains("\(Self.app)#") && shown.contains("diagnostics"), "\(shown)")
        #expect(shown.contains("authorizationDenied") || shown.contains("none raised"), "\(shown)")
        _ = try app.call(Method.authorizationGet)
    }
}
