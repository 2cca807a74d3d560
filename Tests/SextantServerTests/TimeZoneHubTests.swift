import Foundation
import NIOCore
import SextantCore
import SextantProtocol
import SextantStore
import Testing

@testable import SextantHub
@testable import SextantServer

/// The device's time zone as a service of the hub (RULES Z1–Z10): a replayed drive from
/// Elvas (Portugal) to Badajoz (Spain) on app.sock, in process on virtual time, with the
/// tests' boundary table (Traces/tz/test-regions.sxtz, built from tzfpy's answers).
@Suite("Time zone in the hub", .timeLimit(.minutes(2)))
struct TimeZoneHubTests {
    static let tablePath = #filePath.components(separatedBy: "/Tests/")[0] + "/Traces/tz/test-regions.sxtz"
    static let table: ZoneTable = {
        do { return try ZoneTable(bytes: [UInt8](try Data(contentsOf: URL(fileURLWithPath: tablePath)))) } catch {
            fatalError("the tests' zone table: \(error)")
        }
    }()

    static let start = "2026-07-01T10:00:00.000Z"
    static let seconds = 1000
    /// Elvas to Badajoz (tzfpy's points `end-a`, `end-b` in Traces/tz/border-points.tsv), one fix a second, ~17 m/s.
    static let drive: [(lat: Double, lon: Double)] = (0...seconds).map { t in
        let f = Double(t) / Double(seconds)
        return (38.8810 + (38.8786 - 38.8810) * f, -7.1631 + (-6.9707 - -7.1631) * f)
    }
    static let trace = HubTimeTests.trace(
        start: start, drive.enumerated().map { #"{"t":\#($0.offset),"location":{"lat":\#($0.element.lat),"lon":\#($0.element.lon),"hAcc":5}}"# })
    /// The first second of the drive the table puts in Spain.
    static let firstInSpain = drive.firstIndex { table.zone(latitude: $0.lat, longitude: $0.lon) == "Europe/Madrid" }!

    static func hub(withTable: Bool = true) throws -> InProcessHub {
        try InProcessHub { configuration in
            guard withTable else { return }
            configuration.services.timeZone.table = table
            configuration.services.timeZone.tablePath = tablePath
        }
    }

    /// A hub with the drive on disk, a control client and an app (no location authorization: Z7).
    static func setUp(withTable: Bool = true) async throws -> (InProcessHub, TestClient, TestClient, String) {
        let hub = try hub(withTable: withTable)
        let path = try HubTimeTests.write(trace, in: hub, as: "elvas-badajoz.jsonl")
        let control = try await hub.connect(.control)
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": "com.example.clock"])
        return (hub, control, app, path)
    }

    static func zoneEvents(_ client: TestClient) async throws -> [JSONValue] {
        try await client.drainEvents().filter { $0.method == Event.timeZone }.map(\.params)
    }

    static func time(_ second: Int) -> JSONValue { .string(Timestamp(rfc3339: start)!.adding(nanoseconds: Int64(second) * 1_000_000_000).rfc3339) }

    static func following(_ hub: InProcessHub) async throws -> Bool {
        try await hub.onLoop { $0.services(TimeZoneService.self).isFollowing }
    }

    @Test("Z2, Z3, Z5, Z7: the drive gives Lisbon at its first fix and Madrid 30 s after the first fix in Spain, with the offsets at the fixes' times, to an app without location authorization, the same at 1× and at max")
    func crossingAtOneAndMax() async throws {
        var runs: [[JSONValue]] = []
        for speed: JSONValue in [1, "max"] {
            let (hub, control, app, path) = try await Self.setUp()
            let before = try await app.call(Method.timeZoneStart)
            #expect(before["zone"] == .null && before["automatic"] == true, "Z2: no zone before the first fix")
            _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": speed])
            await hub.advance(by: .seconds(Int64(Self.seconds + 10)))
            runs.append(try await Self.zoneEvents(app))
        }
        let events = runs[0]
        #expect(events.count == 2, "\(events)")
        #expect(events.first == [
            "zone": "Europe/Lisbon", "previous": nil, "utcOffset": 3600, "isDST": true, "time": Self.time(0), "automatic": true, "reason": "first",
        ])
        #expect(events.last == [
            "zone": "Europe/Madrid", "previous": "Europe/Lisbon", "utcOffset": 7200, "isDST": true, "time": Self.time(Self.firstInSpain + 30),
            "automatic": true, "reason": "zoneChanged",
        ])
        #expect(runs[0] == runs[1])
    }

    @Test("Z9: timeZone.set wins over the position, is stored before it is answered, and null goes back to the table's zone at the last fix")
    func setByHandAndBack() async throws {
        let (hub, control, app, path) = try await Self.setUp()
        _ = try await app.call(Method.timeZoneStart)
        _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": 1])
        await hub.advance(by: .seconds(100))
        let set = try await control.call(Method.timeZoneSet, ["zone": "Asia/Tokyo"])
        #expect(set["zone"] == "Asia/Tokyo" && set["utcOffset"] == 32400 && set["isDST"] == false && set["automatic"] == false)
        #expect(try SextantStore(directory: hub.directory + "/store").load().timeZoneOverride == "Asia/Tokyo")
        await hub.advance(by: .seconds(Int64(Self.seconds)))
        let manual = try await Self.zoneEvents(app)
        #expect(manual.map { $0["reason"] } == ["first", "manual"], "the crossing changes nothing while set by hand")
        #expect(manual.last?["previous"] == "Europe/Lisbon" && manual.last?["zone"] == "Asia/Tokyo")
        let auto = try await control.call(Method.timeZoneSet, ["zone": nil])
        #expect(auto["zone"] == "Europe/Madrid" && auto["automatic"] == true && auto["utcOffset"] == 7200)
        #expect(try SextantStore(directory: hub.directory + "/store").load().timeZoneOverride == nil)
        let back = try await Self.zoneEvents(app)
        #expect(back.map { $0["reason"] } == ["automatic"] && back.first?["previous"] == "Asia/Tokyo")
        #expect(try await app.call(Method.timeZoneGet)["zone"] == "Europe/Madrid")
    }

    @Test("Z9: a trace's control lines set the zone by hand at 300 s and back to automatic at 900 s: the same events between the same fixes at 1× and at max")
    func setByTraceControlLines() async throws {
        var runs: [[JSONValue]] = []
        for speed: JSONValue in [1, "max"] {
            let (hub, control, app, _) = try await Self.setUp()
            var lines = Self.trace.split(separator: "\n").map(String.init)
            lines.insert(#"{"t":900,"control":{"method":"timeZone.set","params":{"zone":null}}}"#, at: 901)
            lines.insert(#"{"t":300,"control":{"method":"timeZone.set","params":{"zone":"Asia/Kolkata"}}}"#, at: 301)
            let path = try HubTimeTests.write(lines.joined(separator: "\n") + "\n", in: hub, as: "controlled.jsonl")
            _ = try await app.call(Method.timeZoneStart)
            _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": speed])
            // A store write in flight holds the replay back, not the virtual clock.
            #expect(try await ScenarioTests.playToEnd(hub, control)["state"] == "finished")
            runs.append(try await Self.zoneEvents(app))
        }
        #expect(runs[0].map { $0["reason"] } == ["first", "manual", "automatic"], "\(runs[0])")
        #expect(runs[0].map { $0["zone"] } == ["Europe/Lisbon", "Asia/Kolkata", "Europe/Madrid"])
        #expect(runs[0][1]["time"] == Self.time(299) && runs[0][1]["utcOffset"] == 19800 && runs[0][2]["time"] == Self.time(899))
        #expect(runs[0] == runs[1])
    }

    @Test("Z9: a zone tzdata does not know, or not a zone id at all, is refused with -32602 and nothing is stored")
    func setRefusesUnknownZones() async throws {
        let (hub, control, _, _) = try await Self.setUp()
        #expect(try await control.errorCode(Method.timeZoneSet, ["zone": "Mars/Olympus_Mons"]) == -32602)
        #expect(try await control.errorCode(Method.timeZoneSet, ["zone": "../../etc/passwd"]) == -32602)
        #expect(try await control.errorCode(Method.timeZoneSet, [:]) == -32602)
        #expect(try SextantStore(directory: hub.directory + "/store").load().timeZoneOverride == nil)
    }

    @Test("Z10: nobody listening, the engine does not run; the first listener, in Spain, gets the zone at once and a fresh start (first, no previous); the last one gone, it stops")
    func followedOnlyWhileHeard() async throws {
        let (hub, control, app, path) = try await Self.setUp()
        _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": 1])
        await hub.advance(by: .seconds(Int64(Self.firstInSpain + 60)))
        #expect(try await Self.following(hub) == false)
        let now = try await app.call(Method.timeZoneStart)
        #expect(now["zone"] == "Europe/Madrid" && now["automatic"] == true, "one lookup at the last fix")
        await hub.advance(by: .seconds(2))
        #expect(try await Self.following(hub))
        let events = try await Self.zoneEvents(app)
        #expect(events.map { $0["reason"] } == ["first"] && events.first?["previous"] == .null && events.first?["zone"] == "Europe/Madrid")
        _ = try await app.call(Method.timeZoneStop)
        #expect(try await Self.following(hub) == false)
        _ = try await control.call(Method.watch, ["topics": [.string(Event.timeZone)]])
        await hub.advance(by: .seconds(2))
        #expect(try await Self.following(hub), "a watcher of timeZone is a listener")
        #expect(try await Self.zoneEvents(control).map { $0["zone"] } == ["Europe/Madrid"])
    }

    @Test("Z8: while Location Services is off nothing is decided from fixes; switched on again, the crossing is taken 30 s later")
    func servicesOffDecidesNothing() async throws {
        let (hub, control, app, path) = try await Self.setUp()
        _ = try await app.call(Method.timeZoneStart)
        _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": 1])
        await hub.advance(by: .seconds(100))
        _ = try await control.call(Method.servicesSet, ["enabled": false])
        await hub.advance(by: .seconds(Int64(Self.firstInSpain)))
        #expect(try await Self.zoneEvents(app).map { $0["zone"] } == ["Europe/Lisbon"])
        _ = try await control.call(Method.servicesSet, ["enabled": true])
        let on = Self.firstInSpain + 100
        await hub.advance(by: .seconds(60))
        let after = try await Self.zoneEvents(app)
        #expect(after.map { $0["zone"] } == ["Europe/Madrid"])
        let taken = after.first?["time"]?.stringValue.flatMap(Timestamp.init(rfc3339:))
        #expect(taken.map { $0 >= Timestamp(rfc3339: Self.time(on + 29).stringValue!)! } == true, "\(after)")
    }

    @Test("Z1: status shows the zone and the table; without a table the zone stays unknown and status says there is none")
    func statusWithAndWithoutTable() async throws {
        for withTable in [true, false] {
            let (hub, control, app, path) = try await Self.setUp(withTable: withTable)
            _ = try await app.call(Method.timeZoneStart)
            _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": "max"])
            await hub.advance(by: .seconds(2))
            let zone = try await control.call(Method.status)["timeZone"]
            if withTable {
                #expect(zone?["zone"] == "Europe/Madrid" && zone?["table"]?["dataVersion"] == "2026e" && zone?["table"]?["path"] == .string(Self.tablePath))
            } else {
                #expect(zone?["zone"] == .null && zone?["table"] == .null)
                #expect(try await Self.zoneEvents(app).isEmpty)
            }
        }
    }
}
