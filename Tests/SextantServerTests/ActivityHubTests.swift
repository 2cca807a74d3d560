import Foundation
import NIOCore
import SextantCore
import SextantProtocol
import Testing

@testable import SextantHub
@testable import SextantServer

/// Activity and steps (RULES A1–A9) through the real pipeline: a replayed walk → drive on
/// app.sock, in process on virtual time.
@Suite("Activity and steps in the hub", .timeLimit(.minutes(2)))
struct ActivityHubTests {
    static let metresPerDegree = Geo.earthRadius * .pi / 180
    static let start = "2026-03-01T08:00:00.000Z"

    /// One fix a second due north: 120 s walking at 1.4 m/s, then 240 s driving at 13.4 m/s,
    /// then 60 s parked; `extra` lines (records) follow the fix of 30 s.
    static func walkThenDrive(_ extra: [String] = []) -> String {
        var lines: [String] = []
        var north = 0.0
        for t in 0...420 {
            if t > 0 { north += t <= 120 ? 1.4 : t <= 360 ? 13.4 : 0 }
            lines.append(#"{"t":\#(t),"location":{"lat":\#(48 + north / metresPerDegree),"lon":2.3}}"#)
            if t == 30 { lines += extra }
        }
        return HubTimeTests.trace(start: start, lines)
    }

    static func second(_ value: JSONValue?) -> Int? {
        guard let text = value?.stringValue, let time = Timestamp(rfc3339: text) else { return nil }
        return Int((time.nanoseconds - Timestamp(rfc3339: start)!.nanoseconds) / 1_000_000_000)
    }

    /// A hub with the trace on disk and an app listening to `methods`.
    static func setUp(_ trace: String, methods: [(String, JSONValue)]) async throws -> (InProcessHub, TestClient, TestClient, String) {
        let hub = try InProcessHub()
        let path = try HubTimeTests.write(trace, in: hub, as: "trip.jsonl")
        let control = try await hub.connect(.control)
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": "com.example.fit"])
        _ = try await control.call(Method.motionPermissionsSet, ["app": "com.example.fit", "status": "authorized"])
        for (method, params) in methods { _ = try await app.call(method, params) }
        _ = try await app.drainEvents()
        return (hub, control, app, path)
    }

    @Test("A3, A6: the walk is entered 10 s in and the drive 60 s after it began; the transitions' elapsed times lie as far apart as the activities' starts")
    func entryDelaysAndTransitions() async throws {
        let (hub, control, app, path) = try await Self.setUp(
            Self.walkThenDrive(), methods: [(Method.activityStart, [:]), (Method.activityTransitionsStart, ["types": ["walking", "automotive"]])])
        _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": 1])
        await hub.advance(by: .seconds(430))
        let events = try await app.drainEvents()
        let activities = events.filter { $0.method == Event.activity }.map(\.params)
        let walking = try #require(activities.first { $0["types"] == ["walking"] })
        #expect(Self.second(walking["startDate"]) == 1 && walking["confidence"] == "low" && walking["source"] == "derived")
        let driving = try #require(activities.first { $0["types"] == ["automotive"] })
        let driveBegan = try #require(Self.second(driving["startDate"]))
        #expect((121...124).contains(driveBegan))
        let transitions = events.filter { $0.method == Event.activityTransition }.map(\.params)
        #expect(transitions.map { $0["activity"]?.stringValue ?? "" } == ["walking", "walking", "automotive"])
        #expect(transitions.map { $0["transition"]?.stringValue ?? "" } == ["enter", "exit", "enter"])
        let elapsed = transitions.compactMap { $0["elapsedRealtimeNanos"]?.intValue }
        #expect(elapsed.count == 3 && elapsed[2] - elapsed[0] == Int(driveBegan - 1) * 1_000_000_000)
        // The stop at the end is automotive and stationary: the app asked for no stationary transition.
        #expect(activities.last?["types"] == ["stationary", "automotive"])
    }

    @Test("A7: the pedometer counts whole steps of the walk only, its distance within one step of the 168 m walked, monotone; the query agrees")
    func stepsAgreeWithDistance() async throws {
        let (hub, control, app, path) = try await Self.setUp(Self.walkThenDrive(), methods: [(Method.pedometerStart, [:])])
        _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": "max"])
        await hub.advance(by: .seconds(2))
        let counts = try await app.drainEvents().filter { $0.method == Event.pedometer }.map(\.params)
        let steps = counts.compactMap { $0["numberOfSteps"]?.intValue }
        #expect(steps == steps.sorted() && steps.count == counts.count)
        let last = try #require(counts.last)
        let length = 0.45 + 0.2 * 1.4
        #expect(steps.last == Int((168 / length).rounded(.down)))
        let distance = try #require(last["distance"]?.doubleValue)
        #expect(distance <= 168 + 1e-6 && 168 - distance < length)
        #expect(abs((last["currentCadence"]?.doubleValue ?? 0) - 1.4 / length) < 1e-9)
        let query = try await app.call(Method.pedometerQuery, ["from": .string(Self.start), "to": "2026-03-01T09:00:00.000Z"])
        #expect(query["numberOfSteps"]?.intValue == steps.last && query["currentCadence"] == .null)
    }

    @Test("A8: activity.query gives the activities begun in the span, oldest first; a span backwards is refused naming it")
    func activityQuery() async throws {
        let (hub, control, app, path) = try await Self.setUp(Self.walkThenDrive(), methods: [(Method.activityStart, [:])])
        _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": "max"])
        await hub.advance(by: .seconds(2))
        let answer = try await app.call(Method.activityQuery, ["from": .string(Self.start), "to": "2026-03-01T08:10:00.000Z"])
        let list = try #require(answer["activities"]?.arrayValue)
        #expect(list.first?["types"] == ["walking"] && list.contains { $0["types"] == ["automotive"] })
        let refused = try await app.request(Method.activityQuery, ["from": "2026-03-01T09:00:00.000Z", "to": .string(Self.start)])
        #expect(refused["error"]?["code"] == -32602 && refused["error"]?["message"]?.stringValue?.contains("\"from\"") == true)
    }

    @Test("A9: a recorded activity replaces the derived one from its time; activity.set holds over it until auto")
    func recordedAndHandOverride() async throws {
        let recorded = [#"{"t":30,"activity":{"types":["running"],"confidence":"medium"}}"#]
        let (hub, control, app, path) = try await Self.setUp(Self.walkThenDrive(recorded), methods: [(Method.activityStart, [:])])
        _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": "max"])
        await hub.advance(by: .seconds(2))
        let activities = try await app.drainEvents().filter { $0.method == Event.activity }.map(\.params)
        #expect(activities.map { $0["source"]?.stringValue ?? "" } == ["derived", "recorded"])
        #expect(activities.last?["types"] == ["running"] && activities.last?["confidence"] == "medium")
        _ = try await control.call(Method.activitySet, ["activity": "cycling"])
        let held = try await app.drainEvents().filter { $0.method == Event.activity }.map(\.params)
        #expect(held.map { $0["types"] } == [["cycling"]] && held.first?["source"] == "hand")
        #expect(try await control.call(Method.status)["activity"]?["source"] == "hand")
        _ = try await control.call(Method.activitySet, ["activity": "auto"])
        #expect(try await app.drainEvents().last?.params["source"] == "recorded")
        #expect(try await control.errorCode(Method.activitySet, ["activity": "flying"]) == -32602)
    }

    @Test("A10: pay only for what is heard: nobody listening, the replay leaves no step and no activity; a bad transition type is refused naming it")
    func nothingWithoutAListener() async throws {
        let (hub, control, app, path) = try await Self.setUp(Self.walkThenDrive(), methods: [])
        _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": 1])
        await hub.advance(by: .seconds(430))
        #expect(try await control.call(Method.status)["location"] != .null, "the replay played")
        let status = try await control.call(Method.status)
        #expect(status["activity"] == .null && status["steps"]?["numberOfSteps"] == 0)
        let refused = try await app.request(Method.activityTransitionsStart, ["types": ["walking", "flying"]])
        #expect(refused["error"]?["message"]?.stringValue?.contains("\"types[1]\"") == true)
    }

    @Test("A11: without Motion & Fitness every start and query is refused with 1001 naming the status; a revoke ends the streams; the status is listed")
    func motionPermission() async throws {
        let (hub, control, app, path) = try await Self.setUp(Self.walkThenDrive(), methods: [(Method.activityStart, [:]), (Method.pedometerStart, [:])])
        #expect(try await app.call(Method.activityAuthorization)["status"] == "authorized")
        _ = try await control.call(Method.motionPermissionsSet, ["app": "com.example.fit", "status": "denied"])
        #expect(try await control.call(Method.motionPermissionsList) == [["app": "com.example.fit", "status": "denied"]])
        _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": "max"])
        await hub.advance(by: .seconds(2))
        #expect(try await app.drainEvents().filter { $0.method == Event.activity || $0.method == Event.pedometer }.isEmpty)
        for method in [Method.activityStart, Method.activityTransitionsStart, Method.pedometerStart] {
            let refused = try await app.request(method)
            #expect(refused["error"]?["code"] == 1001, "\(method)")
            #expect(refused["error"]?["message"]?.stringValue?.contains("Motion & Fitness is denied for com.example.fit") == true)
        }
        let query = try await app.request(Method.pedometerQuery, ["from": .string(Self.start), "to": .string(Self.start)])
        #expect(query["error"]?["code"] == 1001)
        _ = try await control.call(Method.motionPermissionsSet, ["app": "com.example.fit", "status": "notDetermined"])
        #expect(try await app.call(Method.activityAuthorization)["status"] == "notDetermined")
        #expect(try await app.errorCode(Method.activityStart) == 1001)
        #expect(try await control.call(Method.motionPermissionsList) == [])
    }
}
