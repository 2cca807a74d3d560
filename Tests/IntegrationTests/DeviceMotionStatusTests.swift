import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// `status`'s `deviceMotion` and `sextantctl status`'s line through the real daemon and the
/// real sextantctl (issue 40.7).
@Suite("status: deviceMotion", .serialized)
struct DeviceMotionStatusTests {
    @Test("issue 40.7: status says deviceMotion null while nobody listens; with an app's deviceMotion.start, the latest fused motion, in JSON and in text")
    func statusShowsTheFusedMotion() throws {
        let daemon = try DaemonHarness(arguments: ["--no-gpsd"])
        #expect(try daemon.ctl(["rotate", "faceUp"]).status == 0)
        #expect(try daemon.ctl(["gyro", "0", "0", "1.5708"]).status == 0)
        try daemon.waitForStatus("both held") { $0["held"] == ["accel", "gyro"] }
        #expect(try daemon.control().call(Method.status)["deviceMotion"] == .null, "the engine does not run unheard (D6)")

        let (app, _) = try daemon.app("com.example.compass3d")
        _ = try app.call(Method.deviceMotionStart, ["referenceFrame": "gameRotationVector"])
        try daemon.waitForStatus("the fused motion") { $0["deviceMotion"]?["rotationRate"]?["z"] == 1.5708 }
        let motion = try WireDeviceMotion(json: try #require(try daemon.control().call(Method.status)["deviceMotion"]))
        #expect(motion.referenceFrame == .gameRotationVector, "no field: the game rotation vector's frame")
        let text = try daemon.ctl(["status"]).stdout
        #expect(text.contains("Device motion:     gameRotationVector q ("), "\(text)")
        #expect(text.contains("rate 0 0 1.5708 rad/s"), "\(text)")

        _ = try app.call(Method.deviceMotionStop)
        #expect(try daemon.control().call(Method.status)["deviceMotion"] == .null)
        #expect(!(try daemon.ctl(["status"]).stdout.contains("Device motion")))
    }
}
