import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// Live IIO sensors all the way to an app's events: fake devices in a umockdev testbed, the
/// real `sextantd`, and an app on the app socket that sees orientation and posture change as
/// the test changes the sensors' sysfs values while the daemon runs.
///
/// Expectations come from RULES: IIO reads upright portrait as y ≈ -9.81 (Sextant negates
/// it); device landscapeLeft goes with interface landscapeRight; P3's hinge thresholds.
@Suite("IIO sensors to app events under umockdev", .serialized, .requires(IIOTestbed.requirement))
struct IIOEventTests {
    private func event(_ app: SextantConnection, _ method: String, _ description: String, where matches: (JSONValue) -> Bool = { _ in true }) throws -> JSONValue {
        try app.nextEvent(timeout: 15, description: description) { $0.method == method && matches($0.params) }.params
    }

    private func waitForDeviceOrientation(_ daemon: DaemonHarness, _ expected: JSONValue) throws {
        try daemon.waitForStatus("device orientation \(expected)") { $0["deviceOrientation"] == expected }
    }

    @Test("O2 O7: an IIO accelerometer turned while the daemon runs drives device and interface events")
    func accelerometerDrivesOrientation() throws {
        let testbed = try IIOTestbed()
        // Upright portrait as IIO reads it: raw y = -981 × 0.01 = -9.81 m/s².
        let accel = try testbed.add("iio:device0", attributes: accelerometerAttributes(raw: (0, -981, 0)))
        let daemon = try DaemonHarness(sensors: testbed)
        try daemon.waitForIIOState("accel iio:device0")
        // The judge decides as soon as the daemon reads the sensor, before any app is there.
        try waitForDeviceOrientation(daemon, "portrait")
        let (app, hello) = try daemon.app("com.example.game")
        #expect(hello["deviceOrientation"] == "portrait" && hello["interfaceOrientation"] == "portrait")
        _ = try app.call(Method.orientationStart)

        // Turned onto its side with the top to the left: IIO reads x = -9.81, Sextant +9.81,
        // the gravity reaction along +x: device landscapeLeft, interface landscapeRight.
        try testbed.set(accel, ["in_accel_x_raw": "-981", "in_accel_y_raw": "0"])
        let turned = try event(app, Event.deviceOrientation, "landscapeLeft") { $0["orientation"] == "landscapeLeft" }
        #expect(turned["previous"] == "portrait")
        let interface = try event(app, Event.interfaceOrientation, "interface landscapeRight")
        #expect(interface["orientation"] == "landscapeRight" && interface["previous"] == "portrait")

        // Laid flat on its back: faceUp after 500 ms; the interface stays.
        try testbed.set(accel, ["in_accel_x_raw": "0", "in_accel_z_raw": "-981"])
        #expect(try event(app, Event.deviceOrientation, "faceUp")["orientation"] == "faceUp")
        #expect(try daemon.control().call(Method.status)["deviceOrientation"] == "faceUp")
    }

    @Test("A mount matrix that swaps x and y: the sensor's own x axis is the device's y axis")
    func mountMatrixDecidesOrientation() throws {
        let testbed = try IIOTestbed()
        // The chip is mounted turned by 90°: device x = sensor y, device y = sensor x. The
        // chip reads -9.81 on its own x: after the matrix that is y = -9.81, upright portrait.
        try testbed.add(
            "iio:device0", attributes: accelerometerAttributes(raw: (-981, 0, 0)),
            properties: ["ACCEL_MOUNT_MATRIX": "0, 1, 0; 1, 0, 0; 0, 0, 1"])
        let daemon = try DaemonHarness(sensors: testbed)
        // Without the matrix the same chip would read landscape.
        try waitForDeviceOrientation(daemon, "portrait")
    }

    @Test("P1–P4: a live hinge drives posture events; removing it stops them without harm, re-adding resumes")
    func hingeDrivesPosture() throws {
        let testbed = try IIOTestbed()
        let hinge = try testbed.add("iio:device1", attributes: ["name": "cros-ec-lid-angle", "in_angl_raw": "20"])
        let daemon = try DaemonHarness(arguments: ["--profile", "foldable"], sensors: testbed)
        try daemon.waitForIIOState("hinge iio:device1")
        let (app, _) = try daemon.app("com.example.reader")
        _ = try app.call(Method.postureStart)
        // The first decision may have come before the app subscribed: read it from status.
        let first = try #require(try daemon.control().call(Method.status)["posture"])
        #expect(first["state"] == "closed" && first["previous"] == .null)

        try testbed.set(hinge, ["in_angl_raw": "95"])
        let opened = try event(app, Event.posture, "halfOpened") { $0["state"] == "halfOpened" }
        #expect(opened["previous"] == "closed" && opened["hingeAngle"]?.doubleValue == 95 && opened["fold"] == "vertical")
        try testbed.set(hinge, ["in_angl_raw": "170"])
        #expect(try event(app, Event.posture, "flat") { $0["state"] == "flat" }["previous"] == "halfOpened")

        try testbed.remove(hinge)
        try daemon.waitForIIOState("no sensors")
        #expect(try daemon.control().call(Method.status)["posture"]?["state"] == "flat", "the last decision is kept")

        try testbed.add("iio:device1", attributes: ["name": "cros-ec-lid-angle", "in_angl_raw": "60"])
        try daemon.waitForIIOState("hinge iio:device1")
        let back = try event(app, Event.posture, "halfOpened after re-adding") { $0["state"] == "halfOpened" }
        #expect(back["previous"] == "flat" && back["hingeAngle"]?.doubleValue == 60)
    }

    @Test("O4a: a value held by hand outranks the live sensor; released, the sensor is heard again")
    func manualHoldOutranksLiveSensor() throws {
        let testbed = try IIOTestbed()
        try testbed.add("iio:device0", attributes: accelerometerAttributes(raw: (0, -981, 0)))  // portrait
        let daemon = try DaemonHarness(sensors: testbed)
        try waitForDeviceOrientation(daemon, "portrait")
        let (app, _) = try daemon.app("com.example.game")
        _ = try app.call(Method.orientationStart)

        #expect(try daemon.ctl(["rotate", "landscapeLeft"]).status == 0)
        #expect(try event(app, Event.deviceOrientation, "landscapeLeft by hand")["orientation"] == "landscapeLeft")
        // The sensor still reads portrait 50 times a second; held for a while, nothing moves.
        _ = try daemon.recordUntil("a second of samples while held", window: 1.0) { $0.accelerations.count >= 40 }
        _ = try app.call(Method.authorizationGet)
        #expect(try app.takeEvents().allSatisfy { $0.method != Event.deviceOrientation })
        #expect(try daemon.control().call(Method.status)["deviceOrientation"] == "landscapeLeft")

        #expect(try daemon.ctl(["accel", "release"]).status == 0)
        let back = try event(app, Event.deviceOrientation, "portrait from the sensor after the release")
        #expect(back["orientation"] == "portrait" && back["previous"] == "landscapeLeft")
    }
}
