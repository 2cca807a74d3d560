import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// Sextant as GeoClue 2.6 (docs/dbus.md, GeoClue): GeoClue's own demo client, where-am-i,
/// unmodified, on a private bus, under the same rules as apps on app.sock.
@Suite(
    "GeoClue face (where-am-i)", .serialized,
    .requires(GeoClueClients.requirement))
struct GeoClueFaceTests {
    /// A walk east along 48°N, 0.0005° (37 m) a step, values written here.
    static let walk = (0..<6).map { (lat: 48.0, lon: 2.35 + Double($0) * 0.0005) }

    private func expectPositions(_ printed: [PrintedLocation], _ expected: [(lat: Double, lon: Double)], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(printed.count == expected.count, "printed \(printed.count), the trace has \(expected.count)", sourceLocation: sourceLocation)
        for (index, (got, want)) in zip(printed, expected).enumerated() {
            // where-am-i prints six decimals.
            #expect(abs(got.latitude - want.lat) <= 5e-7 && abs(got.longitude - want.lon) <= 5e-7, "location \(index): \(got) vs \(want)", sourceLocation: sourceLocation)
        }
    }

    @Test("L1: where-am-i (EXACT) of a granted app prints every replayed position with the trace's accuracy, altitude, speed, heading and time")
    func printsReplayedPositions() throws {
        let bus = try GeoClueTestBus()
        let daemon = try DaemonHarness.onBus(bus, grant: true)
        let client = try WhereAmI(bus: bus, directory: daemon.directory)
        try daemon.waitForActiveGeoClueClient()
        try daemon.replay("walk.jsonl", geoclueTrace(Self.walk, step: 0.2))
        let printed = try client.waitForLocations(Self.walk.count)
        expectPositions(printed, Self.walk)
        #expect(client.output().hasPrefix("Client object: /org/freedesktop/GeoClue2/Client/1\n"), "\(client.output())")
        for (index, location) in printed.enumerated() {
            #expect(location.accuracy == 4 && location.altitude == 35 && location.speed == 1.5 && location.heading == 90, "\(location)")
            // 2026-03-01T08:00:00Z is 1772352000 s after the epoch; the steps are 0.2 s.
            #expect(location.timestamp == 1_772_352_000 + UInt64(Double(index) * 0.2), "\(location)")
        }
    }

    @Test("L1: a denied app's where-am-i fails as with GeoClue: AccessDenied from Start, exit status 255, no location")
    func deniedAppFails() throws {
        let bus = try GeoClueTestBus()
        let daemon = try DaemonHarness.onBus(bus)
        try daemon.setPermission(GeoClueClients.whereAmIApp, "denied")
        try daemon.replay("walk.jsonl", geoclueTrace(Self.walk, step: 0.2))
        let client = try WhereAmI(bus: bus, directory: daemon.directory)
        #expect(try client.exitStatus(timeout: 20) == 255)
        #expect(client.errors().contains("Failed to connect to GeoClue2 service: GDBus.Error:org.freedesktop.DBus.Error.AccessDenied: 'geoclue-where-am-i' disallowed"), "\(client.errors())")
        #expect(!client.output().contains("New location"))
    }

    @Test("L7: with Location Services off, Start fails with AccessDenied (Geolocation disabled) and a services-off alert is raised")
    func servicesOffFails() throws {
        let bus = try GeoClueTestBus()
        let daemon = try DaemonHarness.onBus(bus, grant: true)
        _ = try daemon.control().call(Method.servicesSet, ["enabled": false])
        let client = try WhereAmI(bus: bus, directory: daemon.directory)
        #expect(try client.exitStatus(timeout: 20) == 255)
        #expect(client.errors().contains("AccessDenied: Geolocation disabled for UID \(getuid())"), "\(client.errors())")
        // The alert went with the client's session when where-am-i exited: the log shows it.
        let opened = daemon.log().split(separator: "\n").filter { $0.contains("prompt opened") }
        #expect(opened.contains { $0.contains("kind=servicesOff") && $0.contains("app=\(GeoClueClients.whereAmIApp)") }, "\(opened)")
    }

