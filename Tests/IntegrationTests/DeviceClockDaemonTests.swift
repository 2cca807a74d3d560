import Foundation
import SextantClient
import SextantProtocol
import Testing

/// The device's clock through the real `sextantd` and `sextantctl` (docs/platforms.md C3,
/// C6, C8, C9): time travel from the command line, with the daemon's default 60 s limit.
@Suite("The device's clock in sextantd")
struct DeviceClockDaemonTests {
    @Test("C6: sextantctl time advance 61s revokes an Allow Once grant in the background at once (the limit set to 60 s); 30s does not")
    func advanceRevokesAllowOnce() throws {
        let daemon = try DaemonHarness(arguments: ["--prompt-policy", "allowOnce", "--allow-once-timeout", "60"])
        let (app, _) = try daemon.app("com.example.once")
        #expect(try app.call(Method.authorizationRequest, ["level": "whenInUse"])["status"] == "authorizedWhenInUse")
        #expect(try daemon.ctl(["apps", "background", "com.example.once"]).status == 0)

        let half = try daemon.ctl(["time", "advance", "30s"])
        #expect(half.status == 0 && half.stdout.contains("host + 30 s; monotonic + 30 s"), "\(half.stdout)\(half.stderr)")
        #expect(try app.call(Method.authorizationGet)["status"] == "authorizedWhenInUse")

        let started = Date()
        #expect(try daemon.ctl(["time", "advance", "31s"]).status == 0)
        // The timer fired before sextantctl's call was answered: the event is already on its way.
        let reverted = try app.nextEvent(timeout: 10, description: "the grant to lapse") {
            $0.method == Event.authorization && $0.params["status"] == "notDetermined"
        }
        #expect(reverted.params["status"] == "notDetermined")
        #expect(Date().timeIntervalSince(started) < 30, "no waiting for the host's 60 s")
    }

    @Test("C4 C5 C8 C9: time set, time, time reset; bad input names the parameter; a restart is on host time")
    func setShowResetAndRefuse() throws {
        let daemon = try DaemonHarness()
        let set = try daemon.ctl(["time", "set", "2026-12-01T10:00:00Z"])
        #expect(set.status == 0 && set.stdout.contains("Device time: 2026-12-01T10:00:00"), "\(set.stdout)\(set.stderr)")
        let shown = try JSONValue.parse(try daemon.ctl(["--json", "time"]).stdout)
        #expect(shown["wall"]?.stringValue?.hasPrefix("2026-12-01T10:00") == true, "\(shown)")
        let bad = try daemon.ctl(["time", "set", "someday"])
        #expect(bad.status == 1 && bad.stderr.contains("\"wall\""), "\(bad.stderr)")
        let badDuration = try daemon.ctl(["time", "advance", "5w"])
        #expect(badDuration.status == 64 && badDuration.stderr.contains("DURATION"), "\(badDuration.stderr)")
        daemon.kill9()
        try daemon.restart()
        let after = try JSONValue.parse(try daemon.ctl(["--json", "time"]).stdout)
        #expect(after["offsetSeconds"] == 0 && after["monotonicOffsetSeconds"] == 0, "C9: not stored, \(after)")
        let reset = try daemon.ctl(["--json", "time", "reset"])
        #expect(try JSONValue.parse(reset.stdout)["offsetSeconds"] == 0)
    }
}
