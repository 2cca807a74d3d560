import Foundation
import SextantCore
import SextantProtocol
import Testing

@testable import SextantHub
@testable import SextantServer

/// A route ridden or driven turns the device (sextant-rules(7) A17): with no gyroscope
/// recorded, the gyroscope reads the yaw rate the route's change of course implies, and the
/// attitude turns with it; made only while an app streams `deviceMotion`.
@Suite("A route's turns on the gyroscope when ridden or driven (RULES A17), in process", .timeLimit(.minutes(1)))
struct RouteTurnHubTests {
    static let app = "com.example.navigator"

    /// At `speed` m/s, a fix a second: 10 s north, 10 s turning right at 9 °/s, 10 s east.
    static func turningRoute(speed: Double) -> String {
        var lines = [#"{"sextant":"trace","version":1,"start":"2026-03-01T08:00:00.000Z"}"#]
        var (lat, lon, course) = (48.85, 2.29, 0.0)
        for n in 0...32 {
            lines.append(#"{"t":\#(n),"location":{"lat":\#(lat),"lon":\#(lon),"hAcc":5}}"#)
            if n >= 10 && n < 20 { course += 9 }
            let c = course * .pi / 180
            lat += speed * cos(c) / 111_194.93
            lon += speed * sin(c) / (111_194.93 * cos(lat * .pi / 180))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The route replayed for 34 s to an app that calls `start`; its events and the hub's work.
    static func replayed(
        speed: Double, start: String, _ params: [String: JSONValue], replaySpeed: JSONValue = 1, for seconds: Int64 = 34
    ) async throws -> ([(method: String, params: JSONValue)], Duration) {
        let hub = try InProcessHub()
        let path = hub.directory + "/route.jsonl"
        try turningRoute(speed: speed).write(toFile: path, atomically: true, encoding: .utf8)
        let control = try await hub.connect(.control)
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": .string(Self.app)])
        _ = try await app.call(start, .object(params))
        _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": replaySpeed])
        let started = ContinuousClock.now
        await hub.advance(by: .seconds(seconds))
        let elapsed = ContinuousClock.now - started
        return (try await app.drainEvents(), elapsed)
    }

    /// Where the device's x axis points in the reference frame's horizontal plane (rad,
    /// counter-clockwise from the frame's x): a phone upright in portrait has it level.
    static func yaw(of attitude: (w: Double, x: Double, y: Double, z: Double)) -> Double {
        let q = Quaternion(w: attitude.w, x: attitude.x, y: attitude.y, z: attitude.z)
        let x = q.rotate(Vector3(1, 0, 0))
        return atan2(x.y, x.x)
    }

    @Test("A17: a ridden (6 m/s) and a driven (15 m/s) quarter turn right: the gyroscope about the device's up integrates to −π/2, and the attitude's yaw turns by it", arguments: [6.0, 15.0])
    func routeTurnA17(speed: Double) async throws {
        try await Self.checkQuarterTurn(speed: speed, replaySpeed: 1, for: 34)
    }

    @Test("A12, A17: replayed at 10× and at max, the same drive makes the same 50 Hz readings on the trace's clock and the same quarter turn", arguments: [JSONValue.int(10), JSONValue.string("max")])
    func routeTurnAtEverySpeedA17(replaySpeed: JSONValue) async throws {
        try await Self.checkQuarterTurn(speed: 15, replaySpeed: replaySpeed, for: 4)
    }

    static func checkQuarterTurn(speed: Double, replaySpeed: JSONValue, for seconds: Int64) async throws {
        let params: [String: JSONValue] = ["interval": 0, "referenceFrame": "gameRotationVector"]
        let (events, elapsed) = try await Self.replayed(speed: speed, start: Method.deviceMotionStart, params, replaySpeed: replaySpeed, for: seconds)
        let motions = try events.filter { $0.method == Event.deviceMotion }.map { try WireDeviceMotion(json: $0.params) }
        let rated = motions.filter { $0.rotationRate != nil }
        #expect(rated.count > 1000, "a gyroscope reading each 20 ms: \(rated.count)")
        var turned = 0.0
        for (before, after) in zip(rated, rated.dropFirst()) {
            let seconds = Double(after.time.nanoseconds - before.time.nanoseconds) / 1e9
            let r = after.rotationRate!, g = after.gravity
            let up = Vector3(g.x, g.y, g.z).direction ?? Vector3(0, 1, 0)
            turned += seconds * Vector3(r.x, r.y, r.z).dot(up)
        }
        #expect(abs(turned + .pi / 2) < 0.1 * .pi / 2, "∫ω·up dt = \(turned) rad, the route turned 90° right")
        let first = try #require(rated.first), last = try #require(rated.last)
        let change: Double = Self.yaw(of: last.attitude) - Self.yaw(of: first.attitude)
        let yaw: Double = atan2(sin(change), cos(change))
        let tolerance: Double = 10 * Double.pi / 180
        #expect(abs(yaw + Double.pi / 2) < tolerance, "the attitude turned \(yaw * 180 / Double.pi)°, the route −90°")
        let g = last.gravity
        #expect(abs(g.y - Acceleration.standardGravity) < 0.1, "upright in portrait, as the judge decided: \(g)")
        let times = rated.map(\.time.nanoseconds)
        #expect(zip(times, times.dropFirst()).allSatisfy { $1 - $0 == 20_000_000 }, "every 20 ms of the trace's clock at \(replaySpeed)")
        print("A17 cost at \(speed) m/s, replayed at \(replaySpeed): 34 s of route with a deviceMotion subscriber: \(rated.count) gyroscope readings, \(elapsed) of the hub's work")
    }

    @Test("A17: a drive heard only by the accelerometer's stream makes up nothing: gravity alone says nothing of a ride")
    func nothingForMotionAloneA17() async throws {
        let (events, elapsed) = try await Self.replayed(speed: 15, start: Method.motionStart, ["interval": 0])
        let readings = events.filter { $0.method == Event.motion }
        #expect(readings.isEmpty, "\(readings.count) accelerometer readings")
        print("A17 cost: 34 s of drive with a motion subscriber only: 0 readings, \(elapsed) of the hub's work")
    }
}
