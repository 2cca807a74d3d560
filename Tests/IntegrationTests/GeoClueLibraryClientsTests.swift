import Foundation
import SextantProtocol
import SextantTestSupport
import Testing

/// Sextant as GeoClue 2.6 to the client libraries desktop apps use, unmodified: libgeoclue's
/// GClue.Simple through GObject introspection (GNOME apps) and Qt Positioning's geoclue2
/// plugin (Qt apps). docs/compatibility.md, GeoClue.
@Suite(
    "GeoClue face: GClue.Simple and Qt Positioning", .serialized,
    .requires(GeoClueClients.requirement, GeoClueLibraries.requirement))
struct GeoClueLibraryClientsTests {
    /// A walk east along 48°N, 0.0005° (37 m) a step, a step a second; values written here.
    static let walk = (0..<5).map { (lat: 48.0, lon: 2.35 + Double($0) * 0.0005) }
    /// 2026-03-01T08:00:00Z, the start of `geoclueTrace`, in seconds since the epoch.
    static let start: UInt64 = 1_772_352_000

    /// The lines a client printed, "LATITUDE LONGITUDE … SECONDS", as numbers.
    private func printed(_ output: String) -> [[Double]] {
        output.split(separator: "\n").map { $0.split(separator: " ").compactMap { Double($0) } }.filter { $0.count >= 3 }
    }

    private func expectWalk(_ lines: [[Double]], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(lines.count == Self.walk.count, "\(lines)", sourceLocation: sourceLocation)
        for (index, (line, want)) in zip(lines, Self.walk).enumerated() {
            #expect(abs(line[0] - want.lat) <= 5e-7 && abs(line[1] - want.lon) <= 5e-7, "location \(index): \(line)", sourceLocation: sourceLocation)
            #expect(UInt64(line[line.count - 1]) == Self.start + UInt64(index), "the fix's own time: \(line)", sourceLocation: sourceLocation)
        }
    }

    /// An empty directory in the test's own.
    private func freshDirectory(_ daemon: DaemonHarness, _ name: String) throws -> String {
        let path = daemon.directory + "/" + name
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false)
        return path
    }

    @Test("L1: GClue.Simple (EXACT) of a granted app gets every replayed position, in order, with the accuracy and the fix's own time")
    func gclueSimple() throws {
        let bus = try GeoClueTestBus()
        let daemon = try DaemonHarness.onBus(bus)
        try daemon.setPermission(GeoClueLibraries.gclueApp, "authorizedWhenInUse")
        let client = try ClientProcess(
            [GeoClueLibraries.python, GeoClueLibraries.script("gclue_simple.py"), GeoClueLibraries.gclueApp, String(Self.walk.count)],
            directory: daemon.directory, name: "gclue-simple", environment: bus.environment)
        // Its constructor waits for the first location: the client is started before any.
        try daemon.waitForActiveGeoClueClient(GeoClueLibraries.gclueApp)
        try daemon.replay("walk.jsonl", geoclueTrace(Self.walk, step: 1))
        #expect(try client.exitStatus(timeout: 30) == 0, "\(client.output())\(client.errors())")
        let lines = printed(client.output())
        expectWalk(lines)
        #expect(lines.allSatisfy { $0[2] == 4 }, "the trace's accuracy: \(lines)")
    }

    @Test("L1: Qt Positioning's geoclue2 plugin (satellite positioning) of a granted app gets every replayed position with the fix's own time")
    func qtPositioning() throws {
        let bus = try GeoClueTestBus()
        let daemon = try DaemonHarness.onBus(bus)
        try daemon.setPermission(GeoClueLibraries.qtApp, "authorizedWhenInUse")
        var environment = bus.environment
        // The plugin hands out the last position it kept there before any new one.
        environment["XDG_DATA_HOME"] = try freshDirectory(daemon, "qt-data")
        let client = try ClientProcess(
            [GeoClueLibraries.python, GeoClueLibraries.script("qt_positioning.py"), GeoClueLibraries.qtApp, String(Self.walk.count)],
            directory: daemon.directory, name: "qt-positioning", environment: environment)
        try daemon.waitForActiveGeoClueClient(GeoClueLibraries.qtApp)
        try daemon.replay("walk.jsonl", geoclueTrace(Self.walk, step: 1))
        #expect(try client.exitStatus(timeout: 30) == 0, "\(client.output())\(client.errors())")
        expectWalk(printed(client.output()))
    }

    @Test("L1: a denied app's Qt Positioning source reports an access error and gets no position")
    func qtPositioningDenied() throws {
        let bus = try GeoClueTestBus()
        let daemon = try DaemonHarness.onBus(bus)
        try daemon.setPermission(GeoClueLibraries.qtApp, "denied")
        var environment = bus.environment
        environment["XDG_DATA_HOME"] = try freshDirectory(daemon, "qt-data")
        let client = try ClientProcess(
            [GeoClueLibraries.python, GeoClueLibraries.script("qt_positioning.py"), GeoClueLibraries.qtApp, "1"],
            directory: daemon.directory, name: "qt-positioning", environment: environment)
        #expect(try client.exitStatus(timeout: 30) == 0, "\(client.output())\(client.errors())")
        // QGeoPositionInfoSource::AccessError is 0.
        #expect(client.output() == "error 0\n", "\(client.output())\(client.errors())")
    }
}

/// The client libraries and the scripts that drive them (Tests/Fixtures/geoclue-clients).
enum GeoClueLibraries {
    /// Debian's Python, where python3-gi and python3-pyqt5 are (not a virtual environment's).
    static let python = "/usr/bin/python3"
    static let gclueApp = "sextant-gclue-simple"
    static let qtApp = "sextant-qt-positioning"

    static func script(_ name: String) -> String { Repository.root + "/Tests/Fixtures/geoclue-clients/" + name }

    static let requirement = Requirement.all([
        .file("/usr/lib/x86_64-linux-gnu/girepository-1.0/Geoclue-2.0.typelib", package: "gir1.2-geoclue-2.0"),
        .command([python, "-c", "import gi"], "needs python3-gi (Debian: Tools/ci/setup.sh installs it)"),
        .command([python, "-c", "from PyQt5.QtPositioning import QGeoPositionInfoSource"],
                 "needs python3-pyqt5.qtpositioning (Debian: Tools/ci/setup.sh installs it)"),
        .file("/usr/lib/x86_64-linux-gnu/qt5/plugins/position/libqtposition_geoclue2.so", package: "libqt5positioning5-plugins"),
    ])
}
