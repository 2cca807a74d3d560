import Foundation
import NIOCore
import SextantCore
import SextantProtocol
import Testing

@testable import SextantGPSDFace
@_spi(Sources) @_spi(Daemon) @testable import SextantHub
@testable import SextantServer

/// The fused motion on the gpsd face and in `status`, in process (issue 40.7; docs/gpsd.md
/// "Attitude"): the turn of ``DeviceMotionHubTests`` (flat, top to magnetic north, turned to
/// its left at a quarter turn a second, gyroscope, accelerometer and field at 100 Hz).
@Suite("gpsd face and status: the fused motion, in process (D6)", .timeLimit(.minutes(1)))
struct GPSDMotionTests {
    /// A hub with a gpsd client that sent `watch` (authorized for locations) and the turn,
    /// replayed to its end.
    private func replayed(watch: String, withGyroscope: Bool = true) async throws -> (InProcessHub, TestClient, GPSDTestClient) {
        let hub = try InProcessHub()
        let path = hub.directory + "/turn.jsonl"
        try DeviceMotionHubTests.trace(withGyroscope: withGyroscope).write(toFile: path, atomically: true, encoding: .utf8)
        let control = try await hub.connect(.control)
        _ = try await control.call(Method.permissionsSet, ["app": .string(GPSDPeer.unknownApp), "status": "authorizedAlways", "accuracy": "full"])
        let gpsd = try await hub.connectGPSD()
        try await gpsd.send(watch)
        _ = try await gpsd.nextReport(ofClass: "WATCH")
        _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": 1])
        await hub.advance(by: .milliseconds(1100))
        return (hub, control, gpsd)
    }

    private func motionATTs(_ gpsd: GPSDTestClient) async throws -> [JSONValue] {
        try await gpsd.drainReports().filter { $0["class"] == "ATT" && $0["gyro_z"] != nil }
    }

    @Test("issue 40.7: a client watching in JSON gets ATTs with gyro_x/y/z in °/s, pitch, roll, yaw from magnetic north turning west, acc_x/y/z; one each 0.1 s")
    func attitudeOnWatch() async throws {
        let (hub, _, gpsd) = try await replayed(watch: #"?WATCH={"enable":true,"json":true}"#)
        defer { withExtendedLifetime(hub) {} }
        let atts = try await motionATTs(gpsd)
        #expect(atts.count == 11, "one each 0.1 s of the 1 s turn, both ends: \(atts.map { $0["time"] })")
        let first = try #require(atts.first), last = try #require(atts.last)
        #expect(first["gyro_x"] == 0.0 && first["gyro_y"] == 0.0 && first["gyro_z"] == 90.0, "\(first)")
        #expect(first["acc_z"] == 9.807 && first["acc_x"] == 0.0, "\(first)")
        let yaw = try #require(last["yaw"]?.doubleValue)
        #expect(HeadingMath.separation(yaw, 270) < 0.5, "a quarter turn to the left: \(last)")
        #expect(abs(last["pitch"]?.doubleValue ?? 99) < 0.01 && abs(last["roll"]?.doubleValue ?? 99) < 0.01, "\(last)")
        #expect(last["time"] == "2026-03-01T08:00:01.000Z" && last["device"] == "/dev/sextant0")
    }

    @Test("D6: a client connected but not watching, or watching in NMEA only, runs no fusion and hears no motion ATT")
    func notWatchingCostsNothing() async throws {
        let (nmeaHub, _, nmea) = try await replayed(watch: #"?WATCH={"enable":true,"nmea":true}"#)
        #expect(try await nmeaHub.onLoop { $0.services(DeviceMotionService.self).fused } == 0)
        #expect(try await motionATTs(nmea).isEmpty)
        let (jsonHub, _, _) = try await replayed(watch: #"?WATCH={"enable":true,"json":true}"#)
        #expect(try await jsonHub.onLoop { $0.services(DeviceMotionService.self).fused } == 303)
    }

    @Test("issue 40.7: without a gyroscope, no motion ATT (the compass's ATT says the heading)")
    func noGyroscopeNoMotionATT() async throws {
        let (hub, _, gpsd) = try await replayed(watch: #"?WATCH={"enable":true,"json":true}"#, withGyroscope: false)
        defer { withExtendedLifetime(hub) {} }
        #expect(try await motionATTs(gpsd).isEmpty)
    }

    @Test("status: deviceMotion is the latest fused motion in the rotation vector's frame while the engine runs, null while nobody listens")
    func statusMember() async throws {
        let (hub, control, gpsd) = try await replayed(watch: #"?WATCH={"enable":true,"json":true}"#)
        defer { withExtendedLifetime(hub) {} }
        let status = try await control.call(Method.status)
        let motion = try WireDeviceMotion(json: try #require(status["deviceMotion"]))
        #expect(motion.referenceFrame == .rotationVector && motion.time == Timestamp(rfc3339: "2026-03-01T08:00:01.000Z"))
        #expect(motion.rotationRate == WireVector(x: 0, y: 0, z: .pi / 2))
        try await gpsd.send(#"?WATCH={"enable":false}"#)
        _ = try await gpsd.nextReport(ofClass: "WATCH")
        #expect(try await control.call(Method.status)["deviceMotion"] == .null)
    }
}
