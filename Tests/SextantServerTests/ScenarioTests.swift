import Foundation
import NIOCore
import SextantCore
import SextantProtocol
import Testing

@testable import SextantHub
@testable import SextantServer

/// Control actions on the replay's clock (issue 24.3): a trace's control lines and a
/// scenario file are played between the same two samples at every speed, checked as
/// `sextantctl` calls are, and a recording writes them back.
@Suite("Scenarios on the replay's clock, in process", .timeLimit(.minutes(2)))
struct ScenarioTests {
    static let app = "com.example.maps"

    /// A fix a second at one place for 50 s: a reduced fix never changes cell (L10).
    static let fixes = (0...50).map { #"{"t":\#($0),"location":{"lat":48.85837,"lon":2.29448,"hAcc":5}}"# }

    static func control(_ t: Double, _ method: String, _ params: JSONValue) -> String {
        #"{"t":\#(t),"control":{"method":"\#(method)","params":\#(params.serialized())}}"#
    }

    /// "Reduced at 30 s, denied at 40 s".
    static let reducedThenDenied = [
        control(30, Method.permissionsSet, ["app": .string(app), "status": "authorizedWhenInUse", "accuracy": "reduced"]),
        control(40, Method.permissionsSet, ["app": .string(app), "status": "denied"]),
    ]

    /// What the app heard, one line an event: a fix's accuracy and time (L10: the first
    /// reduced fix waits for its grid offset's commit, and the replay waits with it, so that
    /// fix is the same at every speed), an authorization's status and accuracy.
    static func heard(_ app: TestClient) async throws -> [String] {
        try await app.drainEvents().map { event in
            switch event.method {
            case Event.location:
                return "location \(text(event.params["accuracy"])) \(text(event.params["time"]))"
            case Event.authorization:
                return "authorization \(text(event.params["status"])) \(text(event.params["accuracy"]))"
            default:
                return event.method
            }
        }
    }

    private static func text(_ value: JSONValue?) -> String { value?.stringValue ?? "-" }

    /// A hub, an app streaming with full accuracy while in use, and a control client.
    static func setUp() async throws -> (InProcessHub, TestClient, TestClient) {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        return (hub, control, try await streamingApp(hub, control))
    }

    /// The app, authorized while in use with full accuracy, its stream started, nothing heard yet.
    static func streamingApp(_ hub: InProcessHub, _ control: TestClient) async throws -> TestClient {
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": .string(Self.app)])
        _ = try await control.call(Method.permissionsSet, ["app": .string(Self.app), "status": "authorizedWhenInUse", "accuracy": "full"])
        _ = try await app.call(Method.locationStart)
        _ = try await app.drainEvents()
        return app
    }

    /// Moves virtual time on until the replay is no longer running, or fails after 60 s of
    /// real time (a store write in flight holds the replay back, not the virtual clock).
    static func playToEnd(_ hub: InProcessHub, _ control: TestClient) async throws -> JSONValue {
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            await hub.advance(by: .seconds(1))
            let status = try await control.call(Method.replayStatus)
            if status["state"] != "running" { return status }
        }
        throw TestFailure("the replay was still running after 60 s")
    }

    static let expected: [String] =
        (0..<30).map { String(format: "location full 2026-03-01T08:00:%02d.000Z", $0) } + [
            "authorization authorizedWhenInUse reduced", "location reduced 2026-03-01T08:00:30.000Z", "authorization denied reduced",
        ]

    @Test(
        "Reduced at 30 s, denied at 40 s: full fixes before 30 s, reduced from 30 s, denied and no fix after 40 s, the same at 1× and max, from a scenario file or the trace's own lines",
        arguments: [JSONValue.int(1), .string("max")], [true, false])
    func reducedThenDeniedAtEverySpeed(speed: JSONValue, fromScenarioFile: Bool) async throws {
        let (hub, control, app) = try await Self.setUp()
        var start: [String: JSONValue] = ["speed": speed]
        if fromScenarioFile {
            start["path"] = .string(try HubTimeTests.write(HubTimeTests.trace(start: "2026-03-01T08:00:00.000Z", Self.fixes), in: hub, as: "walk.jsonl"))
            let scenario = ["# reduced at 30 s, denied at 40 s", ""] + Self.reducedThenDenied
            start["scenario"] = .string(try HubTimeTests.write(scenario.joined(separator: "\n") + "\n", in: hub, as: "scenario.jsonl"))
        } else {
            var lines = Self.fixes
            lines.insert(Self.reducedThenDenied[1], at: 40)
            lines.insert(Self.reducedThenDenied[0], at: 30)
            start["path"] = .string(try HubTimeTests.write(HubTimeTests.trace(start: "2026-03-01T08:00:00.000Z", lines), in: hub, as: "walk.jsonl"))
        }
        _ = try await control.call(Method.replayStart, .object(start))
        let status = try await Self.playToEnd(hub, control)
        #expect(status["state"] == "finished" && status["events"] == 51 && status["error"] == nil)
        let heard = try await Self.heard(app)
        #expect(heard == Self.expected, "\(heard)")
        let stored = try await control.call(Method.permissionsList)
        #expect(stored.arrayValue?.first { $0["app"]?.stringValue == Self.app }?["status"] == "denied")
    }

