import Foundation
import SextantTestSupport
import Testing

/// The real iio-sensor-proxy (Debian's 3.0, /usr/sbin/iio-sensor-proxy) on a private bus of
/// its own, reading a umockdev testbed: it wants the system bus, and takes it from
/// DBUS_SYSTEM_BUS_ADDRESS.
final class RealSensorProxy {
    static let binary = "/usr/sbin/iio-sensor-proxy"
    let bus: DBusTestBus
    private let process = Process()

    init(sensors: IIOTestbed, directory: String) throws {
        bus = try DBusTestBus(directory: directory)
        process.executableURL = URL(fileURLWithPath: Self.binary)
        process.environment = bus.systemBusEnvironment.merging(sensors.environment) { $1 }
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try launch(process)
        try bus.waitForName(DBusSensorProxyTests.name)
    }

    deinit { stop(process) }
}

/// An accelerometer in the testbed as both services find it (iio-sensor-proxy's udev rule
/// would tag it iio-poll-accel; the testbed has no udev rules, so the tag is given).
func sideBySideAccelerometer(_ testbed: IIOTestbed, raw: (Int, Int, Int)) throws -> String {
    try testbed.add("iio:device0", attributes: accelerometerAttributes(raw: raw), properties: ["IIO_SENSOR_PROXY_TYPE": "iio-poll-accel"])
}

/// gdbus introspect's text without the properties' current values (they differ by state).
func withoutValues(_ text: String) -> String {
    text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
        guard line.contains("readonly ") || line.contains("readwrite "), let equals = line.range(of: " = ") else { return String(line) }
        return String(line[..<equals.lowerBound]) + ";"
    }.joined(separator: "\n")
}

@Suite(
    "D-Bus: Sextant's iio-sensor-proxy face beside the real iio-sensor-proxy under umockdev", .serialized,
    .requires(IIOTestbed.requirement, .tool(RealSensorProxy.binary, package: "iio-sensor-proxy")))
struct DBusSensorProxySideBySideTests {
    @Test("gdbus introspect of /net/hadess/SensorProxy and its Compass node reads as the real service's (values aside)")
    func introspectionMatchesTheRealService() throws {
        let testbed = try IIOTestbed()
        _ = try sideBySideAccelerometer(testbed, raw: (0, -981, 0))
        let (daemon, bus) = try DBusSensorProxyTests.daemonOnBus(["--no-iio"])
        let real = try RealSensorProxy(sensors: testbed, directory: daemon.directory)
        for path in [DBusSensorProxyTests.path, DBusSensorProxyTests.path + "/Compass"] {
            let theirs = withoutValues(try real.bus.introspect(DBusSensorProxyTests.name, path))
            let ours = withoutValues(try bus.introspect(DBusSensorProxyTests.name, path))
            #expect(theirs.contains("interface net.hadess.SensorProxy"))
            #expect(ours == theirs, "\(path)")
        }
    }

    /// The same sysfs steps, seen through each service by its own monitor-sensor. Both name
    /// the same orientations in the same order; when differs. iio-sensor-proxy turns on the
    /// first reading past its thresholds, but polls sysfs at its own interval (about 700 ms
    /// here); Sextant reads at --iio-rate (50 Hz) and turns once the reading has held for
    /// RULES O2's settle (40 ms to 1 s, about 300 ms for a clean quarter turn). Lying flat,
    /// neither says anything: iio-sensor-proxy has no flat state and keeps its last, and
    /// Sextant's faceUp (O3) keeps the last upright orientation (docs/dbus.md).
    @Test("Side by side: the same accelerometer steps give the same orientations through both, each in its own time")
    func sameStepsSameOrientations() throws {
        let testbed = try IIOTestbed()
        let device = try sideBySideAccelerometer(testbed, raw: (0, -981, 0))
        let (daemon, bus) = try DBusSensorProxyTests.daemonOnBus(["--iio-rate", "50"], sensors: testbed)
        let real = try RealSensorProxy(sensors: testbed, directory: daemon.directory)
        let monitors = [
            ("iio-sensor-proxy", try LineReader(["/usr/bin/monitor-sensor"], environment: real.bus.systemBusEnvironment)),
            ("sextant", try LineReader(["/usr/bin/monitor-sensor"], environment: bus.systemBusEnvironment)),
        ]
        var indexes: [Int] = []
        for (service, monitor) in monitors {
            let start = monitor.waitForLine { monitorSensorOrientation($0) == "normal" }
            indexes.append(try #require(start, "\(service): \(monitor.allLines)").index)
        }
        // IIO's frame (RULES' IIO note): x ≈ +9.81 is left-up; flat on its back is z.
        let steps: [((Int, Int, Int), String?)] = [
            ((981, 0, 0), "left-up"), ((0, 981, 0), "bottom-up"), ((-981, 0, 0), "right-up"), ((0, 0, 981), nil), ((0, -981, 0), "normal"),
        ]
        var latencies: [String: [Double]] = [:]
        for (raw, expected) in steps {
            let written = DispatchTime.now().uptimeNanoseconds
            try testbed.set(device, ["in_accel_x_raw": "\(raw.0)", "in_accel_y_raw": "\(raw.1)", "in_accel_z_raw": "\(raw.2)"])
            guard let expected else { continue }  // flat: the next step's line is the next line
            for (position, (service, monitor)) in monitors.enumerated() {
                let next = monitor.waitForLine(from: indexes[position] + 1) { monitorSensorOrientation($0) != nil }
                let line = try #require(next, "\(service) after \(raw): \(monitor.allLines)")
                #expect(monitorSensorOrientation(line.line) == expected, "\(service) after \(raw)")
                indexes[position] = line.index
                latencies[service, default: []].append(Double(line.at - written) / 1e6)
            }
        }
        // The figure docs/dbus.md quotes: sysfs write to monitor-sensor's line, per service.
        for (service, values) in latencies.sorted(by: { $0.key < $1.key }) {
            print("side-by-side latency \(service): \(values.map { String(format: "%.0f", $0) }.joined(separator: " ")) ms")
        }
    }
}
