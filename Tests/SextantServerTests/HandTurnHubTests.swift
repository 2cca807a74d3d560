import Foundation
import SextantCore
import SextantProtocol
import Testing

@testable import SextantHub
@testable import SextantServer

/// `sextantctl rotate` (`device.set` `orientation`) is a turn at the hand's rate, not a
/// jump (issue 40.1, sextant-rules(7) D7): the gyroscope reads the rate the turn implies,
/// a held field turns with the device, and the attitude and the judge end where it does.
@Suite("A rotate by hand is a turn with a rate (RULES D7), in process", .timeLimit(.minutes(1)))
struct HandTurnHubTests {
    static let g = Acceleration.standardGravity

    /// A hub whose device is held upright in portrait, screen to magnetic north (Paris's
    /// field: down along −y, north along the screen's z), with an app streaming every
    /// fused motion in the rotation vector's frame.
    static func uprightFacingNorth() async throws -> (InProcessHub, TestClient, TestClient) {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": "com.example.skymap"])
        _ = try await control.call(Method.deviceSet, ["orientation": "portrait", "magneticField": ["x": 0, "y": -42, "z": 21]])
        await hub.advance(by: .seconds(1))
        _ = try await app.call(Method.deviceMotionStart, ["interval": 0, "referenceFrame": "rotationVector"])
        return (hub, control, app)
    }

    static func motions(_ app: TestClient) async throws -> [WireDeviceMotion] {
        try await app.drainEvents().filter { $0.method == Event.deviceMotion }.map { try WireDeviceMotion(json: $0.params) }
    }

    /// The gyroscope's readings integrated as the attitude engine does (each reading's rate
    /// over the step that ends at it): the angle turned about each axis, rad.
    static func integrated(_ events: [WireDeviceMotion]) -> Vector3 {
        let rated = events.filter { $0.rotationRate != nil }
        var sum = Vector3.zero
        for (before, after) in zip(rated, rated.dropFirst()) {
            let seconds = Double(after.time.nanoseconds - before.time.nanoseconds) / 1e9
            let r = after.rotationRate!
            sum = sum + seconds * Vector3(r.x, r.y, r.z)
        }
        return sum
    }

    static func screenDirection(_ m: WireDeviceMotion) -> Vector3 {
        Quaternion(w: m.attitude.w, x: m.attitude.x, y: m.attitude.y, z: m.attitude.z).rotate(Vector3(0, 0, 1))
    }

    @Test("D7: rotate landscapeLeft turns a quarter turn at π rad/s; the gyroscope's z integrates to +π/2, the judge and the attitude end there")
    func quarterTurnD7() async throws {
        let (hub, control, app) = try await Self.uprightFacingNorth()
        _ = try await Self.motions(app)
        _ = try await control.call(Method.deviceSet, ["orientation": "landscapeLeft"])
        await hub.advance(by: .seconds(2))
        let events = try await Self.motions(app)
        let rates = events.compactMap(\.rotationRate)
        let fastest = rates.map { abs($0.z) }.max() ?? 0
        #expect(abs(fastest - Double.pi) < 1e-9, "the turn's rate: \(fastest) rad/s")
        let turned = Self.integrated(events)
        #expect(abs(turned.z - .pi / 2) < 0.02 && abs(turned.x) < 1e-9 && abs(turned.y) < 1e-9, "∫ω dt = \(turned)")
        // Half a second of turning: 25 readings of π rad/s, 20 ms apart.
        #expect(rates.filter { $0.z > 0 }.count == 25)
        #expect(try await control.call(Method.status)["deviceOrientation"] == "landscapeLeft")
        // The last fused reading: gravity along +x (the device's right edge up), the screen
        // still to the north (the turn was in its plane, and the held field turned with it).
        let last = try #require(events.last)
        #expect(abs(last.gravity.x - Self.g) < 0.05 && abs(last.gravity.y) < 0.2, "\(last.gravity)")
        let screen = Self.screenDirection(last)
        #expect((screen - Vector3(0, 1, 0)).length < 0.02, "the screen faces \(screen) (east, north, up)")
    }

    @Test("D7: a half turn goes over face up, at π rad/s about the device's x; the judge decides upside down and nothing on the way")
    func halfTurnD7() async throws {
        let (hub, control, app) = try await Self.uprightFacingNorth()
        _ = try await app.call(Method.orientationStart)
        _ = try await Self.motions(app)
        _ = try await control.call(Method.deviceSet, ["orientation": "portraitUpsideDown"])
        await hub.advance(by: .seconds(3))
        let events = try await app.drainEvents()
        let turned = Self.integrated(try events.filter { $0.method == Event.deviceMotion }.map { try WireDeviceMotion(json: $0.params) })
        #expect(abs(turned.x + .pi) < 0.03 && abs(turned.y) < 1e-9 && abs(turned.z) < 1e-9, "∫ω dt = \(turned)")
        let decided = events.filter { $0.method == Event.deviceOrientation }.compactMap { $0.params["orientation"]?.stringValue }
        #expect(decided == ["portraitUpsideDown"], "\(decided)")
        #expect(try await control.call(Method.status)["deviceOrientation"] == "portraitUpsideDown")
    }

    @Test("D7: the turn holds the gyroscope only while it lasts: status's held lists accel and magnet after it")
    func gyroscopeGivenBackD7() async throws {
        let (hub, control, _) = try await Self.uprightFacingNorth()
        _ = try await control.call(Method.deviceSet, ["orientation": "faceUp"])
        await hub.advance(by: .milliseconds(100))
        #expect(try await control.call(Method.status)["held"] == ["accel", "gyro", "magnet"])
        await hub.advance(by: .seconds(2))
        let status = try await control.call(Method.status)
        #expect(status["held"] == ["accel", "magnet"])
        #expect(status["deviceOrientation"] == "faceUp")
    }
}