    @Test("issue 24.3: a bad action line is refused at replay.start with its file and line, and nothing plays")
    func badActionLineNamesFileAndLine() async throws {
        let (hub, control, app) = try await Self.setUp()
        let trace = try HubTimeTests.write(HubTimeTests.trace(start: "2026-03-01T08:00:00.000Z", Self.fixes), in: hub, as: "walk.jsonl")
        let cases: [(lines: [String], line: Int, says: String)] = [
            ([Self.control(1, Method.permissionsSet, ["app": "x", "status": "bogus"])], 1, "permissions.set: "),
            (["", Self.control(1, Method.replayStop, [:])], 2, "\"replay.stop\" cannot be played"),
            ([Self.reducedThenDenied[1], Self.reducedThenDenied[0]], 2, "goes back in time"),
            (["# note", #"{"t":3,"control":{"params":{}}}"#], 2, "control.method is required"),
            ([#"{"t":3,"location":{"lat":1,"lon":2}}"#], 1, "must be a control line"),
            (["{not json"], 1, "not JSON"),
        ]
        for (lines, line, says) in cases {
            let scenario = try HubTimeTests.write(lines.joined(separator: "\n") + "\n", in: hub, as: "scenario.jsonl")
            let response = try await control.request(Method.replayStart, ["path": .string(trace), "scenario": .string(scenario), "speed": "max"])
            let message = response["error"]?["message"]?.stringValue ?? ""
            #expect(response["error"]?["code"] == .int(Int64(RPCErrorCode.invalidTrace.rawValue)), "\(lines)")
            #expect(message.hasPrefix("\(scenario):\(line): ") && message.contains(says), "\(message)")
            #expect(response["error"]?["data"]?["line"] == .int(Int64(line)))
        }
        // In the trace itself: the trace's path and line.
        var lines = Self.fixes
        lines.insert(Self.control(2.5, Method.appsUpdate, ["state": "sideways", "app": .string(Self.app)]), at: 3)
        let inline = try HubTimeTests.write(HubTimeTests.trace(start: "2026-03-01T08:00:00.000Z", lines), in: hub, as: "inline.jsonl")
        let message = try await control.request(Method.replayStart, ["path": .string(inline)])["error"]?["message"]?.stringValue ?? ""
        #expect(message.hasPrefix("\(inline):5: apps.update: "), "\(message)")
        await hub.advance(by: .seconds(5))
        #expect(try await control.call(Method.replayStatus)["state"] == "idle")
        #expect(try await app.drainEvents().isEmpty)
    }

    @Test("issue 24.3: an action that fails as it plays stops the replay there, its file, line and error in the status")
    func failingActionStopsTheReplay() async throws {
        let (hub, control, app) = try await Self.setUp()
        let trace = try HubTimeTests.write(HubTimeTests.trace(start: "2026-03-01T08:00:00.000Z", Self.fixes), in: hub, as: "walk.jsonl")
        let scenario = try HubTimeTests.write(
            Self.control(2.5, Method.promptsAnswer, ["app": .string(Self.app), "choice": "allowOnce"]) + "\n", in: hub, as: "scenario.jsonl")
        _ = try await control.call(Method.replayStart, ["path": .string(trace), "scenario": .string(scenario), "speed": 1])
        let status = try await Self.playToEnd(hub, control)
        #expect(status["state"] == "stopped")
        #expect(status["error"]?.stringValue?.hasPrefix("\(scenario):1: prompts.answer: no pending prompt of app") == true, "\(status)")
        #expect(try await Self.heard(app).count == 3, "t = 0, 1, 2 played")
    }

    @Test("issue 24.3: a session recorded with a grant and a revoke between fixes replays the same decisions between the same fixes")
    func recordedDecisionsReplay() async throws {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        let app = try await Self.streamingApp(hub, control)
        let recording = hub.directory + "/session.jsonl"
        _ = try await control.call(Method.recordStart, ["path": .string(recording)])
        func fix(_ lat: Double) async throws {
            await hub.advance(by: .seconds(1))
            _ = try await control.call(Method.deviceSet, ["location": ["lat": .double(lat), "lon": 2.3]])
        }
        try await fix(48.1)
        _ = try await control.call(Method.permissionsSet, ["app": .string(Self.app), "status": "authorizedAlways"])
        try await fix(48.2)
        try await fix(48.3)
        _ = try await control.call(Method.permissionsSet, ["app": .string(Self.app), "status": "denied"])
        try await fix(48.4)
        _ = try await control.call(Method.recordStop)
        let live = try await Self.heard(app)
        #expect(
            live == [
                "location full 2026-03-01T08:00:01.000Z", "authorization authorizedAlways full", "location full 2026-03-01T08:00:02.000Z",
                "location full 2026-03-01T08:00:03.000Z", "authorization denied full",
            ], "\(live)")
        let written = try String(contentsOfFile: recording, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(written.count == 7 && written[2].contains(#""control":{"method":"permissions.set""#) && written[5].contains(#""status":"denied""#), "\(written)")

        let again = try InProcessHub()
        let control2 = try await again.connect(.control)
        let app2 = try await Self.streamingApp(again, control2)
        let copy = try HubTimeTests.write(try String(contentsOfFile: recording, encoding: .utf8), in: again, as: "session.jsonl")
        _ = try await control2.call(Method.replayStart, ["path": .string(copy), "speed": "max"])
        #expect(try await Self.playToEnd(again, control2)["state"] == "finished")
        #expect(try await Self.heard(app2) == live)
    }
}
