import Foundation
import NIOCore
import SextantCore
import SextantProtocol
import Testing

@testable import SextantHub
@testable import SextantServer

/// `deviceMotion.start` on app.sock in process (issue 40.3): a replayed trace of a phone
/// lying flat, top to magnetic north, turned to its left at a quarter turn a second for a
/// second (gyroscope, accelerometer and magnetometer at 100 Hz), and the rules D1–D6
/// (sextant-rules(7) "DEVICE MOTION").
@Suite("Device motion to apps, in process (RULES D1–D6)", .timeLimit(.minutes(1)))
struct DeviceMotionHubTests {
    static let app = "com.example.compass3d"
    /// Paris's field in east-north-up, µT.
    static let earth = Vector3(0, 21, -42)

    /// The turn as a trace: at each 10 ms the field and the accelerometer of the phone turned
    /// so far, then the gyroscope (`withGyroscope` false: the same without the gyroscope).
    static func trace(withGyroscope: Bool = true) -> String {
        var lines = [#"{"sextant":"trace","version":1,"start":"2026-03-01T08:00:00.000Z"}"#]
        for n in 0...100 {
            let t = Double(n) * 0.01
            let q = Quaternion.aboutVertical(.pi / 2 * t)
            let m = q.conjugate.rotate(earth)
            lines.append(#"{"t":\#(t),"magnet":{"x":\#(m.x),"y":\#(m.y),"z":\#(m.z)}}"#)
            lines.append(#"{"t":\#(t),"accel":{"x":0,"y":0,"z":9.80665}}"#)
            if withGyroscope { lines.append(#"{"t":\#(t),"gyro":{"x":0,"y":0,"z":\#(Double.pi / 2)}}"#) }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A hub with an app that said hello and asked `deviceMotion.start` with `params` (none:
    /// did not ask), and the replay of the turn at speed 1, run to its end.
    static func replayed(_ params: JSONValue?, withGyroscope: Bool = true) async throws -> (InProcessHub, TestClient) {
        let hub = try InProcessHub()
        let path = hub.directory + "/turn.jsonl"
        try trace(withGyroscope: withGyroscope).write(toFile: path, atomically: true, encoding: .utf8)
        let control = try await hub.connect(.control)
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": .string(Self.app)])
        if let params { _ = try await app.call(Method.deviceMotionStart, params) }
        _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": 1])
        await hub.advance(by: .milliseconds(1100))
        return (hub, app)
    }

    static func motions(_ app: TestClient) async throws -> [WireDeviceMotion] {
        try await app.drainEvents().filter { $0.method == Event.deviceMotion }.map { try WireDeviceMotion(json: $0.params) }
    }

    static func azimuth(_ m: WireDeviceMotion) -> Double {
        AttitudeAngles(Quaternion(w: m.attitude.w, x: m.attitude.x, y: m.attitude.y, z: m.attitude.z)).azimuth
    }

    @Test("D1 D2: the rotation vector turns from north to west with the phone, at the gyroscope's rate; gravity up, no user acceleration")
    func turnInRotationVector() async throws {
        let (_, app) = try await Self.replayed(["interval": 0.1, "referenceFrame": "rotationVector"])
        let events = try await Self.motions(app)
        #expect(events.count == 11, "one each 0.1 s of the 1 s turn, both ends: \(events.map(\.time))")
        let first = try #require(events.first), last = try #require(events.last)
        #expect(HeadingMath.separation(Self.azimuth(first), 0) < 0.01)
        #expect(HeadingMath.separation(Self.azimuth(last), 270) < 0.5, "\(Self.azimuth(last))")
        #expect(events.allSatisfy { $0.referenceFrame == .rotationVector })
        // The first comes from the first accelerometer reading, before the gyroscope's.
        #expect(events.dropFirst().allSatisfy { $0.rotationRate == WireVector(x: 0, y: 0, z: .pi / 2) })
        #expect(abs(last.gravity.z - 9.80665) < 1e-6 && abs(last.userAcceleration.z) < 1e-6)
        #expect(last.time == Timestamp(rfc3339: "2026-03-01T08:00:01.000Z"))
    }

    @Test("D2: Core Motion's magnetic-north frame: x north, so the phone's top, first along x, ends along −y (east of a west-pointing y)")
    func magneticNorthFrame() async throws {
        let (_, app) = try await Self.replayed(["interval": 0.5, "referenceFrame": "xMagneticNorthZVertical"])
        let events = try await Self.motions(app)
        let top = Vector3(0, 1, 0)
        let turned = events.map { Quaternion(w: $0.attitude.w, x: $0.attitude.x, y: $0.attitude.y, z: $0.attitude.z).rotate(top) }
        #expect(turned.count == 3)
        #expect((turned[0] - Vector3(1, 0, 0)).length < 1e-3, "top to north: +x")
        // A quarter turn to the left: the top points west, +y in north-west-up.
        #expect((turned[2] - Vector3(0, 1, 0)).length < 1e-2, "\(turned)")
    }

    @Test("D1: without a gyroscope, one event per accelerometer reading from the accelerometer and the field; no rotation rate")
    func withoutGyroscope() async throws {
        let (_, app) = try await Self.replayed(["interval": 0, "referenceFrame": "rotationVector"], withGyroscope: false)
        let events = try await Self.motions(app)
        #expect(events.count == 101)
        #expect(events.allSatisfy { $0.rotationRate == nil })
        #expect(HeadingMath.separation(Self.azimuth(try #require(events.last)), 270) < 0.5)
    }

    @Test("D2: true north is sent only to a session with location authorization; deviceMotion.start refuses an unknown frame naming it")
    func trueNorthNeedsLocation() async throws {
        let (hub, app) = try await Self.replayed(["referenceFrame": "xTrueNorthZVertical"])
        #expect(try await Self.motions(app).isEmpty, "no location authorization: no declination")
        let error = try await app.request(Method.deviceMotionStart, ["referenceFrame": "xUpZNorth"])["error"]
        #expect(error?["code"] == -32602)
        #expect(error?["message"]?.stringValue?.contains("referenceFrame") == true, "\(String(describing: error))")
        withExtendedLifetime(hub) {}
    }

    @Test("D2 D5: with location authorization, xTrueNorthZVertical is the magnetic frame turned by WMM2025's declination there")
    func trueNorthWithLocation() async throws {
        let hub = try InProcessHub()
        let path = hub.directory + "/turn.jsonl"
        var lines = Self.trace().split(separator: "\n").map(String.init)
        lines.insert(#"{"t":0,"location":{"lat":48.85,"lon":2.29}}"#, at: 1)
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let control = try await hub.connect(.control)
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": .string(Self.app)])
        _ = try await control.call(Method.permissionsSet, ["app": .string(Self.app), "status": "authorizedWhenInUse"])
        _ = try await app.call(Method.deviceMotionStart, ["interval": 0.5, "referenceFrame": "xTrueNorthZVertical"])
        _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": 1])
        await hub.advance(by: .milliseconds(1100))
        let first = try #require(try await Self.motions(app).first)
        let time = Timestamp(year: 2026, month: 3, day: 1, secondsOfDay: 8 * 3600)
        let declination = WorldMagneticModel.wmm2025.elements(
            latitude: 48.85, longitude: 2.29, height: 0, year: WorldMagneticModel.decimalYear(time)).declination
        #expect(abs(declination) > 0.5, "Paris's declination is not negligible: \(declination)°")
        // The top points to magnetic north, which is `declination` east of true north: at that
        // azimuth in north-west-up, (cos D, −sin D, 0).
        let top = Quaternion(w: first.attitude.w, x: first.attitude.x, y: first.attitude.y, z: first.attitude.z).rotate(Vector3(0, 1, 0))
        let d = declination * .pi / 180
        #expect((top - Vector3(cos(d), -sin(d), 0)).length < 1e-3, "\(top) for a declination of \(declination)°")
        #expect(first.referenceFrame == .xTrueNorthZVertical)
    }

    @Test("D5: an app in the background hears no deviceMotion")
    func foregroundOnly() async throws {
        let hub = try InProcessHub()
        let path = hub.directory + "/turn.jsonl"
        try Self.trace().write(toFile: path, atomically: true, encoding: .utf8)
        let control = try await hub.connect(.control)
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": .string(Self.app), "state": "background"])
        _ = try await app.call(Method.deviceMotionStart, ["interval": 0])
        _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": 1])
        await hub.advance(by: .milliseconds(1100))
        #expect(try await Self.motions(app).isEmpty)
    }

    @Test("D6: nobody listening, the engine hears no reading; one listener, every reading of the three kinds; stopped, none again")
    func fusesOnlyWhileHeard() async throws {
        let (quiet, _) = try await Self.replayed(nil)
        #expect(try await quiet.onLoop { $0.services(DeviceMotionService.self).fused } == 0)
        let (heard, app) = try await Self.replayed(["interval": 0.1])
        #expect(try await heard.onLoop { $0.services(DeviceMotionService.self).fused } == 303)
        _ = try await app.call(Method.deviceMotionStop)
        #expect(try await heard.onLoop { $0.services(DeviceMotionService.self).subscriberCount } == 0)
    }
}
