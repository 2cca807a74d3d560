import Foundation
import NIOCore
import SextantCore
import SextantProtocol
import Testing

@testable import SextantHub
@testable import SextantServer

/// `heading.start` on app.sock in process: a replayed walk with `magnet` and `accel`
/// samples, and the rules H6–H8 (true heading with location authorization only, L8, L9).
@Suite("Heading to apps, in process (RULES H1–H8)", .timeLimit(.minutes(1)))
struct HeadingHubTests {
    static let start = "2026-03-01T08:00:00.000Z"
    static let place = (lat: 48.85, lon: 2.29)

    /// A device lying flat whose top turns to each heading, one magnet sample a second,
    /// after a fix and a gravity reading: a field of 20 µT north and 40 µT down.
    static func walk(_ headings: [Double]) -> String {
        var lines = [
            #"{"sextant":"trace","version":1,"start":"\#(start)"}"#,
            #"{"t":0,"location":{"lat":\#(place.lat),"lon":\#(place.lon)}}"#,
            #"{"t":0,"accel":{"x":0,"y":0,"z":9.81}}"#,
        ]
        for (i, heading) in headings.enumerated() {
            let a = heading * .pi / 180
            lines.append(#"{"t":\#(i + 1),"magnet":{"x":\#(-20 * sin(a)),"y":\#(20 * cos(a)),"z":-40}}"#)
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The declination WMM2025 gives at the walk's place on its date.
    static var declination: Double {
        let time = Timestamp(year: 2026, month: 3, day: 1, secondsOfDay: 8 * 3600)
        return WorldMagneticModel.wmm2025.elements(
            latitude: place.lat, longitude: place.lon, height: 0, year: WorldMagneticModel.decimalYear(time)
        ).declination
    }

    /// A hub replaying `headings` at speed 1 (one a second, the first at 1 s) to an app that
    /// started the compass with filter 0, authorized as `status`.
    static func setUp(_ headings: [Double], status: String) async throws -> (InProcessHub, TestClient, TestClient) {
        let hub = try InProcessHub()
        let path = hub.directory + "/walk.jsonl"
        try walk(headings).write(toFile: path, atomically: true, encoding: .utf8)
        let control = try await hub.connect(.control)
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": "com.example.compass"])
        if status != "notDetermined" {
            _ = try await control.call(Method.permissionsSet, ["app": "com.example.compass", "status": .string(status)])
        }
        _ = try await app.call(Method.headingStart, ["filter": 0])
        _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": 1])
        return (hub, control, app)
    }

    static func headings(_ app: TestClient) async throws -> [JSONValue] {
        try await app.drainEvents().filter { $0.method == Event.heading }.map(\.params)
    }

    static func near(_ value: JSONValue?, _ expected: Double) -> Bool {
        guard let number = value?.doubleValue else { return false }
        return HeadingMath.separation(number, expected) <= 0.006
    }

    @Test("H1 H6: a replayed walk gives each magnetic heading, and true = magnetic + WMM2025's declination there")
    func replayedWalk() async throws {
        let (hub, _, app) = try await Self.setUp([0, 90, 200], status: "authorizedWhenInUse")
        await hub.advance(by: .seconds(4))
        let events = try await Self.headings(app)
        #expect(events.count == 3)
        for (event, magnetic) in zip(events, [0.0, 90, 200]) {
            #expect(Self.near(event["magnetic"], magnetic), "\(event)")
            #expect(Self.near(event["true"], magnetic + Self.declination), "\(event)")
            #expect(event["accuracy"] == 5)
            #expect(event["field"]?["z"] == -40)
        }
        #expect(events.first?["time"] == "2026-03-01T08:00:01.000Z")
    }

    @Test("H8 L9: after a revoke mid-way the very next heading has no true; the magnetic heading goes on")
    func revokeDropsTrue() async throws {
        let (hub, control, app) = try await Self.setUp([10, 20, 30], status: "authorizedWhenInUse")
        await hub.advance(by: .seconds(1))
        #expect(try await Self.headings(app).map { $0["true"] != nil } == [true])
        _ = try await control.call(Method.permissionsSet, ["app": "com.example.compass", "status": "denied"])
        await hub.advance(by: .seconds(3))
        let after = try await Self.headings(app)
        #expect(after.count == 2)
        #expect(after.allSatisfy { $0["true"] == nil })
        #expect(Self.near(after.first?["magnetic"], 20))
    }

    @Test("H8 L8: in the background, without Always no heading at all; with Always heading and true")
    func backgroundFollowsL8() async throws {
        for (status, expected) in [("authorizedWhenInUse", 0), ("authorizedAlways", 2)] {
            let (hub, control, app) = try await Self.setUp([10, 20], status: status)
            _ = try await control.call(Method.appsUpdate, ["app": "com.example.compass", "state": "background"])
            await hub.advance(by: .seconds(3))
            let events = try await Self.headings(app)
            #expect(events.count == expected, "\(status)")
            #expect(events.allSatisfy { $0["true"] != nil })
        }
    }

    @Test("H8: with no location authorization at all, the magnetic heading alone")
    func magneticNeedsNoAuthorization() async throws {
        let (hub, _, app) = try await Self.setUp([45], status: "notDetermined")
        await hub.advance(by: .seconds(2))
        let events = try await Self.headings(app)
        #expect(events.count == 1)
        #expect(Self.near(events.first?["magnetic"], 45))
        #expect(events.first?["true"] == nil)
    }

    @Test("H7: the filter holds back headings that moved less than it; heading.stop ends the events")
    func filterAndStop() async throws {
        let hub = try InProcessHub()
        let path = hub.directory + "/walk.jsonl"
        try Self.walk([0, 3, 6, 12, 13]).write(toFile: path, atomically: true, encoding: .utf8)
        let control = try await hub.connect(.control)
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": "com.example.compass"])
        _ = try await app.call(Method.headingStart, ["filter": 5])
        _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": 1])
        await hub.advance(by: .seconds(4))
        #expect(try await Self.headings(app).compactMap { $0["magnetic"]?.doubleValue.map { $0.rounded() } } == [0, 6, 12])
        _ = try await app.call(Method.headingStop)
        await hub.advance(by: .seconds(2))
        #expect(try await Self.headings(app).isEmpty)
    }

    @Test("H4 H5: a field out of Earth's range raises headingCalibration once, with the sample's time")
    func calibrationEvent() async throws {
        let hub = try InProcessHub()
        let path = hub.directory + "/walk.jsonl"
        var text = Self.walk([0])
        text += #"{"t":2,"magnet":{"x":0,"y":90,"z":-60}}"# + "\n"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let control = try await hub.connect(.control)
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": "com.example.compass"])
        _ = try await app.call(Method.headingStart)
        _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": "max"])
        await hub.advance(by: .seconds(1))
        let calibrations = try await app.drainEvents().filter { $0.method == Event.headingCalibration }.map(\.params)
        #expect(calibrations == [["needed": true, "time": "2026-03-01T08:00:02.000Z"]])
    }

    /// Apps in each interface and authorization, one reading: each gets its own payload
    /// (H2's turn, H8's true), and apps alike get the same bytes (the fan-out's groups).
    static let audience: [(app: String, orientation: String, status: String?, accuracy: String?)] = [
        ("com.example.portrait", "portrait", "authorizedWhenInUse", nil),
        ("com.example.portrait2", "portrait", "authorizedAlways", nil),
        ("com.example.right", "landscapeRight", "authorizedWhenInUse", nil),
        ("com.example.left", "landscapeLeft", nil, nil),
        ("com.example.plain", "portrait", "denied", nil),
        ("com.example.coarse", "landscapeRight", "authorizedWhenInUse", "reduced"),
    ]

    @Test("H2 H8: one reading to apps in different interfaces and authorizations: each its own magnetic and true")
    func groupedPayloads() async throws {
        let hub = try InProcessHub()
        let path = hub.directory + "/walk.jsonl"
        try Self.walk([30]).write(toFile: path, atomically: true, encoding: .utf8)
        let control = try await hub.connect(.control)
        var apps: [TestClient] = []
        for member in Self.audience {
            let app = try await hub.connect(.app)
            _ = try await app.call(Method.hello, ["app": .string(member.app), "orientations": [.string(member.orientation)]])
            if let status = member.status {
                var params: [String: JSONValue] = ["app": .string(member.app), "status": .string(status)]
                if let accuracy = member.accuracy { params["accuracy"] = .string(accuracy) }
                _ = try await control.call(Method.permissionsSet, .object(params))
            }
            _ = try await app.call(Method.headingStart, ["filter": 0])
            apps.append(app)
        }
        _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": 1])
        await hub.advance(by: .seconds(2))
        let turn: [String: Double] = ["portrait": 0, "landscapeRight": 90, "landscapeLeft": -90]
        var received: [JSONValue] = []
        for (app, member) in zip(apps, Self.audience) {
            let events = try await Self.headings(app)
            try #require(events.count == 1, "\(member.app): \(events)")
            let event = events[0]
            let turned = turn[member.orientation]!
            #expect(Self.near(event["magnetic"], 30 + turned), "\(member.app): \(event)")
            let mayLocate = member.status?.hasPrefix("authorized") == true
            // Reduced: absent until the app's grid is on disk (H8), which the hub writes off its loop.
            if member.accuracy == nil || !mayLocate { #expect((event["true"] != nil) == mayLocate, "\(member.app): \(event)") }
            if mayLocate, let trueHeading = event["true"]?.doubleValue {
                // Reduced: the declination at the served cell, within a hundredth or so of the fix's.
                #expect(HeadingMath.separation(trueHeading, 30 + Self.declination + turned) < 0.1, "\(member.app): \(event)")
            }
            received.append(event)
        }
        #expect(received[0] == received[1], "two portrait apps at full accuracy get the same event")
        #expect(received[0] != received[4], "the app that may not locate gets no true")
    }

    @Test("heading.start: a filter outside 0...180 or not a number is -32602 naming it; the session goes on")
    func badFilter() async throws {
        let hub = try InProcessHub()
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": "com.example.compass"])
        for bad: JSONValue in [-1, 181, "north"] {
            #expect(try await app.errorCode(Method.headingStart, ["filter": bad]) == -32602)
        }
        _ = try await app.call(Method.headingStart, ["filter": 180])
    }
}
