import Foundation
import NIOCore
import SextantCore
import SextantProtocol
import Testing

@testable import SextantHub
@testable import SextantServer

/// `altimeter.start` on app.sock in process (RULES B1–B3): the pressure derived from a
/// replayed walk's altitude, and from a barometer's samples when the trace has them.
@Suite("The altimeter to apps, in process (RULES B1–B3)", .timeLimit(.minutes(1)))
struct AltimeterHubTests {
    static let app = "com.example.hike"

    /// Fixes every 0.5 s climbing 2 m each, and, with `barometer`, a pressure sample just
    /// before each fix saying 10 m lower than the fix.
    static func trace(count: Int, barometer: Bool) -> String {
        var lines = [#"{"sextant":"trace","version":1,"start":"2026-03-01T08:00:00.000Z"}"#]
        for n in 0..<count {
            let t = Double(n) * 0.5, altitude = 100 + 2 * Double(n)
            if barometer { lines.append(#"{"t":\#(t),"pressure":{"hPa":\#(StandardAtmosphere.pressure(atAltitude: altitude - 10))}}"#) }
            lines.append(#"{"t":\#(t),"location":{"lat":48.85,"lon":2.29,"alt":\#(altitude),"vAcc":3,"hAcc":5}}"#)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static func setUp(barometer: Bool, authorize: Bool) async throws -> (InProcessHub, TestClient, TestClient) {
        let hub = try InProcessHub()
        let path = hub.directory + "/hike.jsonl"
        try trace(count: 8, barometer: barometer).write(toFile: path, atomically: true, encoding: .utf8)
        let control = try await hub.connect(.control)
        if authorize { _ = try await control.call(Method.permissionsSet, ["app": .string(Self.app), "status": "authorizedWhenInUse"]) }
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": .string(Self.app)])
        _ = try await app.call(Method.altimeterStart)
        _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": 1])
        return (hub, control, app)
    }

    static func altitudes(_ app: TestClient) async throws -> [JSONValue] {
        try await app.drainEvents().filter { $0.method == Event.altitude }.map(\.params)
    }

    @Test("B1 B2: derived from the walk's altitude, once a second, relative to the first event, pressure in kPa")
    func derived() async throws {
        let (hub, _, app) = try await Self.setUp(barometer: false, authorize: true)
        await hub.advance(by: .milliseconds(3600))
        let events = try await Self.altitudes(app)
        #expect(events.map { $0["relativeAltitude"] } == [0, 4, 8, 12], "\(events)")
        #expect(events.map { $0["time"]?.stringValue } == ["2026-03-01T08:00:00.000Z", "2026-03-01T08:00:01.000Z", "2026-03-01T08:00:02.000Z", "2026-03-01T08:00:03.000Z"])
        #expect(events.allSatisfy { $0["derived"] == true && $0["accuracy"] == 3 })
        #expect(events.first?["altitude"] == 100)
        let kPa = try #require(events.first?["pressure"]?.doubleValue)
        #expect(abs(kPa - StandardAtmosphere.pressure(atAltitude: 100) / 10) < 1e-9)
    }

    @Test("B2: a barometer in the trace is the source; B3: no absolute altitude without location authorization")
    func barometer() async throws {
        let (hub, _, app) = try await Self.setUp(barometer: true, authorize: false)
        await hub.advance(by: .milliseconds(2600))
        let events = try await Self.altitudes(app)
        #expect(events.count == 3, "\(events)")
        #expect(events.allSatisfy { $0["derived"] == false && ($0["altitude"] ?? .null) == .null && ($0["accuracy"] ?? .null) == .null }, "\(events)")
        let relative = events.compactMap { $0["relativeAltitude"]?.doubleValue }
        #expect(zip(relative, [0.0, 4, 8]).allSatisfy { abs($0 - $1) < 1e-6 }, "\(relative)")
    }

    @Test("Nobody listening, the service asks for no fix; altimeter.stop ends the events")
    func payOnlyWhenHeard() async throws {
        let (hub, _, app) = try await Self.setUp(barometer: false, authorize: true)
        await hub.advance(by: .milliseconds(600))
        #expect(try await !Self.altitudes(app).isEmpty)
        #expect(try await hub.onLoop { $0.services(AltimeterService.self).wantsFixes })
        _ = try await app.call(Method.altimeterStop)
        #expect(try await hub.onLoop { !$0.services(AltimeterService.self).wantsFixes })
        await hub.advance(by: .milliseconds(2000))
        #expect(try await Self.altitudes(app).isEmpty)
    }

    @Test("B1: the last altimeter.stop forgets the stream: status's altimeter is null, and a new start's first event comes at the next fix")
    func lastStopForgets() async throws {
        let (hub, control, app) = try await Self.setUp(barometer: false, authorize: true)
        await hub.advance(by: .milliseconds(1100))
        #expect(try await Self.altitudes(app).map { $0["time"] } == ["2026-03-01T08:00:00.000Z", "2026-03-01T08:00:01.000Z"])
        #expect(try await control.call(Method.status)["altimeter"] != .null)
        _ = try await app.call(Method.altimeterStop)
        #expect(try await control.call(Method.status)["altimeter"] == .null, "nobody listens")
        _ = try await app.call(Method.altimeterStart)
        await hub.advance(by: .milliseconds(500))
        let again = try await Self.altitudes(app)
        #expect(again.map { $0["time"] } == ["2026-03-01T08:00:01.500Z"] && again.first?["relativeAltitude"] == 0, "a fresh engine: not a second after 1.0 s, \(again)")
    }

    @Test("B2: a pressure held by hand is the barometer: relative altitude from it, once a second; released, the fixes' again")
    func byHand() async throws {
        let (hub, control, app) = try await Self.setUp(barometer: false, authorize: true)
        await hub.advance(by: .milliseconds(100))
        _ = try await Self.altitudes(app)
        _ = try await control.call(Method.deviceSet, ["pressure": .double(StandardAtmosphere.pressure(atAltitude: 60))])
        await hub.advance(by: .milliseconds(2100))
        let held = try await Self.altitudes(app)
        #expect(!held.isEmpty && held.allSatisfy { $0["derived"] == false }, "\(held)")
        #expect(held.allSatisfy { abs(($0["relativeAltitude"]?.doubleValue ?? 0) + 40) < 1e-6 }, "60 m by the pressure, 100 m at the first event: \(held)")
        let bad = try await control.request(Method.deviceSet, ["pressure": 5000])["error"]
        #expect(bad?["code"] == -32602 && bad?["message"]?.stringValue?.contains("pressure") == true, "\(String(describing: bad))")
    }

    @Test("issue 40.7: status's pressure is the latest barometer reading with no altimeter stream; null without a barometer and after a held pressure is let go of")
    func statusPressureWithoutStream() async throws {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        #expect(try await control.call(Method.status)["pressure"] == .null, "no barometer yet")
        let path = hub.directory + "/hike.jsonl"
        try Self.trace(count: 4, barometer: true).write(toFile: path, atomically: true, encoding: .utf8)
        _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": 1])
        await hub.advance(by: .seconds(3))
        let status = try await control.call(Method.status)
        #expect(status["altimeter"] == .null, "nobody streams the altimeter")
        let last = StandardAtmosphere.pressure(atAltitude: 100 + 2 * 3 - 10)
        #expect(abs((status["pressure"]?["hPa"]?.doubleValue ?? 0) - last) < 1e-9, "\(status)")
        #expect(status["pressure"]?["time"] == "2026-03-01T08:00:01.500Z")
        _ = try await control.call(Method.deviceSet, ["pressure": 1000])
        #expect(try await control.call(Method.status)["pressure"]?["hPa"] == 1000)
        _ = try await control.call(Method.deviceSet, ["pressure": .null])
        #expect(try await control.call(Method.status)["pressure"] == .null, "let go of: none until the next reading")
    }
}