    @Test("L4, L12: Start is the app's authorization request: a prompt in prompts list; answered with sextantctl prompts answer, where-am-i then gets positions")
    func promptAnsweredFromTheCLI() throws {
        let bus = try GeoClueTestBus()
        let daemon = try DaemonHarness.onBus(bus)
        let client = try WhereAmI(bus: bus, directory: daemon.directory)
        let waited = try daemon.ctl(["prompts", "wait", "--app", GeoClueClients.whereAmIApp])
        #expect(waited.status == 0, "\(waited.stdout)\(waited.stderr)")
        let prompts = try daemon.control().call(Method.promptsList).arrayValue ?? []
        #expect(prompts.count == 1 && prompts.first?["kind"] == "authorization" && prompts.first?["level"] == "whenInUse", "\(prompts)")
        #expect(try daemon.geoclueSessions().first?["locationStreaming"] == false, "no location before the answer")
        let answered = try daemon.ctl(["prompts", "answer", "--app", GeoClueClients.whereAmIApp, "allowWhileUsing"])
        #expect(answered.status == 0, "\(answered.stdout)\(answered.stderr)")
        try daemon.waitForActiveGeoClueClient()
        try daemon.replay("walk.jsonl", geoclueTrace(Self.walk, step: 0.2))
        expectPositions(try client.waitForLocations(Self.walk.count), Self.walk)
    }

