import Foundation
import SextantProtocol
import SextantTestSupport
import Testing

/// iio-sensor-proxy's face on a private bus, seen by unmodified clients: monitor-sensor
/// (Debian iio-sensor-proxy), gdbus, and the real iio-sensor-proxy beside it.
@Suite("D-Bus: iio-sensor-proxy's face with monitor-sensor, gdbus and the real service", .serialized)
struct DBusSensorProxyTests {
    static let name = "net.hadess.SensorProxy"
    static let path = "/net/hadess/SensorProxy"

    /// A daemon serving on a private bus, once its name is there.
    static func daemonOnBus(_ extra: [String] = ["--no-iio"], sensors: IIOTestbed? = nil) throws -> (DaemonHarness, DBusTestBus) {
        let bus = try DBusTestBus()
        let daemon = try DaemonHarness(arguments: ["--dbus", bus.restartableAddress, "--no-gpsd"] + extra, sensors: sensors)
        try bus.waitForName(name)
        return (daemon, bus)
    }

    /// The next orientation monitor-sensor reports after line `index`, with its line.
    static func nextOrientation(_ monitor: LineReader, after index: Int, timeout: Double = 15) -> (index: Int, orientation: String)? {
        monitor.waitForLine(from: index + 1, timeout: timeout) { monitorSensorOrientation($0) != nil }
            .map { ($0.index, monitorSensorOrientation($0.line)!) }
    }

    @Test("O1–O5 over D-Bus: monitor-sensor prints each turn of sextantctl rotate in iio-sensor-proxy's names; flat keeps the last")
    func rotateThroughMonitorSensor() throws {
        let (daemon, bus) = try Self.daemonOnBus()
        let monitor = try LineReader(["/usr/bin/monitor-sensor"], environment: bus.systemBusEnvironment)
        // No sample yet: the judge has decided nothing (O1's unknown), iio-sensor-proxy's undefined.
        let first = try #require(monitor.waitForLine { $0.contains("=== Has accelerometer") }, "\(monitor.allLines)")
        #expect(first.line.contains("(orientation: undefined)"))
        // RULES' IIO note: our landscapeRight is iio-sensor-proxy's left-up.
        let steps = [
            ("landscapeRight", "left-up"), ("portraitUpsideDown", "bottom-up"), ("landscapeLeft", "right-up"), ("portrait", "normal"),
        ]
        var index = first.index
        for (orientation, expected) in steps {
            #expect(try daemon.ctl(["rotate", orientation, "--wait"]).status == 0)
            let next = try #require(Self.nextOrientation(monitor, after: index), "after \(orientation): \(monitor.allLines)")
            #expect(next.orientation == expected, "sextantctl rotate \(orientation)")
            index = next.index
        }
        // Face up: no flat state in iio-sensor-proxy; nothing is printed, and the next turn
        // is the next line.
        #expect(try daemon.ctl(["rotate", "faceUp", "--wait"]).status == 0)
        #expect(try daemon.ctl(["rotate", "landscapeRight", "--wait"]).status == 0)
        #expect(Self.nextOrientation(monitor, after: index)?.orientation == "left-up", "\(monitor.allLines)")
        // monitor-sensor holds its claim; it is freed when monitor-sensor leaves the bus.
        try daemon.waitForStatus("one accelerometer claim") { $0["dbus"]?["faces"]?["sensorProxy"]?["accelerometerClaims"] == 1 }
        monitor.stop()
        try daemon.waitForStatus("no accelerometer claim") { $0["dbus"]?["faces"]?["sensorProxy"]?["accelerometerClaims"] == 0 }
        _ = bus
    }

