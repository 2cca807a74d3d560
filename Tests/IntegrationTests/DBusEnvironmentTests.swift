import Foundation
import SextantProtocol
import SextantTestSupport
import Testing

/// The illuminance monitor-sensor prints on a line: `=== Has ambient light sensor (value:
/// 320.000000, unit: lux)` or `    Light changed: 320.000000 (lux)`.
func monitorSensorLight(_ line: String) -> Double? {
    for marker in ["Light changed: ", "=== Has ambient light sensor (value: "] {
        guard let range = line.range(of: marker) else { continue }
        return Double(line[range.upperBound...].prefix { $0 != " " && $0 != "," })
    }
    return nil
}

/// Near (true) or far as monitor-sensor prints it: `=== Has proximity sensor (near: 1)` or
/// `    Proximity value changed: 1`.
func monitorSensorNear(_ line: String) -> Bool? {
    for marker in ["Proximity value changed: ", "=== Has proximity sensor (near: "] {
        guard let range = line.range(of: marker) else { continue }
        return line[range.upperBound...].hasPrefix("1")
    }
    return nil
}

/// iio-sensor-proxy's light and proximity on D-Bus (RULES E4), seen by the real
/// monitor-sensor: values set by hand, and the same umockdev sysfs writes read by Sextant
/// and by the real iio-sensor-proxy side by side.
@Suite("D-Bus: light and proximity through iio-sensor-proxy's face with monitor-sensor and the real service", .serialized)
struct DBusEnvironmentTests {
    @Test("E4 over D-Bus: monitor-sensor sees the light sensor and the proximity sensor appear and follow sextantctl light and proximity")
    func byHandThroughMonitorSensor() throws {
        let (daemon, bus) = try DBusSensorProxyTests.daemonOnBus()
        let monitor = try LineReader(["/usr/bin/monitor-sensor"], environment: bus.systemBusEnvironment)
        // No reading yet from any source: no sensor, as iio-sensor-proxy without one.
        #expect(monitor.waitForLine { $0.contains("=== No ambient light sensor") } != nil, "\(monitor.allLines)")
        #expect(monitor.waitForLine { $0.contains("=== No proximity sensor") } != nil, "\(monitor.allLines)")
        try daemon.waitForStatus("monitor-sensor's claims") {
            $0["dbus"]?["faces"]?["sensorProxy"]?["lightClaims"] == 1 && $0["dbus"]?["faces"]?["sensorProxy"]?["proximityClaims"] == 1
        }
        #expect(try daemon.ctl(["light", "320"]).status == 0)
        var index = try #require(monitor.waitForLine { $0.contains("+++ Light sensor appeared") }, "\(monitor.allLines)").index
        for lux in [320.0, 15, 0, 100_000] {
            if lux != 320 { #expect(try daemon.ctl(["light", String(Int(lux))]).status == 0) }
            let line = try #require(monitor.waitForLine(from: index + 1) { monitorSensorLight($0) != nil }, "\(lux): \(monitor.allLines)")
            #expect(monitorSensorLight(line.line) == lux && line.line.contains("(lux)"), "\(line.line)")
            index = line.index
        }
        #expect(try daemon.ctl(["proximity", "near"]).status == 0)
        index = try #require(monitor.waitForLine { $0.contains("+++ Proximity sensor appeared") }, "\(monitor.allLines)").index
        // The first line is the near just set; then each command's.
        for (word, near) in [(nil, true), ("far", false), ("near", true)] as [(String?, Bool)] {
            if let word { #expect(try daemon.ctl(["proximity", word]).status == 0) }
            let line = try #require(monitor.waitForLine(from: index + 1) { monitorSensorNear($0) != nil }, "\(near): \(monitor.allLines)")
            #expect(monitorSensorNear(line.line) == near, "\(line.line)")
            index = line.index
        }
        let text = try daemon.ctl(["status"]).stdout
        #expect(text.contains("Light:             100000 lux") && text.contains("Proximity:         near"), "\(text)")
        monitor.stop()
        try daemon.waitForStatus("the claims freed when monitor-sensor left") {
            $0["dbus"]?["faces"]?["sensorProxy"]?["lightClaims"] == 0 && $0["dbus"]?["faces"]?["sensorProxy"]?["proximityClaims"] == 0
        }
        _ = bus
    }

    /// The same sysfs steps, seen through each service by its own monitor-sensor: the same
    /// light levels and the same near and far, in the same order. iio-sensor-proxy polls
    /// the light every 0.8 s and the proximity every 0.7 s; Sextant at --iio-rate.
    @Test("Side by side: the same light and proximity sysfs writes give the same LightLevel and ProximityNear through both")
    func sideBySide() throws {
        let testbed = try IIOTestbed()
        let light = try testbed.add(
            "iio:device1", attributes: ["name": "als", "in_illuminance_raw": "100", "in_illuminance_scale": "0.5"],
            properties: ["IIO_SENSOR_PROXY_TYPE": "iio-poll-als"])
        let proximity = try testbed.add(
            "iio:device2", attributes: ["name": "prox", "in_proximity_raw": "10"],
            properties: ["IIO_SENSOR_PROXY_TYPE": "iio-poll-proximity", "PROXIMITY_NEAR_LEVEL": "100"])
        let (daemon, bus) = try DBusSensorProxyTests.daemonOnBus(["--iio-rate", "50"], sensors: testbed)
        let real = try RealSensorProxy(sensors: testbed, directory: daemon.directory)
        let monitors = [
            ("iio-sensor-proxy", try LineReader(["/usr/bin/monitor-sensor"], environment: real.bus.systemBusEnvironment)),
            ("sextant", try LineReader(["/usr/bin/monitor-sensor"], environment: bus.systemBusEnvironment)),
        ]
        // Both start at 50 lux ((100) × 0.5) and far.
        var lightIndex: [Int] = [], nearIndex: [Int] = []
        for (service, monitor) in monitors {
            lightIndex.append(try #require(monitor.waitForLine { monitorSensorLight($0) == 50 }, "\(service): \(monitor.allLines)").index)
            nearIndex.append(try #require(monitor.waitForLine { monitorSensorNear($0) == false }, "\(service): \(monitor.allLines)").index)
        }
        for (raw, lux) in [(200, 100.0), (31, 15.5), (0, 0)] {
            try testbed.set(light, ["in_illuminance_raw": "\(raw)"])
            for (position, (service, monitor)) in monitors.enumerated() {
                let next = monitor.waitForLine(from: lightIndex[position] + 1) { monitorSensorLight($0) != nil }
                let line = try #require(next, "\(service) after raw \(raw): \(monitor.allLines)")
                #expect(monitorSensorLight(line.line) == lux, "\(service) after raw \(raw): \(line.line)")
                lightIndex[position] = line.index
            }
        }
        // Near above the near level (100) once a level holds (the margin moves only the first
        // reading after a change): each level is one line in both, nothing flickers between.
        let start = monitors.map { $0.1.allLines.count }
        /// Two light levels written and seen by both: the real service's light polls are
        /// 0.8 s apart, so its 0.7 s proximity poll has read what was written before.
        func sync(_ raws: [Int]) throws {
            for raw in raws {
                try testbed.set(light, ["in_illuminance_raw": "\(raw)"])
                for (position, (service, monitor)) in monitors.enumerated() {
                    let seen = monitor.waitForLine(from: lightIndex[position] + 1) { monitorSensorLight($0) == Double(raw) / 2 }
                    lightIndex[position] = try #require(seen, "\(service) light \(raw): \(monitor.allLines)").index
                }
            }
        }
        for (raw, near) in [(150, true), (95, false), (105, true), (20, false)] {
            try testbed.set(proximity, ["in_proximity_raw": "\(raw)"])
            for (position, (service, monitor)) in monitors.enumerated() {
                let next = monitor.waitForLine(from: nearIndex[position] + 1) { monitorSensorNear($0) != nil }
                let line = try #require(next, "\(service) after raw \(raw): \(monitor.allLines)")
                #expect(monitorSensorNear(line.line) == near, "\(service) after raw \(raw): \(line.line)")
                nearIndex[position] = line.index
            }
        }
        try sync([90, 92])
        for (position, (service, monitor)) in monitors.enumerated() {
            let said = monitor.allLines.dropFirst(start[position]).compactMap(monitorSensorNear)
            #expect(said == [true, false, true, false], "\(service): \(monitor.allLines)")
        }
        _ = (daemon, real)
    }
}
