import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// `sextantd --platform` through the real daemon (docs/platforms.md, "The profile"): the
/// phone a state directory plays is stored there, said by `status` and `hello`, and a start
/// that names the other phone on it is refused by name.
@Suite("Platform profile in sextantd")
struct PlatformProfileTests {
    @Test("PF1, PF2: --platform android is said by status and hello, kept across kill -9 without the flag; --platform ios on its state directory is refused naming it; another API level is taken")
    func androidIsStoredAndKept() throws {
        let scratch = try TemporaryDirectory("platform-kept")
        let state = scratch.file("state")
        let android = try DaemonHarness(arguments: ["--platform", "android"], state: state)
        let (_, hello) = try android.app("com.example.maps")
        #expect(hello["platform"] == "android" && hello["androidApi"] == 36, "\(hello)")
        let status = try android.ctl(["status"])
        #expect(status.stdout.contains("Platform:          Android (API 36)"), "\(status.stdout)")
        android.kill9()
        let kept = try DaemonHarness(state: state)
        let shown = try JSONValue.parse(try kept.ctl(["--json", "status"]).stdout)
        #expect(shown["platform"]?["name"] == "android" && shown["platform"]?["androidApi"] == 36, "\(shown)")
        #expect(kept.terminate() == 0)
        let refused = try run(
            [Binaries.sextantd, "--runtime-dir", scratch.file("run"), "--state-dir", state, "--no-gpsd", "--no-iio", "--platform", "ios"])
        #expect(refused.status == 1, "\(refused.stderr)")
        #expect(
            refused.stderr.contains("the state directory \(state) holds the decisions of an android phone: start with --platform android"),
            "\(refused.stderr)")
        let older = try DaemonHarness(arguments: ["--platform", "android", "--android-api", "30"], state: state)
        let (_, olderHello) = try older.app("com.example.maps")
        #expect(olderHello["androidApi"] == 30, "\(olderHello)")
    }

    @Test("PF1: without --platform the phone is iOS; bad --platform and --android-api values are refused naming the flag")
    func iosByDefaultAndBadFlags() throws {
        let daemon = try DaemonHarness()
        let (_, hello) = try daemon.app("com.example.maps")
        #expect(hello["platform"] == "ios" && hello["androidApi"] == nil, "\(hello)")
        let scratch = try TemporaryDirectory("platform")
        let base = [Binaries.sextantd, "--runtime-dir", scratch.file("run"), "--state-dir", scratch.file("state"), "--no-gpsd", "--no-iio"]
        for (flags, message) in [
            (["--platform", "windows"], "--platform windows is not a platform: give ios or android"),
            (["--platform", "android", "--android-api", "28"], "--android-api 28 is not modelled: give 29…36"),
            (["--android-api", "33"], "--android-api applies only to --platform android"),
            (["--platform", "ios", "--android-api", "33"], "--android-api applies only to --platform android"),
        ] {
            let result = try run(base + flags)
            #expect(result.status != 0 && result.stderr.contains(message), "\(flags): \(result.stderr)")
        }
    }

    @Test("PF3: sextantctl permissions explain prints the status, the stored decision, the session and its hidden facets; --json gives the same as permissions.explain")
    func explainPrintsTheWholeState() throws {
        let daemon = try DaemonHarness()
        let (app, _) = try daemon.app("com.example.maps", state: "background")
        #expect(try daemon.ctl(["permissions", "set", "com.example.maps", "authorizedWhenInUse", "--accuracy", "reduced"]).status == 0)
        _ = try app.call(Method.authorizationGet)
        let text = try daemon.ctl(["permissions", "explain", "com.example.maps"])
        #expect(text.status == 0, "\(text.stderr)")
        let lines = text.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == "com.example.maps on iOS", "\(text.stdout)")
        #expect(lines.contains("Status:    authorizedWhenInUse, reduced accuracy"), "\(text.stdout)")
        #expect(lines.contains { $0.hasPrefix("Stored:    authorizedWhenInUse, reduced (") }, "\(text.stdout)")
        #expect(lines.contains { $0.hasPrefix("Session:   1 background for ") }, "\(text.stdout)")
        let json = try JSONValue.parse(try daemon.ctl(["--json", "permissions", "explain", "com.example.maps"]).stdout)
        #expect(json["sessions"]?.arrayValue?.count == 1 && json["timers"] == [] && json["uid"] == .int(Int64(getuid())), "\(json)")
    }

    @Test("PF1: sextantctl run --platform android --android-api 31 runs the command beside an Android phone; a bad level is refused before anything starts")
    func runPlaysAndroid() throws {
        let scratch = try TemporaryDirectory("platform-run")
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = scratch.path
        environment.removeValue(forKey: "SEXTANT_RUNTIME_DIR")
        let result = try run(
            [Binaries.sextantctl, "run", "--platform", "android", "--android-api", "31", "--", Binaries.sextantctl, "status"], environment: environment)
        #expect(result.status == 0 && result.stdout.contains("Platform:          Android (API 31)"), "\(result.stdout)\(result.stderr)")
        let bad = try run([Binaries.sextantctl, "run", "--platform", "android", "--android-api", "99", "--", "/bin/true"], environment: environment)
        #expect(bad.status != 0 && bad.stderr.contains("--android-api 99 is not modelled"), "\(bad.stderr)")
    }
}
