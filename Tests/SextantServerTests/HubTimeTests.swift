import Foundation
import NIOCore
import SextantCore
import SextantProtocol
import Testing

@testable import SextantHub
@testable import SextantServer

/// The hub's timed behaviour on the testing loop's virtual time: replay pacing, the manual
/// accelerometer's hold, recording across centuries.
@Suite("Hub timing, in process", .timeLimit(.minutes(1)))
struct HubTimeTests {
    static func trace(start: String, _ lines: [String]) -> String {
        ([#"{"sextant":"trace","version":1,"start":"\#(start)"}"#] + lines).joined(separator: "\n") + "\n"
    }

    static func write(_ text: String, in hub: InProcessHub, as name: String) throws -> String {
        let path = hub.directory + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("Replay at speed 2: each fix reaches the app when the virtual clock reaches t/2, with the trace's time")
    func replayPacedOnVirtualTime() async throws {
        let hub = try InProcessHub()
        let path = try Self.write(
            Self.trace(
                start: "2026-03-01T08:00:00.000Z",
                [#"{"t":0,"location":{"lat":48.1,"lon":2.1}}"#, #"{"t":1,"location":{"lat":48.2,"lon":2.2}}"#, #"{"t":3,"location":{"lat":48.3,"lon":2.3}}"#]),
            in: hub, as: "walk.jsonl")
        let control = try await hub.connect(.control)
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": "com.example.maps"])
        _ = try await control.call(Method.permissionsSet, ["app": "com.example.maps", "status": "authorizedAlways"])
        _ = try await app.call(Method.locationStart)
        _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": 2])

        func locations() async throws -> [JSONValue] { try await app.drainEvents().filter { $0.method == Event.location }.map(\.params) }
        #expect(try await locations().map { $0["lat"] } == [48.1])
        await hub.advance(by: .milliseconds(499))
        #expect(try await locations().isEmpty)
        await hub.advance(by: .milliseconds(1))
        let second = try await locations()
        #expect(second.map { $0["lat"] } == [48.2])
        #expect(second.first?["time"] == "2026-03-01T08:00:01.000Z")
        await hub.advance(by: .milliseconds(1000))
        #expect(try await locations().map { $0["lat"] } == [48.3])
        #expect(try await control.call(Method.replayStatus)["state"] == "finished")
    }

    @Test("O4a O3: faceUp held by hand is decided once 500 ms of 50 Hz samples judged it flat, not before")
    func manualHoldFaceUp() async throws {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": "com.example.level"])
        _ = try await app.call(Method.orientationStart)
        _ = try await control.call(Method.deviceSet, ["orientation": "faceUp"])
        await hub.advance(by: .milliseconds(480))
        #expect(try await app.drainEvents().filter { $0.method == Event.deviceOrientation }.isEmpty)
        await hub.advance(by: .milliseconds(40))
        let decided = try await app.drainEvents().filter { $0.method == Event.deviceOrientation }.map(\.params)
        #expect(decided.map { $0["orientation"] } == ["faceUp"])
        // Samples are 20 ms apart from 0 ms. The first only seeds the filter (O2), so tilt is
        // first judged at 20 ms, and 500 ms of tilt ≥ 80 is first complete at 520 ms (O3).
        #expect(decided.first?["time"] == "2026-03-01T08:00:00.520Z")
    }

    @Test("Recording a 1680-dated replay, then a fix set by hand now: both are recorded on the recording's one clock, nothing traps")
    func recordingAcrossCenturies() async throws {
        let hub = try InProcessHub()
        let old = try Self.write(
            Self.trace(start: "1680-01-01T00:00:00.000Z", [#"{"t":0,"location":{"lat":10,"lon":10}}"#]), in: hub, as: "old.jsonl")
        let control = try await hub.connect(.control)
        _ = try await control.call(Method.recordStart, ["path": .string(hub.directory + "/rec.jsonl")])
        _ = try await control.call(Method.replayStart, ["path": .string(old), "speed": "max"])
        _ = try await control.call(Method.deviceSet, ["location": ["lat": 48.85, "lon": 2.29]])
        let stopped = try await control.call(Method.recordStop)
        #expect(stopped["events"] == 2 && stopped["skipped"] == 0)
        #expect(try await control.call(Method.status)["location"]?["lat"] == 48.85)
    }

    @Test("issue 24.5: recording a 2000-dated replay and fixes set by hand: one clock, the recording lasts what the session did, its times never go back")
    func recordingHasOneClock() async throws {
        let hub = try InProcessHub()
        let walk = try Self.write(
            Self.trace(
                start: "2000-01-01T00:00:00.000Z",
                [#"{"t":0,"location":{"lat":10,"lon":10}}"#, #"{"t":1,"location":{"lat":10.1,"lon":10}}"#, #"{"t":2,"location":{"lat":10.2,"lon":10}}"#]),
            in: hub, as: "walk.jsonl")
        let control = try await hub.connect(.control)
        let path = hub.directory + "/session.jsonl"
        _ = try await control.call(Method.recordStart, ["path": .string(path)])
        _ = try await control.call(Method.replayStart, ["path": .string(walk), "speed": 1])
        await hub.advance(by: .seconds(1))
        _ = try await control.call(Method.deviceSet, ["location": ["lat": 48.85, "lon": 2.29]])
        await hub.advance(by: .milliseconds(1500))
        _ = try await control.call(Method.deviceSet, ["location": ["lat": 48.86, "lon": 2.29]])
        let stopped = try await control.call(Method.recordStop)
        #expect(stopped["events"] == 5 && stopped["skipped"] == 0, "\(stopped.serialized())")
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { try JSONValue.parse(String($0)) }
        #expect(lines.first?["start"] == "2000-01-01T00:00:00.000Z", "the first sample's own time")
        let offsets = lines.dropFirst().compactMap { $0["t"]?.doubleValue }
        // Replayed at 0, 1 and 2 s of the session, set by hand at 1 and 2.5 s.
        #expect(offsets == [0, 1, 1, 2, 2.5], "\(offsets)")
    }

    @Test("issue 24.5: a recording keeps a replay's own times at speed 2, and a second replay dated 26 years later follows on without a gap")
    func recordingKeepsReplayTimes() async throws {
        let hub = try InProcessHub()
        let old = try Self.write(
            Self.trace(start: "2000-01-01T00:00:00.000Z", [#"{"t":0,"location":{"lat":10,"lon":10}}"#, #"{"t":0.25,"location":{"lat":10.1,"lon":10}}"#, #"{"t":4,"location":{"lat":10.2,"lon":10}}"#]),
            in: hub, as: "old.jsonl")
        let new = try Self.write(
            Self.trace(start: "2026-01-01T00:00:00.000Z", [#"{"t":0,"location":{"lat":20,"lon":10}}"#, #"{"t":0.5,"location":{"lat":20.1,"lon":10}}"#]),
            in: hub, as: "new.jsonl")
        let control = try await hub.connect(.control)
        let path = hub.directory + "/session.jsonl"
        _ = try await control.call(Method.recordStart, ["path": .string(path)])
        _ = try await control.call(Method.replayStart, ["path": .string(old), "speed": 2])
        await hub.advance(by: .seconds(2))
        #expect(try await control.call(Method.replayStatus)["state"] == "finished")
        await hub.advance(by: .seconds(2))
        _ = try await control.call(Method.replayStart, ["path": .string(new), "speed": 2])
        await hub.advance(by: .milliseconds(250))
        #expect(try await control.call(Method.replayStatus)["state"] == "finished")
        _ = try await control.call(Method.recordStop)
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map { try JSONValue.parse(String($0)) }
        #expect(lines.first?["start"] == "2000-01-01T00:00:00.000Z")
        // The first replay at its own times (played in half of them); the second 2 s of the
        // daemon's clock after the first's last sample, then at its own times.
        #expect(lines.dropFirst().compactMap { $0["t"]?.doubleValue } == [0, 0.25, 4, 6, 6.5], "\(lines)")
    }

    @Test("A 1680-dated accelerometer trace, then rotate: the judge starts afresh, nothing traps")
    func accelerometerAcrossCenturies() async throws {
        let hub = try InProcessHub()
        let old = try Self.write(
            Self.trace(start: "1680-01-01T00:00:00.000Z", (0..<60).map { #"{"t":\#(Double($0) * 0.02),"accel":{"x":0,"y":9.8,"z":0}}"# }),
            in: hub, as: "old.jsonl")
        let control = try await hub.connect(.control)
        _ = try await control.call(Method.replayStart, ["path": .string(old), "speed": "max"])
        #expect(try await control.call(Method.status)["deviceOrientation"] == "portrait")
        _ = try await control.call(Method.deviceSet, ["orientation": "landscapeLeft"])
        await hub.advance(by: .seconds(2))
        #expect(try await control.call(Method.status)["deviceOrientation"] == "landscapeLeft")
    }
}
