import Foundation
import NIOCore
import SextantCore
import SextantProtocol
import Testing

@testable import SextantHub
@testable import SextantServer

/// The accelerometer's stream under each platform's rules, in process on virtual time
/// (docs/platforms.md AN40, AN41, I15): the rate cap and who hears it in the background.
@Suite("Motion by platform, in process (AN40, AN41, I15)", .timeLimit(.minutes(1)))
struct MotionPlatformHubTests {
    /// `count` accelerometer samples `spacing` seconds apart.
    static func trace(count: Int, spacing: Double) -> String {
        var lines = [#"{"sextant":"trace","version":1,"start":"2026-03-01T08:00:00.000Z"}"#]
        for n in 0..<count { lines.append(#"{"t":\#(Double(n) * spacing),"accel":{"x":\#(Double(n)),"y":9.8,"z":0.5}}"#) }
        return lines.joined(separator: "\n") + "\n"
    }

    static func hub(_ platform: DevicePlatform, count: Int, spacing: Double) throws -> (InProcessHub, String) {
        let hub = try InProcessHub { $0.platform = platform }
        let path = hub.directory + "/accel.jsonl"
        try trace(count: count, spacing: spacing).write(toFile: path, atomically: true, encoding: .utf8)
        return (hub, path)
    }

    static func motionTimes(_ app: TestClient) async throws -> [Double] {
        try await app.drainEvents().filter { $0.method == Event.motion }.compactMap { $0.params["x"]?.doubleValue }
    }

    @Test("AN41: motion.start at 500 Hz is served at 200 Hz on API 31+ without HIGH_SAMPLING_RATE_SENSORS (answering the interval); API 30 or declared: every reading")
    func testAN41_rateCap() async throws {
        let cases: [(api: Int, permissions: JSONValue?, events: Int, answer: JSONValue)] = [
            (30, nil, 50, [:]), (34, nil, 17, ["interval": 0.005]), (31, ["android.permission.HIGH_SAMPLING_RATE_SENSORS"], 50, [:]),
            (36, ["ACTIVITY_RECOGNITION"], 17, ["interval": 0.005]),
        ]
        for c in cases {
            let (hub, path) = try Self.hub(.android(api: c.api), count: 50, spacing: 0.002)
            let control = try await hub.connect(.control)
            let app = try await hub.connect(.app)
            var hello: [String: JSONValue] = ["app": "com.example.imu"]
            if let permissions = c.permissions { hello["androidPermissions"] = permissions }
            _ = try await app.call(Method.hello, .object(hello))
            #expect(try await app.call(Method.motionStart, ["interval": 0]) == c.answer, "API \(c.api) \(String(describing: c.permissions))")
            _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": 1])
            await hub.advance(by: .milliseconds(300))
            let heard = try await Self.motionTimes(app)
            #expect(heard.count == c.events, "API \(c.api) \(String(describing: c.permissions)): \(heard)")
        }
    }

    @Test("AN40: on Android a background app hears no accelerometer; one whose foreground service it started while visible hears it")
    func testAN40_backgroundAndForegroundService() async throws {
        let (hub, path) = try Self.hub(.android(api: 34), count: 50, spacing: 0.02)
        let control = try await hub.connect(.control)
        var apps: [TestClient] = []
        for (name, service) in [("com.example.tracker", true), ("com.example.game", false)] {
            let app = try await hub.connect(.app)
            _ = try await app.call(Method.hello, ["app": .string(name)])
            _ = try await app.call(Method.motionStart, ["interval": 0])
            if service { _ = try await app.call(Method.appUpdate, ["foregroundService": "location"]) }
            _ = try await control.call(Method.appsUpdate, ["app": .string(name), "state": "background"])
            apps.append(app)
        }
        _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": 1])
        await hub.advance(by: .milliseconds(500))
        #expect(try await Self.motionTimes(apps[0]).count >= 20, "the foreground service keeps the sensor")
        #expect(try await Self.motionTimes(apps[1]).isEmpty, "Android 9+: no continuous sensor in the background")
    }

    @Test("I15: on iOS a suspended app hears no accelerometer; one kept running by a background location stream (Always) hears it")
    func testI15_runningInBackground() async throws {
        let (hub, path) = try Self.hub(.ios, count: 50, spacing: 0.02)
        let control = try await hub.connect(.control)
        var apps: [TestClient] = []
        for (name, locates) in [("com.example.runner", true), ("com.example.level", false)] {
            _ = try await control.call(Method.permissionsSet, ["app": .string(name), "status": "authorizedAlways"])
            let app = try await hub.connect(.app)
            _ = try await app.call(Method.hello, ["app": .string(name)])
            _ = try await app.call(Method.motionStart, ["interval": 0])
            if locates { _ = try await app.call(Method.locationStart) }
            _ = try await control.call(Method.appsUpdate, ["app": .string(name), "state": "background"])
            apps.append(app)
        }
        _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": 1])
        await hub.advance(by: .milliseconds(500))
        #expect(try await Self.motionTimes(apps[0]).count >= 20, "running in the background: Core Motion's handler runs")
        #expect(try await Self.motionTimes(apps[1]).isEmpty, "suspended: nothing")
    }
}