    @Test("L10: where-am-i -a 4 (CITY) of a fully granted app gets 2 km grid centres: one per cell, accuracy 2000 m, no altitude, speed or heading")
    func cityGetsTheGrid() throws {
        let bus = try GeoClueTestBus()
        let daemon = try DaemonHarness.onBus(bus, grant: true)
        let client = try WhereAmI(bus: bus, directory: daemon.directory, level: 4)
        try daemon.waitForActiveGeoClueClient()
        // 0.01° (1111 m of the grid's northing) a step, 10 002 m in all: the truth crosses
        // five or six 2 km cell rows, whatever the app's grid offset: six or seven locations.
        let north = (0..<10).map { (lat: 48.0 + Double($0) * 0.01, lon: 2.35) }
        try daemon.replay("north.jsonl", geoclueTrace(north, step: 0.2))
        let printed = try client.waitForLocations(6)
        try daemon.waitForStatus("the replay to end") { $0["replay"]?["state"] == "finished" || $0["replay"]?["state"] == "idle" }
        let all = client.locations()
        #expect((6...7).contains(all.count), "one location per cell: \(all)")
        #expect(printed.allSatisfy { $0.accuracy == 2000 && $0.altitude == nil && $0.speed == nil && $0.heading == nil }, "\(printed)")
        // Cell centres lie on one lattice: their northing (lat × 111132.954 m, the grid's
        // metres per degree) differs by whole cells of 2000 m.
        let northings = all.map { $0.latitude * 111_132.954 }
        for northing in northings.dropFirst() {
            let cells = (northing - northings[0]) / 2000
            #expect(abs(cells - cells.rounded()) < 0.01, "\(northing) is not a whole number of cells from \(northings[0])")
        }
        for (got, truth) in zip(all, north) { #expect(got.latitude != truth.lat, "a reduced location is never the true one") }
    }

    @Test("TimeThreshold as GeoClue 2.6: where-am-i -i 1 over fixes 0.25 s apart hears one per whole second of the fixes' own times")
    func timeThreshold() throws {
        let bus = try GeoClueTestBus()
        let daemon = try DaemonHarness.onBus(bus, grant: true)
        let client = try WhereAmI(bus: bus, directory: daemon.directory, timeThreshold: 1)
        try daemon.waitForActiveGeoClueClient()
        // Times 0, 0.25 ... 2.5 s after 08:00:00: whole seconds 0,0,0,0,1,1,1,1,2,2,2. Each
        // signalled fix is the first at least one whole second after the last signalled.
        let steps = (0..<11).map { (lat: 48.0, lon: 2.35 + Double($0) * 0.0005) }
        try daemon.replay("steps.jsonl", geoclueTrace(steps, step: 0.25))
        _ = try client.waitForLocations(3)
        try daemon.waitForStatus("the replay to end") { $0["replay"]?["state"] == "finished" }
        // The fixes after the third are below the threshold: they change nothing printed.
        expectPositions(client.locations(), [steps[0], steps[4], steps[8]])
    }

    @Test("L9: a revoke stops the client at once: Active goes false, where-am-i says so and exits; not one more location")
    func revokeStopsTheClient() throws {
        let bus = try GeoClueTestBus()
        let daemon = try DaemonHarness.onBus(bus, grant: true)
        let client = try WhereAmI(bus: bus, directory: daemon.directory)
        try daemon.waitForActiveGeoClueClient()
        // A long walk at 20 fixes a second: the revoke lands in the middle of it.
        let long = (0..<400).map { (lat: 48.0, lon: 2.35 + Double($0) * 0.0001) }
        try daemon.replay("long.jsonl", geoclueTrace(long, step: 0.05))
        _ = try client.waitForLocations(3)
        let revoked = try daemon.ctl(["permissions", "revoke", GeoClueClients.whereAmIApp])
        #expect(revoked.status == 0, "\(revoked.stderr)")
        #expect(try client.exitStatus(timeout: 10) == 0)
        let output = client.output()
        #expect(output.hasSuffix("Geolocation disabled. Quitting..\n"), "\(output.suffix(300))")
        #expect(client.locations().count < long.count)
    }

    @Test("a client is per sender and freed when its sender leaves the bus: its session ends and its object is gone")
    func clientFreedWhenSenderLeaves() throws {
        let bus = try GeoClueTestBus()
        let daemon = try DaemonHarness.onBus(bus, grant: true)
        let client = try WhereAmI(bus: bus, directory: daemon.directory, timeout: 2)
        try daemon.waitForActiveGeoClueClient()
        #expect(try daemon.geoclueSessions().count == 1)
        #expect(try client.exitStatus(timeout: 10) == 0)
        try daemon.waitForStatus("the client's session to end") { _ in ((try? daemon.geoclueSessions()) ?? [1]).isEmpty }
        let gone = try bus.gdbus(["introspect", "--dest", "org.freedesktop.GeoClue2", "--object-path", "/org/freedesktop/GeoClue2"])
        #expect(!gone.stdout.contains("node Client"), "\(gone.stdout)")
        let call = try bus.gdbus([
            "call", "--dest", "org.freedesktop.GeoClue2", "--object-path", "/org/freedesktop/GeoClue2/Client/1", "--method",
            "org.freedesktop.DBus.Properties.Get", "org.freedesktop.GeoClue2.Client", "Active",
        ])
        #expect(call.status != 0 && call.stderr.contains("UnknownObject"), "\(call.stderr)")
    }

    @Test("only a client's owner may use it or read its locations: another peer gets AccessDenied, as from GeoClue")
    func ownerOnly() throws {
        let bus = try GeoClueTestBus()
        let daemon = try DaemonHarness.onBus(bus, grant: true)
        let client = try WhereAmI(bus: bus, directory: daemon.directory)
        try daemon.waitForActiveGeoClueClient()
        try daemon.replay("walk.jsonl", geoclueTrace(Self.walk, step: 0.2))
        _ = try client.waitForLocations(1)
        let base = ["call", "--dest", "org.freedesktop.GeoClue2", "--object-path"]
        let start = try bus.gdbus(base + ["/org/freedesktop/GeoClue2/Client/1", "--method", "org.freedesktop.GeoClue2.Client.Stop"])
        #expect(start.stderr.contains("AccessDenied: Access denied"), "\(start.stderr)")
        let location = try bus.gdbus(base + [
            "/org/freedesktop/GeoClue2/Client/1/Location/0", "--method", "org.freedesktop.DBus.Properties.Get",
            "org.freedesktop.GeoClue2.Location", "Latitude",
        ])
        #expect(location.stderr.contains("AccessDenied"), "\(location.stdout)\(location.stderr)")
        let set = try bus.gdbus(base + [
            "/org/freedesktop/GeoClue2/Client/1", "--method", "org.freedesktop.DBus.Properties.Set", "org.freedesktop.GeoClue2.Client",
            "DistanceThreshold", "<uint32 5>",
        ])
        #expect(set.stderr.contains("AccessDenied"), "\(set.stderr)")
    }
}
