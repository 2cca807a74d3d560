import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport

// What the GeoClue-face tests need: a private bus, a daemon on it, and GeoClue's own demo
// client (`where-am-i`, Debian geoclue-2-demo) and gdbus run against it.

enum GeoClueClients {
    static let whereAmI = "/usr/libexec/geoclue-2.0/demos/where-am-i"
    static let gdbus = "/usr/bin/gdbus"
    static let dbusDaemon = "/usr/bin/dbus-daemon"
    /// where-am-i's desktop id (libgeoclue's demo sets it): the app id Sextant knows it by.
    static let whereAmIApp = "geoclue-where-am-i"

    static let requirement = Requirement.all([
        .tool(whereAmI, package: "geoclue-2-demo"), .tool(gdbus, package: "libglib2.0-bin"), .tool(dbusDaemon, package: "dbus-daemon"),
    ])
}

/// A private `dbus-daemon --session` for one test (any name may be owned on it), stopped
/// at the end of the test.
final class GeoClueTestBus {
    private let bus: PrivateBus
    var address: String { bus.address }

    init() throws { bus = try PrivateBus() }

    /// GeoClue clients talk to the system bus: this bus stands in for it.
    var environment: [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["DBUS_SYSTEM_BUS_ADDRESS"] = address
        environment["LANG"] = "C.UTF-8"
        environment["LC_ALL"] = "C.UTF-8"
        // A local-time timestamp line whatever the machine's zone.
        environment["TZ"] = "UTC"
        return environment
    }

    /// `gdbus ARGS --system` on this bus, to its end.
    func gdbus(_ arguments: [String]) throws -> CommandResult {
        try run(["/usr/bin/env", "DBUS_SYSTEM_BUS_ADDRESS=\(address)", GeoClueClients.gdbus] + arguments + ["--system"])
    }
}

/// One location as where-am-i prints it.
struct PrintedLocation: Equatable {
    var latitude: Double
    var longitude: Double
    var accuracy: Double
    var altitude: Double?
    var speed: Double?
    var heading: Double?
    var timestamp: UInt64?
}

/// `where-am-i -a LEVEL -t TIMEOUT` on a test bus, its output in files.
final class WhereAmI {
    private let client: ClientProcess
    var process: Process { client.process }

    init(bus: GeoClueTestBus, directory: String, level: Int = 8, timeout: Int = 60, timeThreshold: Int? = nil, name: String = "where-am-i") throws {
        let options = ["-a", String(level), "-t", String(timeout)] + (timeThreshold.map { ["-i", String($0)] } ?? [])
        client = try ClientProcess([GeoClueClients.whereAmI] + options, directory: directory, name: name, environment: bus.environment)
    }

    func output() -> String { client.output() }
    func errors() -> String { client.errors() }

    /// Waits for it to end by itself; its exit status.
    func exitStatus(timeout: Double) throws -> Int32 { try client.exitStatus(timeout: timeout) }

    /// The locations printed so far, in order: each "New location:" block.
    func locations() -> [PrintedLocation] {
        output().components(separatedBy: "New location:").dropFirst().compactMap(Self.parse)
    }

    /// Waits until it printed `count` locations (it says nothing else that can be waited on).
    func waitForLocations(_ count: Int, timeout: Double = 20) throws -> [PrintedLocation] {
        try client.waitForOutput(timeout: timeout, "print \(count) locations") { _ in
            let locations = locations()
            return locations.count >= count ? locations : nil
        }
    }

    /// One block: "Latitude:    48.000100°" lines and the like (the degree sign is UTF-8).
    static func parse(_ block: String) -> PrintedLocation? {
        var fields: [String: String] = [:]
        for line in block.split(separator: "\n") {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            fields[String(line[..<colon])] = value
        }
        func number(_ key: String) -> Double? {
            fields[key].flatMap { Double($0.prefix { "-+0123456789.eE".contains($0) }) }
        }
        guard let latitude = number("Latitude"), let longitude = number("Longitude"), let accuracy = number("Accuracy") else { return nil }
        let timestamp = fields["Timestamp"].flatMap { text in
            text.range(of: "(").flatMap { UInt64(text[$0.upperBound...].prefix { $0.isNumber }) }
        }
        return PrintedLocation(
            latitude: latitude, longitude: longitude, accuracy: accuracy, altitude: number("Altitude"), speed: number("Speed"),
            heading: number("Heading"), timestamp: timestamp)
    }
}

extension DaemonHarness {
    /// A daemon on `bus` (`--dbus ADDRESS`), once it holds org.freedesktop.GeoClue2; with
    /// `grant`, where-am-i's app authorized when in use, as `sextantctl permissions grant` does.
    static func onBus(_ bus: GeoClueTestBus, grant: Bool = false, _ arguments: [String] = []) throws -> DaemonHarness {
        let daemon = try DaemonHarness(arguments: ["--dbus", bus.address] + arguments)
        try daemon.waitForStatus("the GeoClue name on the test bus") { status in
            status["dbus"]?["names"]?.arrayValue?.contains("org.freedesktop.GeoClue2") == true
        }
        if grant { try daemon.setPermission(GeoClueClients.whereAmIApp, "authorizedWhenInUse") }
        return daemon
    }

    func setPermission(_ app: String, _ status: String) throws {
        _ = try control().call(Method.permissionsSet, ["app": .string(app), "status": .string(status)])
    }

    /// The `apps.list` entries of GeoClue clients.
    func geoclueSessions() throws -> [JSONValue] {
        (try control().call(Method.appsList).arrayValue ?? []).filter { $0["kind"] == "geoclue" }
    }

    /// Waits until a GeoClue client of `app` streams locations (its `Start` succeeded).
    func waitForActiveGeoClueClient(_ app: String = GeoClueClients.whereAmIApp, timeout: Double = 15) throws {
        try waitForStatus("a streaming GeoClue client of \(app)", timeout: timeout) { _ in
            ((try? geoclueSessions()) ?? []).contains { $0["app"]?.stringValue == app && $0["locationStreaming"] == true }
        }
    }

    /// Replays a trace written in the test's directory, at speed 1.
    func replay(_ name: String, _ trace: String, speed: JSONValue = 1) throws {
        let path = try write(name, trace)
        _ = try control().call(Method.replayStart, ["path": .string(path), "speed": speed])
    }
}

/// A Sextant trace of `positions`, `step` seconds apart, with its values for the test to
/// compare with (what where-am-i prints is checked against these numbers, not against
/// anything Sextant computed).
func geoclueTrace(_ positions: [(lat: Double, lon: Double)], step: Double, extras: String = #","hAcc":4,"alt":35,"speed":1.5,"course":90"#) -> String {
    var lines = [#"{"sextant":"trace","version":1,"start":"2026-03-01T08:00:00.000Z"}"#]
    for (index, position) in positions.enumerated() {
        lines.append(#"{"t":\#(Double(index) * step),"location":{"lat":\#(position.lat),"lon":\#(position.lon)\#(extras)}}"#)
    }
    return lines.joined(separator: "\n") + "\n"
}
