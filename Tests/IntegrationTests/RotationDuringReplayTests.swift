import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// Turning the device by hand while a replay plays, through the real daemon and every face
/// that shows it: app.sock's events, `rotate --wait`, `status`, and iio-sensor-proxy's face
/// on D-Bus read by the real monitor-sensor (RULES O4a, issue 24.1).
@Suite("Rotation by hand during a replay, through the real daemon", .serialized)
struct RotationDuringReplayTests {
    /// Two minutes of a phone upright in portrait, accelerometer at 50 Hz, with a fix each
    /// second: a walk that never turns on its own.
    static func uprightWalk(_ daemon: DaemonHarness) throws -> String {
        var lines = [#"{"sextant":"trace","version":1,"start":"2026-03-01T08:00:00.000Z","profile":"phone"}"#]
        for index in 0..<6000 {
            let t = String(format: "%.2f", Double(index) * 0.02)
            if index % 50 == 0 { lines.append(#"{"t":\#(t),"location":{"lat":48.8558,"lon":2.2983,"hAcc":5}}"#) }
            lines.append(#"{"t":\#(t),"accel":{"x":0.2,"y":9.8,"z":0.3}}"#)
        }
        return try daemon.write("upright.jsonl", lines.joined(separator: "\n") + "\n")
    }

    /// The replay's samples played so far.
    static func played(_ daemon: DaemonHarness) throws -> Int {
        try daemon.control().call(Method.status)["replay"]?["events"]?.intValue ?? 0
    }

    @Test("issue 24.1: rotate --wait during a replay returns, the app turns, status shows it; accel release gives the replay back")
    func rotateDuringReplay() throws {
        let daemon = try DaemonHarness()
        let (app, _) = try daemon.app("com.example.game")
        _ = try app.call(Method.orientationStart)
        #expect(try daemon.ctl(["replay", "start", try Self.uprightWalk(daemon)]).status == 0)
        _ = try app.nextEvent(timeout: 15, description: "the replay's portrait") {
            $0.method == Event.deviceOrientation && $0.params["orientation"] == "portrait"
        }

        let upsideDown = try daemon.ctl(["rotate", "portraitUpsideDown", "--wait"])
        #expect(upsideDown.status == 0, "\(upsideDown.stderr)")
        _ = try app.nextEvent(timeout: 10, description: "portraitUpsideDown") {
            $0.method == Event.deviceOrientation && $0.params["orientation"] == "portraitUpsideDown"
        }
        #expect(try daemon.ctl(["rotate", "landscapeLeft", "--wait"]).status == 0)
        _ = try app.nextEvent(timeout: 10, description: "the interface turned") {
            $0.method == Event.interfaceOrientation && $0.params["orientation"] == "landscapeRight"
        }
        // While the hand holds, the replay plays on (a hundred more samples: two seconds)
        // and is not heard.
        let mark = try Self.played(daemon)
        try daemon.waitForStatus("100 more samples played") { ($0["replay"]?["events"]?.intValue ?? 0) >= mark + 100 }
        _ = try app.call(Method.authorizationGet)  // a barrier: every event sent before it is read
        #expect(try app.takeEvents().filter { $0.method == Event.deviceOrientation }.isEmpty)
        let status = try daemon.ctl(["status"]).stdout
        #expect(status.contains("Device:            landscapeLeft"), "\(status)")
        #expect(status.contains("manual (active), replay (running)"), "\(status)")

        #expect(try daemon.ctl(["accel", "release"]).status == 0)
        _ = try app.nextEvent(timeout: 10, description: "the replay's portrait again") {
            $0.method == Event.deviceOrientation && $0.params["orientation"] == "portrait"
        }
        _ = try app.nextEvent(timeout: 10, description: "the interface back") {
            $0.method == Event.interfaceOrientation && $0.params["orientation"] == "portrait"
        }
    }

    @Test("issue 24.1, P1–P4: sextantctl hinge holds over a replay of a foldable lying flat; hinge release gives it back")
    func hingeDuringReplay() throws {
        let daemon = try DaemonHarness(arguments: ["--profile", "foldable"])
        let (app, _) = try daemon.app("com.example.reader")
        _ = try app.call(Method.postureStart)
        let lines = (0..<1200).map { #"{"t":\#(Double($0) / 10),"hinge":{"angle":180}}"# }
        let trace = try daemon.write("flat.jsonl", ([#"{"sextant":"trace","version":1,"start":"2026-03-01T08:00:00.000Z"}"#] + lines).joined(separator: "\n") + "\n")
        #expect(try daemon.ctl(["replay", "start", trace]).status == 0)
        for (command, state) in [([String](), "flat"), (["hinge", "90"], "halfOpened"), (["hinge", "release"], "flat")] {
            if !command.isEmpty { #expect(try daemon.ctl(command).status == 0) }
            _ = try app.nextEvent(timeout: 10, description: "posture \(state)") { $0.method == Event.posture && $0.params["state"]?.stringValue == state }
            if state == "halfOpened" {
                let mark = try Self.played(daemon)
                try daemon.waitForStatus("20 more samples played") { ($0["replay"]?["events"]?.intValue ?? 0) >= mark + 20 }
                #expect(try daemon.control().call(Method.status)["posture"]?["state"] == "halfOpened", "the replay's 180° is not heard")
            }
        }
    }

    @Test("issue 24.1 over D-Bus: monitor-sensor shows a turn by hand during a replay, and the replay's orientation after release")
    func monitorSensorDuringReplay() throws {
        let bus = try DBusTestBus()
        let daemon = try DaemonHarness(arguments: ["--dbus", bus.restartableAddress, "--no-gpsd", "--no-iio"])
        try bus.waitForName(DBusSensorProxyTests.name)
        let monitor = try LineReader(["/usr/bin/monitor-sensor"], environment: bus.systemBusEnvironment)
        let first = try #require(monitor.waitForLine { $0.contains("=== Has accelerometer") }, "\(monitor.allLines)")
        #expect(try daemon.ctl(["replay", "start", try Self.uprightWalk(daemon)]).status == 0)
        var index = first.index
        for (step, expected) in [("the replay", "normal"), ("rotate landscapeLeft", "right-up"), ("accel release", "normal")] {
            switch step {
            case "rotate landscapeLeft": #expect(try daemon.ctl(["rotate", "landscapeLeft"]).status == 0)
            case "accel release": #expect(try daemon.ctl(["accel", "release"]).status == 0)
            default: break
            }
            let next = try #require(DBusSensorProxyTests.nextOrientation(monitor, after: index), "after \(step): \(monitor.allLines)")
            #expect(next.orientation == expected, "after \(step)")
            index = next.index
        }
        _ = bus
    }
}
