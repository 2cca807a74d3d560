import Foundation
import NIOCore
import SextantCore
import SextantProtocol
import Testing

@testable import SextantGPSDFace
@_spi(Sources) @_spi(Daemon) @testable import SextantHub
@testable import SextantServer

/// The GNSS profile and the simulated flag in the hub, in process on virtual time (RULES
/// N4–N7): what an app on app.sock receives, what `watch` and `status` show.
@Suite("GNSS profiles and the simulated flag in the hub", .timeLimit(.minutes(1)))
struct GNSSProfileHubTests {
    /// Fixes at t = 0…29 s, one a second, with an altitude.
    static let walk = HubTimeTests.trace(
        start: "2026-03-01T08:00:00.000Z",
        (0..<30).map { #"{"t":\#($0),"location":{"lat":\#(48.0 + Double($0) / 10_000),"lon":2.3,"alt":\#(35 + $0),"hAcc":4,"vAcc":3}}"# })

    /// A hub replaying the walk at `speed` to an app that streams (its accuracy `accuracy`).
    static func replaying(
        speed: JSONValue = 1, accuracy: String = "full", configure: (inout HubConfiguration) -> Void = { _ in }
    ) async throws -> (InProcessHub, TestClient, TestClient) {
        let hub = try InProcessHub(configure: configure)
        let path = try HubTimeTests.write(walk, in: hub, as: "walk.jsonl")
        let control = try await hub.connect(.control)
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": "com.example.maps"])
        _ = try await control.call(Method.permissionsSet, ["app": "com.example.maps", "status": "authorizedAlways", "accuracy": .string(accuracy)])
        _ = try await app.call(Method.locationStart)
        _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": speed])
        return (hub, control, app)
    }

    /// N4a: what apps hear when the profile's receiver loses its fix.
    static let noFixReason = "no GNSS fix: the receiver sees no satellite (a tunnel or an outage)"

    static func locations(_ app: TestClient) async throws -> [JSONValue] {
        try await app.drainEvents().filter { $0.method == Event.location }.map(\.params)
    }

    /// Seconds into the walk of each location's `time`.
    static func seconds(_ locations: [JSONValue]) -> [Int] {
        let start = Timestamp(rfc3339: "2026-03-01T08:00:00.000Z")!.nanoseconds
        return locations.compactMap { $0["time"]?.stringValue.flatMap(Timestamp.init(rfc3339:)) }.map { Int(($0.nanoseconds - start) / 1_000_000_000) }
    }

    static func profile(_ text: String) -> GNSSProfileSpec {
        try! GNSSProfileSpec.parse(text).get()
    }

    @Test("N7: a replayed fix and a hand-set one say simulated true, a live gpsd's false; --simulated-flag never and always say so of all")
    func n7SimulatedFlagBySource() async throws {
        for (flag, replayed, gpsd) in [(SimulatedFlag.auto, true, false), (.never, false, false), (.always, true, true)] {
            let (hub, _, app) = try await Self.replaying(configure: { $0.simulatedFlag = flag })
            await hub.advance(by: .milliseconds(500))
            #expect(try await Self.locations(app).map { $0["simulated"] } == [.bool(replayed)], "\(flag)")
            try await hub.onLoop { hub in
                let time = hub.now.wall
                hub.ingest(Sample(time: time, value: .location(LocationFix(latitude: 48.5, longitude: 2.2, time: time))), from: .gpsd)
            }
            #expect(try await Self.locations(app).map { $0["simulated"] } == [.bool(gpsd)], "\(flag)")
            let taken = try await hub.connect(.control).call(Method.deviceSet, ["location": ["lat": 48.6, "lon": 2.2]])
            #expect(try await Self.locations(app).map { $0["simulated"] } == [.bool(replayed)], "\(flag)")
            // device.set answers the fix as apps receive it (issue 36.14).
            #expect(taken["location"]?["simulated"] == .bool(replayed), "device.set's answer under \(flag)")
        }
    }

    @Test("N4: open-sky,tunnel@8+5: the app gets no fix in the first second (hot start), none from 8 s to 13 s + 1 s of re-acquisition, every other one")
    func n4TunnelGivesNoFix() async throws {
        let (hub, _, app) = try await Self.replaying(configure: { $0.gnssProfile = Self.profile("open-sky,tunnel@8+5") })
        await hub.advance(by: .seconds(30))
        let received = Self.seconds(try await Self.locations(app))
        #expect(received == Array(1..<8) + Array(14..<30))
    }

    @Test("N4a, issue 43.7: a tunnel is told: the app hears one locationUnavailable between its last fix and the next; watch and status show it")
    func n4aTunnelIsTold() async throws {
        let (hub, control, app) = try await Self.replaying(configure: { $0.gnssProfile = Self.profile("open-sky,tunnel@8+5") })
        let watcher = try await hub.connect(.control)
        _ = try await watcher.call(Method.watch, ["topics": [.string(Event.locationUnavailable)]])
        await hub.advance(by: .milliseconds(10_500))
        let events = try await app.drainEvents().filter { $0.method == Event.location || $0.method == Event.locationUnavailable }
        #expect(events.suffix(2).map(\.method) == [Event.location, Event.locationUnavailable], "\(events)")
        #expect(events.last?.params["reason"] == .string(Self.noFixReason))
        #expect(Self.seconds(events.dropLast().map(\.params)).last == 7)
        #expect(try await control.call(Method.status)["locationUnavailable"] == .string(Self.noFixReason))
        #expect(try await watcher.drainEvents().map(\.method) == [Event.locationUnavailable], "watch shows what the app heard")
        await hub.advance(by: .seconds(5))
        #expect(Self.seconds(try await Self.locations(app)).first == 14)
        #expect(try await control.call(Method.status)["locationUnavailable"] == .null, "over at the next fix")
    }

    @Test("N4a: with no app streaming, a tunnel still shows in watch, once")
    func n4aTunnelWatchedWithoutApps() async throws {
        let hub = try InProcessHub(configure: { $0.gnssProfile = Self.profile("open-sky,tunnel@8+5") })
        let path = try HubTimeTests.write(Self.walk, in: hub, as: "walk.jsonl")
        let control = try await hub.connect(.control)
        _ = try await control.call(Method.watch, ["topics": [.string(Event.locationUnavailable)]])
        _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": 1])
        await hub.advance(by: .seconds(20))
        let watched = try await control.drainEvents().filter { $0.method == Event.locationUnavailable }
        #expect(watched.map { $0.params["reason"] } == [.string(Self.noFixReason)])
    }

    @Test("N6: the app gets the reported fix (moved, its hAcc the profile's), watch shows the truth beside it, status names the profile")
    func n6TruthBesideTheReport() async throws {
        let (hub, control, app) = try await Self.replaying(configure: { $0.gnssProfile = Self.profile("urban"); $0.gnssSeed = 7 })
        _ = try await control.call(Method.watch, ["topics": ["location"]])
        await hub.advance(by: .milliseconds(6500))
        let fix = try #require(try await Self.locations(app).first)
        #expect(fix["time"] == "2026-03-01T08:00:05.000Z", "urban's hot start is 5 s")
        // Each published fix, without `app` (the app's copies come with it).
        let watched = try await control.drainEvents().filter { $0.method == Event.location && $0.params["app"] == nil }.map(\.params)
        #expect(watched.count == 2)
        let truth = try #require(watched.first?["truth"])
        #expect(truth["lat"]?.doubleValue == 48.0005 && truth["alt"]?.doubleValue == 40 && truth["hAcc"]?.doubleValue == 4)
        #expect(watched.first?["lat"] == fix["lat"] && fix["lat"] != truth["lat"])
        #expect(fix["hAcc"]?.doubleValue != 4 && fix["vAcc"]?.doubleValue != 3 && fix["alt"]?.doubleValue != 40)
        let gnss = try await control.call(Method.status)["gnss"]
        #expect(gnss == ["profile": "urban", "seed": 7, "simulatedFlag": "auto"])
    }

    @Test("N5: the same profile and seed give the app the same fixes at speed 1 and speed 7, and again after gnss.profile sets it anew")
    func n5SameFixesAtEverySpeed() async throws {
        var runs: [[JSONValue]] = []
        for speed: JSONValue in [1, 7] {
            let (hub, _, app) = try await Self.replaying(speed: speed, configure: { $0.gnssProfile = Self.profile("urban,tunnel@12+3"); $0.gnssSeed = 7 })
            await hub.advance(by: .seconds(30))
            runs.append(try await Self.locations(app))
        }
        #expect(runs[0].count > 15)
        #expect(runs[0] == runs[1])
        let (hub, control, app) = try await Self.replaying(speed: 3)
        #expect(try await control.call(Method.gnssProfile, ["profile": "urban,tunnel@12+3", "seed": 7]) == ["profile": "urban,tunnel@12+3", "seed": 7, "simulatedFlag": "auto"])
        _ = try await control.call(Method.replayStart, ["path": .string(hub.directory + "/walk.jsonl"), "speed": 3])
        _ = try await app.drainEvents()
        await hub.advance(by: .seconds(30))
        #expect(try await Self.locations(app) == runs[0])
    }

    @Test("N5: a seek is a hot start: open-sky gives no fix for 1 s after it, then fixes again")
    func n5SeekIsAHotStart() async throws {
        let (hub, control, app) = try await Self.replaying(configure: { $0.gnssProfile = Self.profile("open-sky") })
        await hub.advance(by: .milliseconds(3500))
        _ = try await control.call(Method.replaySeek, ["position": 20])
        await hub.advance(by: .milliseconds(2500))
        let received = Self.seconds(try await Self.locations(app))
        #expect(received == [1, 2, 3, 21, 22], "the fix at 20 s, played at the seek, is the hot start's")
    }

    @Test("gnss.profile: a bad spec is -32602 naming the part and what is allowed; off clears it and fixes pass untouched")
    func gnssProfileMethod() async throws {
        let (hub, control, app) = try await Self.replaying(configure: { $0.gnssProfile = Self.profile("indoor") })
        let bad = try await control.request(Method.gnssProfile, ["profile": "urban,tunel@3+4"])["error"]
        #expect(bad?["code"] == -32602)
        #expect(bad?["message"]?.stringValue?.contains("unknown GNSS event 'tunel@3+4'") == true, "\(String(describing: bad))")
        #expect(try await control.errorCode(Method.gnssProfile, ["profile": "urban", "seed": -1]) == -32602)
        #expect(try await control.call(Method.gnssProfile, ["profile": "off"]) == ["profile": .null, "seed": 1, "simulatedFlag": "auto"])
        await hub.advance(by: .milliseconds(2500))
        let fixes = try await Self.locations(app)
        // The fix at 0 s was indoor's hot start; the ones at 1 s and 2 s pass as they are.
        #expect(fixes.map { $0["hAcc"]?.doubleValue } == [4, 4] && fixes.first?["lat"]?.doubleValue == 48.0001 && fixes.first?["alt"]?.doubleValue == 36)
    }

    @Test("Altitude end to end, L10: alt and vAcc reach a full-accuracy app and the gpsd face (altMSL, epv); a reduced app gets neither")
    func altitudeOnEveryFaceAndNotReduced() async throws {
        let (hub, control, app) = try await Self.replaying(speed: 1, accuracy: "full")
        _ = try await control.call(Method.permissionsSet, ["app": .string(GPSDPeer.unknownApp), "status": "authorizedAlways"])
        let gpsd = try await hub.connectGPSD()
        try await gpsd.send(#"?WATCH={"enable":true,"json":true}"#)
        let reduced = try await hub.connect(.app)
        _ = try await reduced.call(Method.hello, ["app": "com.example.coarse"])
        _ = try await control.call(Method.permissionsSet, ["app": "com.example.coarse", "status": "authorizedAlways", "accuracy": "reduced"])
        _ = try await reduced.call(Method.locationStart)
        _ = try await gpsd.drainReports()
        await hub.advance(by: .seconds(2))
        // The reduced app's first fix waits for its grid's store write, and the replay with
        // it (L10): real time, which virtual time does not move.
        var fixes: [JSONValue] = []
        let deadline = ContinuousClock.now + .seconds(60)
        while fixes.last?["alt"]?.doubleValue != 37, ContinuousClock.now < deadline {
            await hub.advance(by: .milliseconds(1))
            fixes += try await Self.locations(app)
        }
        let full = try #require(fixes.last)
        #expect(full["alt"]?.doubleValue == 37 && full["vAcc"]?.doubleValue == 3)
        let tpv = try #require(try await gpsd.drainReports().last { $0["class"] == "TPV" })
        #expect(tpv["altMSL"]?.doubleValue == 37 && tpv["epv"]?.doubleValue == 3 && tpv["mode"] == 3)
        let coarse = try #require(try await Self.locations(reduced).first)
        #expect(coarse["accuracy"] == "reduced" && coarse["alt"] == nil && coarse["vAcc"] == nil)
    }
}
