import Foundation
import NIOCore
import SextantCore
import SextantProtocol
import Testing

@testable import SextantHub
@testable import SextantServer

/// Significant changes (RULES S1–S3) and visits (V1–V5) through the real pipeline: a
/// replayed walk on app.sock, in process on virtual time, under the authorization rules
/// (L1, L8, L9, L10).
@Suite("Significant changes and visits in the hub", .timeLimit(.minutes(2)))
struct MovementHubTests {
    static let metresPerDegree = Geo.earthRadius * .pi / 180

    /// A walk north at 1.4 m/s, one fix a second: 300 s of walking, a stop of 360 s at a
    /// café 420 m on (its fixes scattered a few metres east), then 600 s on north.
    static let walk: String = {
        var lines: [String] = []
        for t in 0..<1260 {
            let north = t < 300 ? 1.4 * Double(t) : t < 660 ? 420 : 420 + 1.4 * Double(t - 660)
            let east = (300..<660).contains(t) ? Double(t % 7) : 0
            let lat = 48 + north / metresPerDegree
            let lon = 2.3 + east / (metresPerDegree * cos(48 * Double.pi / 180))
            lines.append(#"{"t":\#(t),"location":{"lat":\#(lat),"lon":\#(lon),"hAcc":5}}"#)
        }
        return HubTimeTests.trace(start: "2026-03-01T08:00:00.000Z", lines)
    }()

    /// A hub with the walk on disk and one app `app` streaming both services, authorized
    /// `status` at `accuracy`.
    static func setUp(
        status: String = "authorizedAlways", accuracy: String = "full", state: String = "foreground"
    ) async throws -> (InProcessHub, TestClient, TestClient, String) {
        let hub = try InProcessHub()
        let path = try HubTimeTests.write(walk, in: hub, as: "walk.jsonl")
        let control = try await hub.connect(.control)
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": "com.example.cafe", "state": .string(state)])
        _ = try await control.call(Method.permissionsSet, ["app": "com.example.cafe", "status": .string(status), "accuracy": .string(accuracy)])
        _ = try await app.call(Method.significantChangesStart)
        _ = try await app.call(Method.visitsStart)
        _ = try await app.drainEvents()
        return (hub, control, app, path)
    }

    static func movementEvents(_ app: TestClient) async throws -> [(method: String, params: JSONValue)] {
        try await app.drainEvents().filter { $0.method == Event.significantChange || $0.method == Event.visit }
    }

    /// Seconds into the walk of an RFC 3339 time.
    static func second(_ value: JSONValue?) -> Int? {
        guard let text = value?.stringValue, let time = Timestamp(rfc3339: text) else { return nil }
        return Int((time.nanoseconds - Timestamp(rfc3339: "2026-03-01T08:00:00.000Z")!.nanoseconds) / 1_000_000_000)
    }

    @Test("S1–S3, V1–V3: the walk gives changes at 0 s, 718 s and 1076 s and one arrival and one departure, the same at 1× and at max")
    func sameEventsAtOneAndMax() async throws {
        var runs: [[(method: String, params: JSONValue)]] = []
        for speed: JSONValue in [1, "max"] {
            let (hub, control, app, path) = try await Self.setUp()
            _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": speed])
            await hub.advance(by: .seconds(1300))
            runs.append(try await Self.movementEvents(app))
        }
        let events = runs[0]
        let changes = events.filter { $0.method == Event.significantChange }.map { Self.second($0.params["time"]) }
        #expect(changes == [0, 718, 1076])
        let visits = events.filter { $0.method == Event.visit }.map(\.params)
        #expect(visits.count == 2)
        #expect(visits.first?["departure"] == .null && Self.second(visits.first?["arrival"]) == 288)
        #expect(Self.second(visits.last?["arrival"]) == 288 && Self.second(visits.last?["departure"]) == 719)
        #expect(visits.allSatisfy { $0["accuracy"] == "full" && ($0["hAcc"]?.doubleValue ?? 0) < 100 })
        #expect(runs[0].map(\.method) == runs[1].map(\.method) && runs[0].map(\.params) == runs[1].map(\.params))
    }

    @Test("L9: revoked at 400 s of the walk (after the first change, before the arrival), the app gets neither events after its authorization event")
    func l9NoneAfterRevoke() async throws {
        let (hub, control, app, path) = try await Self.setUp()
        _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": 1])
        await hub.advance(by: .seconds(400))
        #expect(try await Self.movementEvents(app).map(\.method) == [Event.significantChange])
        _ = try await control.call(Method.permissionsSet, ["app": "com.example.cafe", "status": "denied"])
        await hub.advance(by: .seconds(900))
        let after = try await app.drainEvents()
        #expect(after.map(\.method) == [Event.authorization])
    }

    @Test("L8: in the background, authorizedWhenInUse gets no change and no visit; authorizedAlways gets them all")
    func l8BackgroundNeedsAlways() async throws {
        for (status, expected) in [("authorizedWhenInUse", 0), ("authorizedAlways", 5)] {
            let (hub, control, app, path) = try await Self.setUp(status: status, state: "background")
            _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": "max"])
            await hub.advance(by: .seconds(2))
            #expect(try await Self.movementEvents(app).count == expected, "\(status)")
        }
    }

    @Test("L10: reduced accuracy: the change and the visit are the app's grid cell centre, hAcc at least 2000 m, accuracy reduced")
    func l10ReducedEvents() async throws {
        let (hub, control, app, path) = try await Self.setUp(accuracy: "reduced")
        // The start made the app's grid; it is written on the store's thread.
        let fudger = try await Self.committedGrid(of: "com.example.cafe", in: hub)
        _ = try await control.call(Method.watch, ["topics": [.string(Event.visit)]])
        _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": "max"])
        await hub.advance(by: .seconds(2))
        let events = try await Self.movementEvents(app)
        #expect(events.count == 5)
        let device = try #require(try await control.drainEvents().first { $0.params["app"] == nil }?.params)
        let arrival = try #require(events.first { $0.method == Event.visit }?.params)
        let cell = fudger.cell(latitude: device["lat"]!.doubleValue!, longitude: device["lon"]!.doubleValue!)
        #expect(arrival["lat"]?.doubleValue == cell.latitude && arrival["lon"]?.doubleValue == cell.longitude)
        for event in events {
            #expect(event.params["accuracy"] == "reduced" && (event.params["hAcc"]?.doubleValue ?? 0) >= 2000, "\(event)")
            #expect(event.params["speed"] == nil && event.params["alt"] == nil)
        }
    }

    /// The app's grid once it is on disk, waited for with a deadline.
    static func committedGrid(of app: String, in hub: InProcessHub) async throws -> LocationFudger {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if let fudger = try await hub.onLoop({ $0.stored.fudgers[app] }) { return fudger }
            try await Task.sleep(for: .milliseconds(5))
        }
        throw TestFailure("the grid of \(app) was not written within 60 s")
    }

