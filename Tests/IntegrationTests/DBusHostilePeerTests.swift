import Foundation
import SextantProtocol
import SextantTestSupport
import Testing

/// Other peers on the bus against the GeoClue and iio-sensor-proxy faces (issue 28): a
/// forged bus signal, strings without end, one user's many connections, and what a peer
/// that owns nothing hears.
@Suite("D-Bus: hostile peers (issue 28)", .serialized, .requires(GeoClueClients.requirement))
struct DBusHostilePeerTests {
    static let app = "org.example.Victim"
    static let manager = "/org/freedesktop/GeoClue2/Manager"
    static let geoclue = "org.freedesktop.GeoClue2"
    static let clientInterface = "org.freedesktop.GeoClue2.Client"
    static let sensorProxy = "net.hadess.SensorProxy"

    /// A client of `conn` with `app` as its desktop id; its path.
    static func makeClient(_ peers: BusPeers, _ conn: Int, app: String = app) throws -> String {
        let made = try peers.call(conn, geoclue, manager, geoclue + ".Manager", "GetClient").get()
        let path = String(made.dropFirst("(objectpath '".count).prefix { $0 != "'" })
        _ = try peers.call(conn, geoclue, path, "org.freedesktop.DBus.Properties", "Set", "('\(clientInterface)', 'DesktopId', <'\(app)'>)").get()
        return path
    }

    static func claims(_ daemon: DaemonHarness) throws -> JSONValue? {
        try daemon.control().call(Method.status)["dbus"]?["faces"]?["sensorProxy"]?["accelerometerClaims"]
    }

    @Test("issue 28.3: a NameOwnerChanged sent to sextantd by a peer, not by the bus, frees neither the victim's GeoClue client nor its accelerometer claim")
    func forgedNameOwnerChanged() throws {
        let bus = try GeoClueTestBus()
        let daemon = try DaemonHarness.onBus(bus)
        try daemon.setPermission(Self.app, "authorizedWhenInUse")
        let peers = try BusPeers(address: bus.address)
        let victim = try peers.connect()
        let path = try Self.makeClient(peers, victim.conn)
        #expect(try peers.call(victim.conn, Self.geoclue, path, Self.clientInterface, "Start") == .success("()"))
        #expect(try peers.call(victim.conn, Self.sensorProxy, "/net/hadess/SensorProxy", Self.sensorProxy, "ClaimAccelerometer") == .success("()"))
        try daemon.waitForActiveGeoClueClient(Self.app)
        #expect(try Self.claims(daemon) == 1)

        let forger = try peers.connect()
        try peers.request([
            "op": "emit", "conn": forger.conn, "dest": Self.geoclue, "path": "/org/freedesktop/DBus", "interface": "org.freedesktop.DBus",
            "member": "NameOwnerChanged", "args": "('\(victim.name)', '\(victim.name)', '')",
        ])
        // The forger's next call reaches the daemon after its signal, and its answer comes
        // from the hub's loop after whatever the signal made the faces do there.
        #expect(try peers.call(forger.conn, Self.sensorProxy, "/net/hadess/SensorProxy", Self.sensorProxy, "ReleaseAccelerometer") == .success("()"))
        #expect(try Self.claims(daemon) == 1, "the victim's claim is still counted")
        let sessions = try daemon.geoclueSessions()
        #expect(sessions.count == 1 && sessions.first?["locationStreaming"] == true, "\(sessions)")
        let active = try peers.call(victim.conn, Self.geoclue, path, "org.freedesktop.DBus.Properties", "Get", "('\(Self.clientInterface)', 'Active')")
        #expect(active == .success("(<true>,)"))
    }

