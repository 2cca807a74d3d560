import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

@Suite("The manual source")
struct ManualSourceTests {
    @Test("location set takes southern and western (negative) coordinates and publishes them as given")
    func negativeCoordinates() throws {
        let daemon = try DaemonHarness()
        #expect(try daemon.ctl(["permissions", "grant", "com.example.maps"]).status == 0)
        let (app, _) = try daemon.app("com.example.maps")
        _ = try app.call(Method.locationStart)
        let result = try daemon.ctl(["location", "set", "-33.8568", "-70.6483", "--alt", "520", "--accuracy", "8"])
        #expect(result.status == 0, "\(result.stderr)")
        let fix = try app.nextEvent(timeout: 10, description: "a location") { $0.method == Event.location }.params
        #expect(fix["lat"]?.doubleValue == -33.8568 && fix["lon"]?.doubleValue == -70.6483)
        #expect(fix["alt"]?.doubleValue == 520 && fix["hAcc"]?.doubleValue == 8)
        #expect(try daemon.ctl(["location", "set", "-33.8568"]).status != 0)
    }

    @Test("issue 24.5: location set confirms the fix the daemon took: ±5m by default, the given accuracy otherwise")
    func confirmsTakenFix() throws {
        let daemon = try DaemonHarness()
        let defaulted = try daemon.ctl(["location", "set", "48.8566", "2.3522"])
        #expect(defaulted.status == 0 && defaulted.stdout.contains("±5m"), "\(defaulted.stdout)\(defaulted.stderr)")
        let given = try daemon.ctl(["location", "set", "48.8566", "2.3522", "--accuracy", "12"])
        #expect(given.stdout.contains("±12m"), "\(given.stdout)")
        let json = try JSONValue.parse(try daemon.ctl(["--json", "location", "set", "48.8566", "2.3522"]).stdout)
        #expect(json["location"]?["hAcc"]?.doubleValue == 5 && json["location"]?["time"] != nil, "\(json)")
    }

    @Test("issue 43.11: --accuracy -3 is refused naming --accuracy (not 'Missing value'), by location set, heading set and location route")
    func negativeAccuracyRefused() throws {
        let daemon = try DaemonHarness()
        for command in [["location", "set", "-33.8", "151.2"], ["heading", "set", "45"], ["location", "route", "48.85,2.29", "48.86,2.30"]] {
            let result = try daemon.ctl(command + ["--accuracy", "-3"])
            #expect(result.status != 0 && result.stderr.contains("--accuracy must be 0 or more"), "\(command): \(result.stderr)")
            #expect(!result.stderr.contains("Missing value"), "\(command): \(result.stderr)")
        }
        #expect(try daemon.control().call(Method.status)["held"] == [], "nothing held")
    }

    @Test("issue 43.11: status shows a fix's accuracy to 0.1 m, as watch and location set do")
    func statusRoundsAccuracy() throws {
        let daemon = try DaemonHarness()
        let set = try daemon.ctl(["location", "set", "48.8566", "2.3522", "--accuracy", "3.64108"])
        #expect(set.stdout.contains("±3.6m"), "\(set.stdout)\(set.stderr)")
        let status = try daemon.ctl(["status"]).stdout
        #expect(status.contains("±3.6m") && !status.contains("3.64108"), "\(status)")
    }

    @Test("sextantctl takes --runtime-dir and --json before the command too, and SEXTANT_RUNTIME_DIR instead of --runtime-dir")
    func commonOptionsAnywhere() throws {
        let daemon = try DaemonHarness()
        let before = try run([Binaries.sextantctl, "--runtime-dir", daemon.runtime, "--json", "status"])
        #expect(before.status == 0, "\(before.stderr)")
        #expect(try JSONValue.parse(before.stdout.trimmingCharacters(in: .whitespacesAndNewlines))["sessions"] == 0)
        var environment = ProcessInfo.processInfo.environment
        environment["SEXTANT_RUNTIME_DIR"] = daemon.runtime
        let fromEnvironment = try run([Binaries.sextantctl, "status"], environment: environment)
        #expect(fromEnvironment.status == 0 && fromEnvironment.stdout.contains("Location Services: on"), "\(fromEnvironment.stderr)")
    }
}