    @Test("L1, L7: with Location Services off, significantChanges.start and visits.start fail with 1002; switched off mid-way, nothing more")
    func l1ServicesOff() async throws {
        let (hub, control, app, path) = try await Self.setUp()
        _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": 1])
        await hub.advance(by: .seconds(10))
        _ = try await control.call(Method.servicesSet, ["enabled": false])
        #expect(try await app.errorCode(Method.significantChangesStart) == 1002)
        #expect(try await app.errorCode(Method.visitsStart) == 1002)
        await hub.advance(by: .seconds(1290))
        let methods = try await app.drainEvents().map(\.method)
        #expect(methods.filter { $0 == Event.significantChange || $0 == Event.visit } == [Event.significantChange])
    }

    @Test("significantChanges.stop and visits.stop: nothing more of either; watch shows the device's visits and each app's copy")
    func stopAndWatch() async throws {
        let (hub, control, app, path) = try await Self.setUp()
        _ = try await control.call(Method.watch, ["topics": [.string(Event.visit), .string(Event.significantChange)]])
        _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": 1])
        await hub.advance(by: .seconds(600))
        _ = try await app.call(Method.significantChangesStop)
        _ = try await app.call(Method.visitsStop)
        await hub.advance(by: .seconds(700))
        #expect(try await Self.movementEvents(app).map(\.method) == [Event.significantChange, Event.visit])
        let watched = try await control.drainEvents()
        // The device's arrival and departure (no app), the app's change and arrival.
        #expect(watched.filter { $0.params["app"] == nil }.map(\.method) == [Event.visit, Event.visit])
        #expect(watched.filter { $0.params["app"] == "com.example.cafe" }.map(\.method) == [Event.significantChange, Event.visit])
    }

    @Test("V6: nobody listening, no visit is judged: the first listener, at 400 s of the café stop, hears a stay begun at its first fix; a second app joining mid-visit hears the departure with that arrival")
    func v6DetectedWhileHeard() async throws {
        let hub = try InProcessHub()
        let path = try HubTimeTests.write(Self.walk, in: hub, as: "walk.jsonl")
        let control = try await hub.connect(.control)
        var apps: [TestClient] = []
        for name in ["com.example.first", "com.example.second"] {
            let app = try await hub.connect(.app)
            _ = try await app.call(Method.hello, ["app": .string(name)])
            _ = try await control.call(Method.permissionsSet, ["app": .string(name), "status": "authorizedAlways"])
            apps.append(app)
        }
        _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": 1])
        await hub.advance(by: .seconds(400))
        _ = try await apps[0].call(Method.visitsStart)
        await hub.advance(by: .seconds(310))
        _ = try await apps[1].call(Method.visitsStart)
        await hub.advance(by: .seconds(600))
        let first = try await Self.movementEvents(apps[0]).map(\.params)
        let second = try await Self.movementEvents(apps[1]).map(\.params)
        // Heard through the whole stop (V1–V3) the arrival's time would be 288 s.
        let arrival = try #require(Self.second(first.first?["arrival"]))
        #expect((400...401).contains(arrival), "\(first)")
        #expect(first.count == 2 && first.last?["departure"] != .null && Self.second(first.last?["arrival"]) == arrival)
        #expect(second.count == 1 && Self.second(second.first?["arrival"]) == arrival && second.first?["departure"] != .null)
    }
}
