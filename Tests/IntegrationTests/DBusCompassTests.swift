import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// iio-sensor-proxy's Compass (`net.hadess.SensorProxy.Compass`) read by the real
/// monitor-sensor beside app.sock's `heading` events, on the same replayed magnetometer
/// trace, then with the field held by hand over it (issue 21, issue 24.1, RULES H1, O4a).
/// monitor-sensor watches the compass only when run as the user `geoclue` (as
/// iio-sensor-proxy lets only GeoClue claim it), so the bus is a system-type one that
/// other users may join.
@Suite(
    "D-Bus: iio-sensor-proxy's Compass with the real monitor-sensor, side by side with app.sock", .serialized,
    .requires(.root("monitor-sensor runs as the user geoclue to watch the compass")))
struct DBusCompassTests {
    static let name = "net.hadess.SensorProxy"

    /// A device lying flat whose top turns to each heading, one magnet sample a second, then
    /// the last heading held for a minute: the replay still plays while a hand holds.
    static func turns(_ daemon: DaemonHarness, _ headings: [Double]) throws -> String {
        var lines = [
            #"{"sextant":"trace","version":1,"start":"2026-03-01T08:00:00.000Z"}"#,
            #"{"t":0,"location":{"lat":48.85,"lon":2.29}}"#, #"{"t":0,"accel":{"x":0,"y":0,"z":9.81}}"#,
        ]
        let held = Array(repeating: headings.last ?? 0, count: 60)
        for (i, heading) in (headings + held).enumerated() {
            let a = heading * .pi / 180
            lines.append(#"{"t":\#(i + 1),"magnet":{"x":\#(-20 * sin(a)),"y":\#(20 * cos(a)),"z":-40}}"#)
        }
        return try daemon.write("turns.jsonl", lines.joined(separator: "\n") + "\n")
    }

    /// monitor-sensor's report of a heading: `Compass heading changed: X`.
    static func reported(_ line: String) -> Double? {
        line.range(of: "Compass heading changed: ").flatMap { Double(line[$0.upperBound...].trimmingCharacters(in: .whitespaces)) }
    }

    /// The next `count` distinct headings monitor-sensor reports after line `index`.
    static func monitorHeadings(_ monitor: LineReader, after index: inout Int, count: Int) -> [Double] {
        var headings: [Double] = []
        while headings.count < count, let next = monitor.waitForLine(from: index + 1, where: { reported($0) != nil }) {
            index = next.index
            headings.append(reported(next.line)!)
        }
        return headings
    }

    /// The next `count` headings app.sock's `heading` events carry after `previous`, repeats
    /// of the one before left out (the D-Bus property changes only when its value does).
    static func appHeadings(_ app: SextantConnection, after previous: Double? = nil, count: Int) throws -> [Double] {
        var headings: [Double] = []
        var last = previous
        while headings.count < count {
            let event = try app.nextEvent(timeout: 15, description: "heading \(headings.count + 1) of \(count)") { $0.method == Event.heading }
            let magnetic = try #require(event.params["magnetic"]?.doubleValue)
            if last != magnetic { headings.append(magnetic) }
            last = magnetic
        }
        return headings
    }

    @Test("issue 21: the same replayed field gives the same headings on app.sock and in monitor-sensor; a field by hand (O4a) reaches both and its release gives the replay back")
    func compassSideBySide() throws {
        let scratch = try TemporaryDirectory("compass", mode: 0o755)
        let (bus, address) = try DBusDeploymentTests.systemTypeBus(scratch.path)
        defer { bus.stop() }
        let daemon = try DaemonHarness(arguments: ["--dbus", address, "--no-gpsd", "--no-iio"])
        try daemon.waitForStatus("the names held") { $0["dbus"]?["names"]?.arrayValue?.contains(.string(Self.name)) == true }
        let geoclue = try #require(getpwnam("geoclue")?.pointee, "the user geoclue (Debian's geoclue-2.0 makes it)")
        let environment = ProcessInfo.processInfo.environment.merging(["DBUS_SYSTEM_BUS_ADDRESS": address]) { $1 }
        let monitor = try LineReader(
            ["/usr/bin/setpriv", "--reuid=\(geoclue.pw_uid)", "--regid=\(geoclue.pw_gid)", "--clear-groups", "/usr/bin/monitor-sensor"],
            environment: environment)
        defer { monitor.stop() }
        let has = try #require(monitor.waitForLine { $0.contains("=== Has compass") || $0.contains("=== No compass") }, "\(monitor.allLines)")
        #expect(has.line.contains("=== Has compass"), "\(monitor.allLines)")
        try daemon.waitForStatus("monitor-sensor's compass claim") { $0["dbus"]?["faces"]?["sensorProxy"]?["compassClaims"] == 1 }

        let (app, _) = try daemon.app("com.example.compass")
        _ = try app.call(Method.headingStart, ["filter": 0])
        #expect(try daemon.ctl(["replay", "start", try Self.turns(daemon, [10, 100, 250, 300])]).status == 0)
        var index = has.index
        let fromApp = try Self.appHeadings(app, count: 4)
        #expect(fromApp == [10, 100, 250, 300])
        #expect(Self.monitorHeadings(monitor, after: &index, count: 4) == fromApp, "\(monitor.allLines)")

        // Flat, top to the east, by hand: both show 90 while the replay's 300 plays on.
        #expect(try daemon.ctl(["magnet", "-20", "0", "-40"]).status == 0)
        #expect(try Self.appHeadings(app, after: 300, count: 1) == [90])
        #expect(Self.monitorHeadings(monitor, after: &index, count: 1) == [90], "\(monitor.allLines)")
        #expect(try daemon.ctl(["magnet", "release"]).status == 0)
        #expect(try Self.appHeadings(app, after: 90, count: 1) == [300])
        #expect(Self.monitorHeadings(monitor, after: &index, count: 1) == [300], "\(monitor.allLines)")
        monitor.stop()
        try daemon.waitForStatus("no compass claim") { $0["dbus"]?["faces"]?["sensorProxy"]?["compassClaims"] == 0 }
    }
}
