import SextantCore
import SextantProtocol
import Testing

@_spi(Sources) @_spi(Daemon) @testable import SextantHub
@testable import SextantServer
@testable import SextantStore

/// A toy record kind, registered nowhere in Sextant: a count of access points heard.
struct AccessPointCount: RecordValue {
    var count: Int

    static let kind = RecordKind(name: "apcount", of: AccessPointCount.self)
    static var recordKind: RecordKind { kind }
    var recordBody: JSONValue { ["count": .int(Int64(count))] }
    static func read(recordBody: JSONValue) -> Result<AccessPointCount, RecordProblem> {
        guard let count = recordBody["count"]?.intValue else { return .failure(RecordProblem("apcount.count must be an integer")) }
        return .success(AccessPointCount(count: Int(count)))
    }
    var spoolWords: [UInt64] { [UInt64(count)] }
    init(count: Int) { self.count = count }
    init(spoolWords: ArraySlice<UInt64>) { count = Int(spoolWords.first ?? 0) }
}

/// A service that consumes the toy kind, as a Wi-Fi positioning service would its scans.
final class AccessPointCountService: PhoneService {
    static var consumedRecords: [RecordKind] { [AccessPointCount.kind] }
    private(set) var heard: [String] = []

    init(hub: Hub, stored: StoreSnapshot) {}

    func recordSampled(_ record: SampleRecord, at time: Timestamp, from source: SourceName) {
        heard.append("\(record.kind) \(record.value(as: AccessPointCount.self)?.count ?? -1) from \(source.rawValue)")
    }
}

@Suite("Record kinds: the hub routes a record to the services that consume its kind (issue 37.3)", .timeLimit(.minutes(1)))
struct RecordRoutingTests {
    @Test("A record reaches only the services that list its kind; one of a kind no service lists is dropped")
    func routedByKind() async throws {
        let hub = try InProcessHub()
        let heard = try await hub.onLoop { hub -> [String] in
            let stored = StoreSnapshot(permissions: [:], servicesEnabled: true, policy: PromptPolicy(choice: nil), fudgers: [:], owners: [:])
            let services = Services(hub: hub, stored: stored, registry: [SatellitesService.self, AccessPointCountService.self])
            services.route(SampleRecord(SkyView(satellites: [])), at: hub.now.wall, from: .replay)
            services.route(SampleRecord(AccessPointCount(count: 3)), at: hub.now.wall, from: .replay)
            services.route(SampleRecord(AccessPointCount(count: 5)), at: hub.now.wall, from: .gpsd)
            // The daemon's own services consume no such kind: its records go nowhere.
            hub.ingest(Sample(time: hub.now.wall, value: .record(SampleRecord(AccessPointCount(count: 7)))), from: .manual)
            return services(AccessPointCountService.self).heard
        }
        #expect(heard == ["apcount 3 from replay", "apcount 5 from gpsd"])
    }
}
