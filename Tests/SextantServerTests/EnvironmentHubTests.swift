import Foundation
import NIOCore
import SextantCore
import SextantProtocol
import Testing

@testable import SextantHub
@testable import SextantServer

/// `light.start` and `proximity.start` on app.sock in process: a replayed trace of `light`
/// and `prox` samples, values held by hand, and the rules E1–E3 (sextant-rules(7) "LIGHT AND
/// PROXIMITY").
@Suite("Light and proximity to apps, in process (RULES E1–E3)", .timeLimit(.minutes(1)))
struct EnvironmentHubTests {
    static let app = "com.example.reader"

    /// One light and one proximity sample every 100 ms: lux and near as given.
    static func trace(_ samples: [(lux: Double, near: Int)]) -> String {
        var lines = [#"{"sextant":"trace","version":1,"start":"2026-03-01T08:00:00.000Z"}"#]
        for (n, sample) in samples.enumerated() {
            let t = String(format: "%.1f", Double(n) * 0.1)
            lines.append(#"{"t":\#(t),"light":{"lux":\#(sample.lux)}}"#)
            lines.append(#"{"t":\#(t),"prox":{"near":\#(sample.near)}}"#)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A hub with an app that said hello and asked for `methods`, and a control client.
    static func setUp(_ methods: [String]) async throws -> (InProcessHub, TestClient, TestClient) {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": .string(Self.app)])
        for method in methods { _ = try await app.call(method) }
        return (hub, control, app)
    }

    static func replay(_ hub: InProcessHub, _ control: TestClient, _ samples: [(lux: Double, near: Int)]) async throws {
        let path = hub.directory + "/environment.jsonl"
        try trace(samples).write(toFile: path, atomically: true, encoding: .utf8)
        _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": 1])
    }

    static func events(_ app: TestClient, _ method: String) async throws -> [JSONValue] {
        try await app.drainEvents().filter { $0.method == method }.map(\.params)
    }

    @Test("E1 E2: a replay's light and proximity on change only, each with its reading's time, with no location authorization")
    func onChangeFromReplay() async throws {
        let (hub, control, app) = try await Self.setUp([Method.lightStart, Method.proximityStart])
        try await Self.replay(hub, control, [(100, 0), (100, 0), (250, 1), (250, 1), (0, 0)])
        await hub.advance(by: .milliseconds(600))
        let events = try await app.drainEvents()
        let light = events.filter { $0.method == Event.light }.map(\.params)
        let proximity = events.filter { $0.method == Event.proximity }.map(\.params)
        #expect(light.map { $0["lux"] } == [100, 250, 0], "\(light)")
        #expect(light.map { $0["time"]?.stringValue } == ["2026-03-01T08:00:00.000Z", "2026-03-01T08:00:00.200Z", "2026-03-01T08:00:00.400Z"])
        #expect(proximity.map { $0["near"] } == [false, true, false], "\(proximity)")
    }

    @Test("E2: a session hears only what it started; light.stop and proximity.stop end them")
    func startAndStop() async throws {
        let (hub, control, app) = try await Self.setUp([Method.lightStart])
        try await Self.replay(hub, control, [(1, 0), (2, 1), (3, 0), (4, 1), (5, 0), (6, 1)])
        await hub.advance(by: .milliseconds(150))
        let first = try await app.drainEvents()
        #expect(first.map(\.method) == [Event.light, Event.light], "\(first)")
        _ = try await app.call(Method.lightStop)
        _ = try await app.call(Method.proximityStart)
        await hub.advance(by: .milliseconds(200))
        let then = try await app.drainEvents()
        #expect(then.map(\.method) == [Event.proximity, Event.proximity], "\(then)")
        _ = try await app.call(Method.proximityStop)
        await hub.advance(by: .milliseconds(300))
        #expect(try await app.drainEvents().isEmpty)
    }

    @Test("E1, O4a: light and proximity held by hand: one event each while held (on change), status shows them, release clears")
    func byHand() async throws {
        let (hub, control, app) = try await Self.setUp([Method.lightStart, Method.proximityStart])
        _ = try await control.call(Method.deviceSet, ["light": 320, "proximity": true])
        await hub.advance(by: .milliseconds(500))
        let events = try await app.drainEvents()
        #expect(events.filter { $0.method == Event.light }.map { $0.params["lux"] } == [320], "\(events)")
        #expect(events.filter { $0.method == Event.proximity }.map { $0.params["near"] } == [true], "\(events)")
        let status = try await control.call(Method.status)
        #expect(status["light"]?["lux"] == 320 && status["proximity"]?["near"] == true, "\(status)")
        #expect(status["held"] == ["light", "prox"], "\(status)")
        _ = try await control.call(Method.deviceSet, ["light": .null, "proximity": .null])
        let after = try await control.call(Method.status)
        #expect(after["light"] == .null && after["proximity"] == .null && after["held"] == [], "\(after)")
    }

    @Test("E3: an app in the background hears none; back in the foreground the held value comes at once")
    func foregroundOnly() async throws {
        let (hub, control, app) = try await Self.setUp([Method.lightStart])
        _ = try await control.call(Method.appsUpdate, ["app": .string(Self.app), "state": "background"])
        _ = try await control.call(Method.deviceSet, ["light": 40])
        await hub.advance(by: .milliseconds(300))
        #expect(try await Self.events(app, Event.light).isEmpty)
        _ = try await control.call(Method.appsUpdate, ["app": .string(Self.app), "state": "foreground"])
        await hub.advance(by: .milliseconds(40))
        #expect(try await Self.events(app, Event.light).map { $0["lux"] } == [40])
    }

    @Test("A watcher sees light and proximity changes when no app hears them")
    func watched() async throws {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        _ = try await control.call(Method.watch, ["topics": [.string(Event.light), .string(Event.proximity)]])
        _ = try await control.call(Method.deviceSet, ["light": 5, "proximity": false])
        await hub.advance(by: .milliseconds(200))
        let events = try await control.drainEvents()
        #expect(events.map(\.method) == [Event.light, Event.proximity], "\(events)")
        #expect(events.first?.params["lux"] == 5 && events.last?.params["near"] == false)
    }

    @Test("device.set refuses a light level out of range or not a number, and a proximity not a boolean, naming the member")
    func badValues() async throws {
        let (hub, control, _) = try await Self.setUp([])
        defer { withExtendedLifetime(hub) {} }
        for bad: JSONValue in [["light": -1], ["light": 2_000_000], ["light": "bright"], ["proximity": "near"]] {
            let error = try await control.request(Method.deviceSet, bad)["error"]
            #expect(error?["code"] == -32602, "\(bad)")
            let member = bad.objectValue?.keys.first ?? ""
            #expect(error?["message"]?.stringValue?.contains(member) == true, "\(String(describing: error))")
        }
        #expect(try await control.call(Method.status)["light"] == .null)
    }
}