    @Test("O2/O3 over D-Bus: a replayed rotation trace reaches monitor-sensor turn by turn")
    func replayThroughMonitorSensor() throws {
        let (daemon, bus) = try Self.daemonOnBus()
        let monitor = try LineReader(["/usr/bin/monitor-sensor"], environment: bus.systemBusEnvironment)
        let first = try #require(monitor.waitForLine { $0.contains("=== Has accelerometer") })
        // One second of each hold at 50 Hz, device frame (RULES O1): portrait is +y,
        // landscapeLeft +x, upside down -y, landscapeRight -x, then flat on its back.
        let holds: [(Double, Double, Double)] = [(0, 9.81, 0), (9.81, 0, 0), (0, -9.81, 0), (-9.81, 0, 0), (0, 0, 9.81), (0, 9.81, 0)]
        var lines = [#"{"sextant":"trace","version":1,"start":"2026-03-01T08:00:00.000Z"}"#]
        for (hold, gravity) in holds.enumerated() {
            for sample in 0..<50 {
                let t = Double(hold) + Double(sample) * 0.02
                lines.append(#"{"t":\#(String(format: "%.2f", t)),"accel":{"x":\#(gravity.0),"y":\#(gravity.1),"z":\#(gravity.2)}}"#)
            }
        }
        let trace = try daemon.write("rotation.jsonl", lines.joined(separator: "\n") + "\n")
        #expect(try daemon.ctl(["replay", "start", trace, "--speed", "2", "--wait"]).status == 0)
        var seen: [String] = []
        var index = first.index
        while let next = Self.nextOrientation(monitor, after: index, timeout: seen.count < 5 ? 15 : 1) {
            seen.append(next.orientation)
            index = next.index
        }
        // Flat (the fifth hold) keeps left-up; the sixth turns back to normal.
        #expect(seen == ["normal", "right-up", "bottom-up", "left-up", "normal"], "\(monitor.allLines)")
    }

    @Test("Properties: iio-sensor-proxy 3.0's, with what Sextant has (an accelerometer and a compass, -1 before any heading; no light or proximity)")
    func honestProperties() throws {
        let (daemon, bus) = try Self.daemonOnBus()
        #expect(try daemon.ctl(["rotate", "portrait", "--wait"]).status == 0)
        let all = try bus.call(Self.name, Self.path, "org.freedesktop.DBus.Properties.GetAll", ["net.hadess.SensorProxy"])
        #expect(
            all.stdout
                == "({'HasAccelerometer': <true>, 'AccelerometerOrientation': <'normal'>, 'HasAmbientLight': <false>, 'LightLevelUnit': <'lux'>, 'LightLevel': <0.0>, 'HasProximity': <false>, 'ProximityNear': <false>},)\n"
        )
        let compass = try bus.call(
            Self.name, Self.path + "/Compass", "org.freedesktop.DBus.Properties.GetAll", ["net.hadess.SensorProxy.Compass"])
        #expect(compass.stdout == "({'HasCompass': <true>, 'CompassHeading': <-1.0>},)\n")
        // A claim by a client that then exits (gdbus) is freed when it leaves the bus.
        #expect(try bus.call(Self.name, Self.path, "net.hadess.SensorProxy.ClaimAccelerometer").status == 0)
        #expect(try bus.call(Self.name, Self.path + "/Compass", "net.hadess.SensorProxy.Compass.ClaimCompass").status == 0)
        try daemon.waitForStatus("the exited client's claims freed") {
            $0["dbus"]?["faces"]?["sensorProxy"]?["accelerometerClaims"] == 0 && $0["dbus"]?["faces"]?["sensorProxy"]?["compassClaims"] == 0
        }
    }

    @Test("The bus lost is a fault: status says retrying, the sockets keep serving, the name comes back with the bus")
    func busLostAndBack() throws {
        let (daemon, bus) = try Self.daemonOnBus()
        let status = try daemon.control().call(Method.status)
        #expect(status["dbus"]?["state"] == "connected")
        // Every face claims its name: the sensor proxy and GeoClue (GeoClueFace/).
        #expect(status["dbus"]?["names"] == [.string(Self.name), "org.freedesktop.GeoClue2"])
        let text = try daemon.ctl(["status"]).stdout
        #expect(text.contains("D-Bus:             \(bus.restartableAddress) bus as :1."), "\(text)")
        #expect(text.contains("holding net.hadess.SensorProxy"), "\(text)")
        bus.stop()
        try daemon.waitForStatus("the bus lost") { $0["dbus"]?["state"] == "retrying" }
        #expect(try daemon.ctl(["rotate", "landscapeLeft", "--wait"]).status == 0)
        try bus.start()
        try bus.waitForName(Self.name)
        try daemon.waitForStatus("connected again") { $0["dbus"]?["state"] == "connected" }
        // The state decided while the bus was away is what the new connection shows.
        #expect(try bus.call(Self.name, Self.path, "org.freedesktop.DBus.Properties.Get", ["net.hadess.SensorProxy", "AccelerometerOrientation"]).stdout == "(<'right-up'>,)\n")
        #expect(daemon.log().components(separatedBy: "D-Bus: lost the").count == 2, "the loss is logged once")
    }

    @Test("sextantd --dbus refuses what is no bus address, naming the option")
    func badAddress() throws {
        let result = try run([Binaries.sextantd, "--dbus", "nowhere", "--ephemeral"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--dbus must be system, session or a D-Bus address"))
    }
}