    @Test("issue 28.4: a DesktopId of 1 MB is refused, naming the property and the limit; 16 clients of 4 MB ids leave the daemon's memory where it was")
    func longDesktopIdRefused() throws {
        let bus = try GeoClueTestBus()
        let daemon = try DaemonHarness.onBus(bus)
        let peers = try BusPeers(address: bus.address)
        let owner = try peers.connect()
        let path = try Self.makeClient(peers, owner.conn, app: "org.example.Short")
        let long = String(repeating: "a", count: 1 << 20)
        let refused = try peers.call(owner.conn, Self.geoclue, path, "org.freedesktop.DBus.Properties", "Set", "('\(Self.clientInterface)', 'DesktopId', <'\(long)'>)")
        #expect(refused == .failure(BusPeerError(
            name: "org.freedesktop.DBus.Error.InvalidArgs",
            message: "\(Self.clientInterface).DesktopId: a string of 1048576 bytes; at most 4096 are taken")))
        let kept = try peers.call(owner.conn, Self.geoclue, path, "org.freedesktop.DBus.Properties", "Get", "('\(Self.clientInterface)', 'DesktopId')")
        #expect(kept == .success("(<'org.example.Short'>,)"))

        let before = try daemon.memoryKiB("VmRSS")
        let huge = String(repeating: "b", count: 4 << 20)
        #expect((try peers.request(["op": "create-clients", "conn": owner.conn, "count": 15]))["made"] as? Int == 15)
        for number in 1...16 {
            let client = "/org/freedesktop/GeoClue2/Client/\(number)"
            let set = try peers.call(owner.conn, Self.geoclue, client, "org.freedesktop.DBus.Properties", "Set", "('\(Self.clientInterface)', 'DesktopId', <'\(huge)'>)")
            #expect((try? set.get()) == nil, "client \(number) took a 4 MB id")
        }
        let grown = try daemon.memoryKiB("VmRSS") - before
        // Kept, the ids would be 64 MiB; passing through, a few buffers at most.
        #expect(grown < 24 * 1024, "the daemon grew by \(grown) KiB")
        #expect(try daemon.control().call(Method.status)["dbus"]?["state"] == "connected")
    }

    @Test("issue 28.9: one uid's 64 connections get its share of GeoClue clients (64), not all 1024; another uid still gets one", .requires(.root("the second peer runs as uid 65534")))
    func perUidShare() throws {
        let scratch = try TemporaryDirectory("share", mode: 0o755)
        let (bus, address) = try DBusDeploymentTests.systemTypeBus(scratch.path)
        defer { bus.stop() }
        let daemon = try DaemonHarness(arguments: ["--dbus", address])
        try daemon.waitForStatus("the GeoClue name") { $0["dbus"]?["names"]?.arrayValue?.contains(.string(Self.geoclue)) == true }
        let peers = try BusPeers(address: address)
        var made = 0
        var errors: [String] = []
        for _ in 0..<64 {
            let conn = try peers.connect().conn
            let answer = try peers.request(["op": "create-clients", "conn": conn, "count": 16])
            made += answer["made"] as? Int ?? 0
            errors += answer["errors"] as? [String] ?? []
        }
        #expect(made == 64, "uid 0 made \(made) clients")
        #expect(errors.first == "org.freedesktop.DBus.Error.LimitsExceeded: uid 0 holds 64 GeoClue clients already (each user's share): delete one first", "\(errors.prefix(1))")
        let nobody = try BusPeers(address: address, uid: 65534)
        let other = try nobody.connect()
        let answer = try nobody.request(["op": "create-clients", "conn": other.conn, "count": 1])
        #expect(answer["made"] as? Int == 1, "\(answer)")
    }

    @Test("issue 28.13: a peer that owns no client hears none of a client's signals: not Active, not Location, not LocationUpdated")
    func clientSignalsOnlyToTheOwner() throws {
        let bus = try GeoClueTestBus()
        let daemon = try DaemonHarness.onBus(bus)
        try daemon.setPermission(Self.app, "authorizedWhenInUse")
        let peers = try BusPeers(address: bus.address)
        let owner = try peers.connect()
        let stranger = try peers.connect()
        try peers.request(["op": "listen", "conn": owner.conn])
        try peers.request(["op": "listen", "conn": stranger.conn])
        let path = try Self.makeClient(peers, owner.conn)
        // EXACT: a location for every fix of the walk (CITY would give one per 2 km cell).
        let exact = "('\(Self.clientInterface)', 'RequestedAccuracyLevel', <uint32 8>)"
        #expect(try peers.call(owner.conn, Self.geoclue, path, "org.freedesktop.DBus.Properties", "Set", exact) == .success("()"))
        #expect(try peers.call(owner.conn, Self.geoclue, path, Self.clientInterface, "Start") == .success("()"))
        try daemon.replay("walk.jsonl", geoclueTrace(GeoClueFaceTests.walk, step: 0.1))
        let ownerHeard = peers.waitForSignal { $0["conn"] == "\(owner.conn)" && $0["member"] == "LocationUpdated" && $0["args"]?.contains("/Location/2") == true }
        #expect(ownerHeard != nil, "the owner heard \(peers.signals.filter { $0["conn"] == "\(owner.conn)" })")
        // A broadcast sent after all of that: once the stranger hears it, it has heard
        // everything sent to it before.
        _ = try daemon.control().call(Method.servicesSet, ["enabled": false])
        let fence = peers.waitForSignal { $0["conn"] == "\(stranger.conn)" && $0["path"] == Self.manager && $0["args"]?.contains("AvailableAccuracyLevel") == true }
        #expect(fence != nil, "the stranger heard \(peers.signals.filter { $0["conn"] == "\(stranger.conn)" })")
        let leaked = peers.signals.filter { $0["conn"] == "\(stranger.conn)" && $0["path"]?.hasPrefix("/org/freedesktop/GeoClue2/Client") == true }
        #expect(leaked.isEmpty, "\(leaked)")
        let ownerActive = peers.signals.contains { $0["conn"] == "\(owner.conn)" && $0["path"] == path && $0["args"]?.contains("'Active': <true>") == true }
        #expect(ownerActive, "the owner hears its client's Active")
    }
}
