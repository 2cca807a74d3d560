import NIOCore
import SextantProtocol
import Testing

@testable import SextantHub
@testable import SextantServer

/// The device's clock and time travel (RULES C1–C10, docs/platforms.md), in process: the
/// loop's virtual time stands still unless a test says otherwise, so whatever happens
/// here happened because the device's clock moved.
@Suite("The device's clock, in process", .timeLimit(.minutes(1)))
struct DeviceClockHubTests {
    static let app = "com.example.once"

    /// An app granted Allow Once through its prompt, then sent to the background.
    static func allowOnceInBackground(_ hub: InProcessHub, _ control: TestClient) async throws -> TestClient {
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": .string(Self.app)])
        try await app.send(#"{"jsonrpc":"2.0","id":"ask","method":"authorization.request","params":{"level":"whenInUse"}}"#)
        _ = try await control.call(Method.promptsAnswer, ["app": .string(Self.app), "choice": "allowOnce"])
        #expect(try await app.response(to: "ask")["result"]?["status"] == "authorizedWhenInUse")
        _ = try await app.call(Method.appUpdate, ["state": "background"])
        _ = try await app.drainEvents()
        return app
    }

    /// Every line the app is sent up to the answer of a request sent now (`id`): what was
    /// written before it, without waiting for what may never come.
    static func answers(_ app: TestClient, upTo id: String) async throws -> [JSONValue] {
        try await app.send(#"{"jsonrpc":"2.0","id":"\#(id)","method":"authorization.get"}"#)
        var lines: [JSONValue] = []
        repeat { lines.append(try await app.nextMessage()) } while lines.last?["id"] != .string(id)
        return lines
    }

    static func statuses(_ app: TestClient) async throws -> [JSONValue?] {
        try await app.drainEvents().filter { $0.method == Event.authorization }.map { $0.params["status"] }
    }

    @Test("C6 (L5's 60 s): an Allow Once grant in the background reverts when the clock is advanced 61 s, with no loop time passing; 30 s does not")
    func testC6_allowOnceExpiresWhenClockAdvancedPastSixtySeconds() async throws {
        let hub = try InProcessHub { $0.allowOnceBackgroundLimit = .seconds(60) }  // the mechanism, at L5's old 60 s
        let control = try await hub.connect(.control)
        let app = try await Self.allowOnceInBackground(hub, control)

        _ = try await control.call(Method.timeAdvance, ["seconds": 30])
        #expect(try await Self.statuses(app).isEmpty, "30 s in the background: still granted")
        #expect(try await app.call(Method.authorizationGet)["status"] == "authorizedWhenInUse")

        let advanced = try await control.call(Method.timeAdvance, ["seconds": 31])
        #expect(advanced["offsetSeconds"] == 61 && advanced["monotonicOffsetSeconds"] == 61, "\(advanced)")
        #expect(try await Self.statuses(app) == ["notDetermined"], "61 s: the grant lapsed at once")
        #expect(try await app.call(Method.authorizationGet)["status"] == "notDetermined")
    }

    @Test(
        "C10 C6: a scenario's time.advance 61 at t = 5.5 ends an Allow Once grant in the background between the fixes of 5 s and 6 s, at 1× and at max",
        arguments: [JSONValue.int(1), .string("max")])
    func testC10_timeTravelInAScenarioLandsBetweenTheSameFixes(speed: JSONValue) async throws {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        let app = try await Self.allowOnceInBackground(hub, control)
        let fixes = (0...10).map { #"{"t":\#($0),"location":{"lat":48.85837,"lon":2.29448,"hAcc":5}}"# }
        let trace = try HubTimeTests.write(HubTimeTests.trace(start: "2026-03-01T08:00:00.000Z", fixes), in: hub, as: "walk.jsonl")
        let scenario = try HubTimeTests.write(#"{"t":5.5,"control":{"method":"time.advance","params":{"seconds":61}}}"# + "\n", in: hub, as: "travel.jsonl")
        _ = try await control.call(Method.watch, ["topics": ["location", "authorization"]])
        _ = try await control.call(Method.replayStart, ["path": .string(trace), "scenario": .string(scenario), "speed": speed])
        let status = try await ScenarioTests.playToEnd(hub, control)
        #expect(status["state"] == "finished" && status["error"] == nil, "\(status)")
        let seen = try await control.drainEvents().map { event in
            event.method == Event.location ? event.params["time"]?.stringValue ?? "-" : "\(event.method) \(event.params["status"]?.stringValue ?? "-")"
        }
        let expected = (0...5).map { "2026-03-01T08:00:0\($0).000Z" } + ["authorization notDetermined"] + (6...9).map { "2026-03-01T08:00:0\($0).000Z" }
            + ["2026-03-01T08:00:10.000Z"]
        #expect(seen == expected, "\(seen)")
        #expect(try await Self.statuses(app) == ["notDetermined"])
    }

    @Test("C6: after a jump of 30 s, the timer fires 30 s of loop time later, not 60")
    func testC6_aJumpShortensTheTimersStillRunning() async throws {
        let hub = try InProcessHub { $0.allowOnceBackgroundLimit = .seconds(60) }  // the mechanism, at L5's old 60 s
        let control = try await hub.connect(.control)
        let app = try await Self.allowOnceInBackground(hub, control)
        _ = try await control.call(Method.timeAdvance, ["seconds": 30])
        await hub.advance(by: .seconds(29))
        #expect(try await Self.statuses(app).isEmpty)
        await hub.advance(by: .milliseconds(1002))
        #expect(try await Self.statuses(app) == ["notDetermined"])
    }

    @Test("C6: a location.once waiting for a fix fails with 1006 once the clock passes its 30 s, with no loop time passing")
    func testC6_locationOnceTimesOutOnTheDeviceClock() async throws {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": "com.example.once"])
        _ = try await control.call(Method.permissionsSet, ["app": "com.example.once", "status": "authorizedAlways"])
        try await app.send(#"{"jsonrpc":"2.0","id":"once","method":"location.once"}"#)
        _ = try await control.call(Method.timeAdvance, ["seconds": 29])
        #expect(try await Self.answers(app, upTo: "29s").contains { $0["id"] == "once" } == false, "29 s: still waiting")
        _ = try await control.call(Method.timeAdvance, ["seconds": 2])
        let answered = try await Self.answers(app, upTo: "31s").first { $0["id"] == "once" }
        #expect(answered?["error"]?["code"] == 1006, "31 s: answered before time.advance was")
    }

    @Test("C2 C4: time.set earlier moves only the wall, never the monotonic clock; later moves both by as much")
    func testC4_timeSetEarlierNeverMovesMonotonicBack() async throws {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        let before = try await control.call(Method.timeGet)
        #expect(before["wall"] == "2026-03-01T08:00:00.000Z" && before["offsetSeconds"] == 0, "\(before)")
        let earlier = try await control.call(Method.timeSet, ["wall": "2026-02-28T08:00:00Z"])
        #expect(earlier["wall"] == "2026-02-28T08:00:00.000Z" && earlier["offsetSeconds"] == -86400, "\(earlier)")
        #expect(earlier["monotonicOffsetSeconds"] == 0)
        #expect(try #require(earlier["monotonicSeconds"]?.doubleValue) >= #require(before["monotonicSeconds"]?.doubleValue))
        let later = try await control.call(Method.timeSet, ["wall": "2026-03-02T08:00:00Z"])
        #expect(later["offsetSeconds"] == 86400 && later["monotonicOffsetSeconds"] == 172_800, "\(later)")
        let reset = try await control.call(Method.timeReset)
        #expect(reset["wall"] == "2026-03-01T08:00:00.000Z" && reset["offsetSeconds"] == 0, "\(reset)")
        #expect(reset["monotonicOffsetSeconds"] == 172_800, "C5: the monotonic clock keeps its lead")
    }

    @Test("C7: a prompt's created stamp, the decision's updated stamp and a fix set by hand read the device's wall clock")
    func testC7_stampsFollowTheDeviceWall() async throws {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        _ = try await control.call(Method.timeSet, ["wall": "2026-12-01T10:00:00Z"])
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": "com.example.stamps"])
        try await app.send(#"{"jsonrpc":"2.0","id":"ask","method":"authorization.request","params":{"level":"whenInUse"}}"#)
        #expect(try await control.call(Method.promptsList).arrayValue?.first?["created"] == "2026-12-01T10:00:00.000Z")
        _ = try await control.call(Method.promptsAnswer, ["app": "com.example.stamps", "choice": "allowWhileUsing"])
        _ = try await app.response(to: "ask")
        #expect(try await control.call(Method.permissionsList).arrayValue?.first?["updated"] == "2026-12-01T10:00:00.000Z")
        _ = try await app.call(Method.locationStart)
        _ = try await control.call(Method.deviceSet, ["location": ["lat": 48.85, "lon": 2.29]])
        let fixes = try await app.drainEvents().filter { $0.method == Event.location }
        #expect(fixes.map { $0.params["time"] } == ["2026-12-01T10:00:00.000Z"])
    }

    @Test("C8: bad input is -32602 naming the param, and the clock stays where it was")
    func testC8_badInputNamesTheParam() async throws {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        let refusals: [(String, JSONValue, String)] = [
            (Method.timeAdvance, ["seconds": -1], "\"seconds\""),
            (Method.timeAdvance, ["seconds": "90d"], "\"seconds\""),
            (Method.timeAdvance, [:], "\"seconds\""),
            (Method.timeAdvance, ["seconds": 1e12], "\"seconds\""),
            (Method.timeSet, ["wall": "tomorrow"], "\"wall\""),
            (Method.timeSet, [:], "\"wall\""),
            (Method.timeSet, ["wall": "2250-01-01T00:00:00Z"], "\"wall\": the device's wall clock must stay between 1970-01-01T00:00:00.000Z and 2200-01-01"),
            (Method.timeSet, ["wall": "1969-12-31T00:00:00Z"], "\"wall\": the device's wall clock must stay between 1970-01-01"),
        ]
        for (method, params, named) in refusals {
            let error = try await control.request(method, params)["error"]
            #expect(error?["code"] == -32602, "\(method) \(params.serialized())")
            #expect(error?["message"]?.stringValue?.contains(named) == true, "\(method) \(params.serialized()): \(error?.serialized() ?? "-")")
        }
        #expect(try await control.call(Method.timeGet)["offsetSeconds"] == 0)
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": "com.example.traveller"])
        #expect(try await app.errorCode(Method.timeAdvance, ["seconds": 60]) == -32601, "apps never move time")
    }

    @Test("C9: a watcher hears clockChanged with the clock's state; a move that changes nothing is not announced")
    func testC9_watchersHearClockChanged() async throws {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        _ = try await control.call(Method.watch, ["topics": ["clockChanged"]])
        _ = try await control.call(Method.timeAdvance, ["seconds": 7_776_000])
        _ = try await control.call(Method.timeReset)
        _ = try await control.call(Method.timeReset)
        let events = try await control.drainEvents().filter { $0.method == Event.clockChanged }.map(\.params)
        #expect(events.map { $0["offsetSeconds"] } == [7_776_000, 0], "\(events)")
        #expect(events.first?["wall"] == "2026-05-30T08:00:00.000Z")
    }
}
