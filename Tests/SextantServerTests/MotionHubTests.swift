import Foundation
import NIOCore
import SextantCore
import SextantProtocol
import Testing

@testable import SextantHub
@testable import SextantServer

/// `motion.start` on app.sock in process: a replayed trace of `accel` samples at 50 Hz and
/// the rules M1–M3 (sextant-rules(7) "MOTION").
@Suite("Motion to apps, in process (RULES M1–M3)", .timeLimit(.minutes(1)))
struct MotionHubTests {
    static let app = "com.example.level"

    /// `count` accelerometer samples 20 ms apart, the n-th (0.01 n, 9.8, 0.5) m/s².
    static func trace(count: Int) -> String {
        var lines = [#"{"sextant":"trace","version":1,"start":"2026-03-01T08:00:00.000Z"}"#]
        for n in 0..<count {
            lines.append(#"{"t":\#(Double(n) * 0.02),"accel":{"x":\#(Double(n) * 0.01),"y":9.8,"z":0.5}}"#)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A hub with an app that said hello (no location decision) and asked `motion.start`
    /// with `params`, and a replay of `count` samples at speed 1 (not started yet).
    static func setUp(_ params: JSONValue, count: Int = 50) async throws -> (InProcessHub, TestClient, TestClient) {
        let hub = try InProcessHub()
        let path = hub.directory + "/accel.jsonl"
        try trace(count: count).write(toFile: path, atomically: true, encoding: .utf8)
        let control = try await hub.connect(.control)
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": .string(Self.app)])
        _ = try await app.call(Method.motionStart, params)
        _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": 1])
        return (hub, control, app)
    }

    static func motions(_ app: TestClient) async throws -> [JSONValue] {
        try await app.drainEvents().filter { $0.method == Event.motion }.map(\.params)
    }

    @Test("M1 M3: every reading as it is, in the device frame with the reading's time, with no location authorization")
    func everyReadingAsItIs() async throws {
        let (hub, _, app) = try await Self.setUp(["interval": 0], count: 5)
        await hub.advance(by: .milliseconds(200))
        let events = try await Self.motions(app)
        #expect(events.map { $0["x"]?.doubleValue } == [0, 0.01, 0.02, 0.03, 0.04], "\(events)")
        #expect(events.allSatisfy { $0["y"] == 9.8 && $0["z"] == 0.5 })
        #expect(events.map { $0["time"]?.stringValue } == (0..<5).map { "2026-03-01T08:00:00.0\($0 * 2)0Z" })
    }

    @Test("M2: at most one reading per interval, by the readings' clock; the default interval is 0.1 s")
    func interval() async throws {
        for (params, expected) in [(["interval": 0.1] as JSONValue, 10), ([:], 10), (["interval": 0.25], 4)] {
            let (hub, _, app) = try await Self.setUp(params)
            await hub.advance(by: .milliseconds(1100))
            let events = try await Self.motions(app)
            #expect(events.count == expected, "\(params): \(events.map { $0["time"] ?? .null })")
            #expect(events.first?["time"] == "2026-03-01T08:00:00.000Z")
        }
    }

    @Test("M3: an app in the background hears none; back in the foreground the next reading comes at once; motion.stop ends them")
    func foregroundOnly() async throws {
        let (hub, control, app) = try await Self.setUp(["interval": 0.5])
        _ = try await control.call(Method.appsUpdate, ["app": .string(Self.app), "state": "background"])
        // What came before it went to the background (the replay's first reading) is not the point.
        _ = try await app.drainEvents()
        await hub.advance(by: .milliseconds(300))
        #expect(try await Self.motions(app).isEmpty)
        _ = try await control.call(Method.appsUpdate, ["app": .string(Self.app), "state": "foreground"])
        await hub.advance(by: .milliseconds(20))
        let back = try await Self.motions(app)
        #expect(back.count == 1, "\(back)")
        #expect((back.first?["x"]?.doubleValue ?? 0) > 0.1, "the reading after the return, not one held from before: \(back)")
        _ = try await app.call(Method.motionStop)
        await hub.advance(by: .milliseconds(800))
        #expect(try await Self.motions(app).isEmpty)
    }

    @Test("motion.start with an interval out of range or not a number is -32602 naming it; the session goes on")
    func badInterval() async throws {
        let (hub, _, app) = try await Self.setUp([:], count: 1)
        defer { withExtendedLifetime(hub) {} }
        for bad: JSONValue in [["interval": -1], ["interval": 3601], ["interval": "fast"]] {
            let error = try await app.request(Method.motionStart, bad)["error"]
            #expect(error?["code"] == -32602, "\(bad)")
            #expect(error?["message"]?.stringValue?.contains("interval") == true, "\(String(describing: error))")
        }
        #expect(try await app.call(Method.motionStart, ["interval": 0]) == [:])
    }
}
