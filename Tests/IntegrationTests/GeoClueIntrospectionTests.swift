import Foundation
import SextantProtocol
import SextantTestSupport
import Testing

/// `gdbus introspect` of Sextant's GeoClue objects against the real GeoClue 2.6's, recorded
/// from Debian's service (Tests/Fixtures/geoclue/README.md).
@Suite(
    "GeoClue face: introspection as GeoClue 2.6", .serialized,
    .requires(GeoClueClients.requirement))
struct GeoClueIntrospectionTests {
    /// Each interface's block of `gdbus introspect` output, by name, its lines trimmed and
    /// property values (`= 8`, which depend on the state) dropped.
    static func interfaces(_ text: String) -> [String: [String]] {
        var blocks: [String: [String]] = [:]
        var current: String?
        for raw in text.split(separator: "\n") {
            let line = raw.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("interface "), line.hasSuffix("{") {
                current = String(line.dropFirst("interface ".count).dropLast(2))
                blocks[current!] = []
            } else if line == "};" {
                current = nil
            } else if let name = current {
                blocks[name]!.append(line.contains(" = ") ? line.components(separatedBy: " = ")[0] + ";" : line)
            }
        }
        return blocks
    }

    static func fixture(_ name: String) throws -> [String: [String]] {
        let text = try String(contentsOfFile: Repository.root + "/Tests/Fixtures/geoclue/\(name).introspect", encoding: .utf8)
        // GeoClue's XML gives DistanceThreshold and TimeThreshold an accountsservice
        // annotation (DefaultValue 0) that GDBus shows; Sextant's tables carry no annotations.
        return interfaces(text).mapValues { $0.filter { !$0.hasPrefix("@org.freedesktop.Accounts.DefaultValue") } }
    }

    private func expectSame(_ path: String, as fixture: String, on bus: GeoClueTestBus, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let shown = try bus.gdbus(["introspect", "--dest", "org.freedesktop.GeoClue2", "--object-path", path])
        #expect(shown.status == 0, "\(shown.stderr)", sourceLocation: sourceLocation)
        let ours = Self.interfaces(shown.stdout)
        let theirs = try Self.fixture(fixture)
        #expect(Set(ours.keys) == Set(theirs.keys), "\(path): interfaces \(ours.keys.sorted()) vs GeoClue's \(theirs.keys.sorted())", sourceLocation: sourceLocation)
        for (name, lines) in theirs {
            #expect(ours[name] == lines, "\(path) \(name):\n\(ours[name] ?? [])\nGeoClue 2.6:\n\(lines)", sourceLocation: sourceLocation)
        }
    }

    @Test("the manager, a client and a location show GeoClue 2.6's interfaces (methods, arguments, signals, property types and access)")
    func introspectionMatchesGeoClue() throws {
        let bus = try GeoClueTestBus()
        let daemon = try DaemonHarness.onBus(bus, grant: true)
        try expectSame("/org/freedesktop/GeoClue2/Manager", as: "manager", on: bus)
        let client = try WhereAmI(bus: bus, directory: daemon.directory)
        try daemon.waitForActiveGeoClueClient()
        try daemon.replay("one.jsonl", geoclueTrace([(lat: 48.0, lon: 2.35)], step: 1))
        _ = try client.waitForLocations(1)
        try expectSame("/org/freedesktop/GeoClue2/Client/1", as: "client", on: bus)
        try expectSame("/org/freedesktop/GeoClue2/Client/1/Location/0", as: "location", on: bus)
        // The real service's tree: the manager, and the clients under Client.
        let root = try bus.gdbus(["introspect", "--dest", "org.freedesktop.GeoClue2", "--object-path", "/org/freedesktop/GeoClue2"])
        #expect(root.stdout.contains("node Manager {") && root.stdout.contains("node Client {"), "\(root.stdout)")
    }

    @Test("the fixtures are read as expected: GeoClue's Manager has its four methods and two properties")
    func fixturesParse() throws {
        let manager = try Self.fixture("manager")["org.freedesktop.GeoClue2.Manager"] ?? []
        #expect(manager.contains("GetClient(out o client);") && manager.contains("AddAgent(in  s id);"))
        #expect(manager.contains("readonly b InUse;") && manager.contains("readonly u AvailableAccuracyLevel;"))
        let client = try Self.fixture("client")["org.freedesktop.GeoClue2.Client"] ?? []
        #expect(client.contains("readwrite u DistanceThreshold;") && client.contains("LocationUpdated(o old,"))
    }
}
