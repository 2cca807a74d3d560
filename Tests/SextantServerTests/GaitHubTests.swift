import Foundation
import SextantCore
import SextantProtocol
import Testing

@testable import SextantHub
@testable import SextantServer

/// The accelerometer of a replayed walk that recorded none carries the gait (issue 40.5,
/// sextant-rules(7) A12): the bounce at the step cadence A7 counts steps at, without
/// turning the orientation judge; made only while an app hears the accelerometer.
@Suite("The gait in a synthesized accelerometer (RULES A12), in process", .timeLimit(.minutes(1)))
struct GaitHubTests {
    static let app = "com.example.stepper"
    static let speed = 1.4
    /// 1.4 m/s north, a fix a second, for 40 s: no accelerometer.
    static var walk: String {
        var lines = [#"{"sextant":"trace","version":1,"start":"2026-03-01T08:00:00.000Z"}"#]
        let degrees = speed / 111_194.93
        for n in 0...40 { lines.append(#"{"t":\#(n),"location":{"lat":\#(48.85 + degrees * Double(n)),"lon":2.29,"hAcc":5,"speed":\#(speed)}}"#) }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The replayed walk for 30 s, an app streaming every accelerometer reading when
    /// `listening`, and the orientation stream; the hub and the app.
    static func replayed(listening: Bool) async throws -> (InProcessHub, TestClient, Duration) {
        let hub = try InProcessHub()
        let path = hub.directory + "/walk.jsonl"
        try walk.write(toFile: path, atomically: true, encoding: .utf8)
        let control = try await hub.connect(.control)
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": .string(Self.app)])
        _ = try await app.call(Method.orientationStart)
        if listening { _ = try await app.call(Method.motionStart, ["interval": 0]) }
        _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": 1])
        let started = ContinuousClock.now
        await hub.advance(by: .seconds(30))
        return (hub, app, ContinuousClock.now - started)
    }

    /// The frequency (Hz) between 0.5 and 3 at which the readings' magnitude has the most
    /// power: a discrete Fourier sum at each 0.005 Hz.
    static func dominantFrequency(_ samples: [(t: Double, value: Double)]) -> Double {
        let mean = samples.map(\.value).reduce(0, +) / Double(samples.count)
        var best = (frequency: 0.0, power: -1.0)
        for step in 0...500 {
            let f = 0.5 + 0.005 * Double(step)
            var re = 0.0, im = 0.0
            for s in samples {
                re += (s.value - mean) * cos(2 * .pi * f * s.t)
                im += (s.value - mean) * sin(2 * .pi * f * s.t)
            }
            if re * re + im * im > best.power { best = (f, re * re + im * im) }
        }
        return best.frequency
    }

    @Test("A12: the synthesized accelerometer's dominant frequency is the step cadence (A7) within 10 %; bounded; the judge stays portrait")
    func gaitAtTheCadenceA12() async throws {
        let (_, app, elapsed) = try await Self.replayed(listening: true)
        let events = try await app.drainEvents()
        let readings = try events.filter { $0.method == Event.motion }.map { try WireMotion(json: $0.params) }
        let start = Timestamp(rfc3339: "2026-03-01T08:00:00.000Z")!.nanoseconds
        let magnitudes = readings.map { (t: Double($0.time.nanoseconds - start) / 1e9, value: ($0.x * $0.x + $0.y * $0.y + $0.z * $0.z).squareRoot()) }
        #expect(magnitudes.count > 1000, "50 Hz for most of 30 s: \(magnitudes.count)")
        let cadence = Self.speed / ActivityModel.stepLength(speed: Self.speed)!
        let found = Self.dominantFrequency(magnitudes.filter { $0.t >= 5 })
        #expect(abs(found - cadence) <= 0.1 * cadence, "the gait at \(found) Hz, the steps at \(cadence) Hz")
        let g = Acceleration.standardGravity
        #expect(magnitudes.allSatisfy { abs($0.value - g) <= 2.0 + 1e-9 }, "A12: a bounce of at most 2 m/s²")
        let turns = events.filter { $0.method == Event.deviceOrientation }.compactMap { $0.params["orientation"]?.stringValue }
        #expect(turns == ["portrait"], "the judge decides once and does not flip on the steps: \(turns)")
        print("A12 cost: 30 s of walk with a motion subscriber: \(readings.count) readings, \(elapsed) of the hub's work")
    }

    @Test("A12: nobody hears the accelerometer: nothing is synthesized, the judge hears nothing")
    func nothingUnheardA12() async throws {
        let (hub, app, elapsed) = try await Self.replayed(listening: false)
        let events = try await app.drainEvents()
        #expect(events.filter { $0.method == Event.deviceOrientation }.isEmpty)
        let status = try await hub.connect(.control).call(Method.status)
        #expect(status["deviceOrientation"] == "unknown")
        print("A12 cost: 30 s of walk without a subscriber: 0 readings, \(elapsed) of the hub's work")
    }

    /// 1.4 m/s, a fix a second: 10 s north, 10 s turning right at 9 °/s, 10 s east.
    static var turningWalk: String {
        var lines = [#"{"sextant":"trace","version":1,"start":"2026-03-01T08:00:00.000Z"}"#]
        var (lat, lon, course) = (48.85, 2.29, 0.0)
        for n in 0...32 {
            lines.append(#"{"t":\#(n),"location":{"lat":\#(lat),"lon":\#(lon),"hAcc":5}}"#)
            if n >= 10 && n < 20 { course += 9 }
            let metres = speed, c = course * .pi / 180
            lat += metres * cos(c) / 111_194.93
            lon += metres * sin(c) / (111_194.93 * cos(lat * .pi / 180))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test("A12: a route's turn is a yaw rate in the synthesized gyroscope: the rate about the device's up integrates to the quarter turn right (−π/2)")
    func routeTurnIsAYawRateA12() async throws {
        let hub = try InProcessHub()
        let path = hub.directory + "/turn.jsonl"
        try Self.turningWalk.write(toFile: path, atomically: true, encoding: .utf8)
        let control = try await hub.connect(.control)
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": .string(Self.app)])
        _ = try await app.call(Method.deviceMotionStart, ["interval": 0, "referenceFrame": "gameRotationVector"])
        _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": 1])
        await hub.advance(by: .seconds(34))
        let motions = try await app.drainEvents().filter { $0.method == Event.deviceMotion }.map { try WireDeviceMotion(json: $0.params) }
        let rated = motions.filter { $0.rotationRate != nil }
        var yaw = 0.0
        for (before, after) in zip(rated, rated.dropFirst()) {
            let seconds = Double(after.time.nanoseconds - before.time.nanoseconds) / 1e9
            let r = after.rotationRate!, g = after.gravity
            let up = Vector3(g.x, g.y, g.z).direction ?? Vector3(0, 1, 0)
            yaw += seconds * Vector3(r.x, r.y, r.z).dot(up)
        }
        #expect(rated.count > 1000, "a gyroscope reading each 20 ms: \(rated.count)")
        #expect(abs(yaw + .pi / 2) < 0.1 * .pi / 2, "∫ω·up dt = \(yaw) rad, the route turned 90° right")
    }
}
