import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// The rest of the device's motion in Chromium through the bridge (issue 40.7): the fused
/// attitude as `deviceorientation` and the generic orientation sensors, `devicemotion`'s
/// `acceleration` with the generic linear acceleration and gravity, the ambient light, and
/// the bridge hearing them only while a page is there. Every expected number is worked out
/// here from what is held by hand. Part of `ChromiumBridgeTests`, so that one browser runs
/// at a time.
extension ChromiumBridgeTests {
    static let g = 9.80665
    /// The device held with its top raised 30° from lying face up (W3C's beta 30): its up,
    /// in its own axes.
    static let tiltedUp = (x: 0.0, y: sin(30 * Double.pi / 180), z: cos(30 * Double.pi / 180))

    /// A daemon holding `held` by hand, a browser and the bridge; the page opened once the
    /// bridge says it has the gyroscope (a page reads which sensors it has as it loads).
    private func pageWithGyroscope(_ held: [String: JSONValue]) throws -> (DaemonHarness, ChromiumProcess, BrowserBridgeHarness) {
        let daemon = try DaemonHarness()
        _ = try daemon.control().call(Method.deviceSet, .object(held))
        let browser = try ChromiumProcess(port: try freeLoopbackPort(), directory: daemon.directory)
        let harness = try BrowserBridgeHarness(daemon: daemon, app: Self.app, port: browser.port)
        try harness.waitForConnections(1)
        try harness.bridge.waitForOutput(timeout: 60, "say the gyroscope reaches pages") { output in
            output.contains("sextant-browser: the device's gyroscope reaches the pages loaded from now on") ? () : nil
        }
        try browser.open(harness.pageURL)
        return (daemon, browser, harness)
    }

    static func vector(_ k: Double, _ v: (x: Double, y: Double, z: Double)) -> JSONValue {
        ["x": .double(k * v.x), "y": .double(k * v.y), "z": .double(k * v.z)]
    }

    static func numbers(_ report: JSONValue, _ keys: [String]) -> [Double] { keys.map { report[$0]?.doubleValue ?? .nan } }

    @Test("issue 40.7: with a gyroscope, deviceorientation and RelativeOrientationSensor are the fused attitude (tilted 30°, turning counter-clockwise about up); the absolute orientation is its tilt turned to the compass heading")
    func attitudeReachesThePage() throws {
        // 0.2 rad/s about the device's own up: the device turns about the vertical, its tilt kept.
        let (daemon, browser, harness) = try pageWithGyroscope([
            "acceleration": Self.vector(Self.g, Self.tiltedUp), "rotationRate": Self.vector(0.2, Self.tiltedUp),
        ])
        // W3C's Z-X'-Y'' angles of this attitude: alpha turning, beta 30, gamma 0. Chromium
        // rounds the event's angles to 0.1°.
        let turning = try harness.waitForReports("see deviceorientation turn through 8 degrees") { reports -> [JSONValue]? in
            let seen = reports.filter { $0["kind"] == "orientation" && $0["beta"]?.doubleValue.map { abs($0 - 30) < 1 } == true }
            return seen.count >= 8 ? seen : nil
        }
        for report in turning {
            let (beta, gamma) = (report["beta"]?.doubleValue ?? .nan, report["gamma"]?.doubleValue ?? .nan)
            #expect(abs(beta - 30) <= 0.11 && abs(gamma) <= 0.11, "\(report)")
        }
        // Counter-clockwise seen from above is alpha growing (each report a whole degree on).
        let alphas = turning.compactMap { $0["alpha"]?.doubleValue }
        let steps = zip(alphas, alphas.dropFirst()).map { ($1 - $0 + 360).truncatingRemainder(dividingBy: 360) }
        #expect(steps.allSatisfy { $0 > 0 && $0 < 90 }, "alpha does not grow: \(alphas)")
        // z(alpha)·x(30°) as a quaternion: x²+y² = sin²15°, and x·z = y·w whatever alpha (either sign).
        let relative = try harness.waitForReports("read RelativeOrientationSensor") { reports in
            reports.last { $0["kind"] == "relative" }?["values"]?.arrayValue?.compactMap(\.doubleValue)
        }
        let s15 = sin(15 * Double.pi / 180)
        #expect(relative.count == 4, "\(relative)")
        if relative.count == 4 {
            let (x, y, z, w) = (relative[0], relative[1], relative[2], relative[3])
            #expect(abs(x * x + y * y - s15 * s15) < 0.002 && abs(x * z - y * w) < 0.002, "\(relative)")
        }
        #expect(!harness.reports().contains { $0["kind"] == "quaternion" }, "an absolute orientation before any heading")

        // A compass by hand at 200°: the absolute alpha is 360 − 200 = 160, the tilt the attitude's.
        _ = try daemon.control().call(Method.deviceSet, ["heading": ["magnetic": 200]])
        let absolute = try harness.waitForReports("see deviceorientationabsolute at alpha 160") { reports in
            reports.last { $0["kind"] == "absolute" && $0["alpha"]?.doubleValue.map { abs($0 - 160) < 0.11 } == true }
        }
        #expect(abs((absolute["beta"]?.doubleValue ?? .nan) - 30) <= 0.11 && abs(absolute["gamma"]?.doubleValue ?? .nan) <= 0.11, "\(absolute)")
        // z(160°)·x(30°), half angles 80° and 15°.
        let (a, b) = (80 * Double.pi / 180, 15 * Double.pi / 180)
        let expected = [cos(a) * sin(b), sin(a) * sin(b), sin(a) * cos(b), cos(a) * cos(b)]
        _ = try harness.waitForReports("read AbsoluteOrientationSensor \(expected)") { reports in
            reports.last { $0["kind"] == "quaternion" }.flatMap { report -> Void? in
                let q = report["values"]?.arrayValue?.compactMap(\.doubleValue) ?? []
                let same = { (sign: Double) in q.count == 4 && zip(q, expected).allSatisfy { abs($0 - sign * $1) < 0.002 } }
                return same(1) || same(-1) ? () : nil
            }
        }
        withExtendedLifetime(browser) {}
    }

    @Test("issue 40.7: with a gyroscope, devicemotion's acceleration is the accelerometer less the fusion's gravity, accelerationIncludingGravity their sum; LinearAccelerationSensor and GravitySensor read the two parts")
    func accelerationReachesThePage() throws {
        // 2 m/s² more than gravity along the tilted device's up: the direction is gravity's,
        // so the fusion keeps its tilt and the rest is the user's acceleration.
        let (daemon, browser, harness) = try pageWithGyroscope([
            "acceleration": Self.vector(Self.g + 2, Self.tiltedUp), "rotationRate": ["x": 0, "y": 0, "z": 0],
        ])
        let up = Self.tiltedUp
        let (linear, gravity) = ([2 * up.x, 2 * up.y, 2 * up.z], [Self.g * up.x, Self.g * up.y, Self.g * up.z])
        let including = zip(linear, gravity).map { $0 + $1 }
        // W3C's DeviceMotionEvent and Chromium's motion sensors round to 0.1 m/s².
        func close(_ seen: [Double], _ expected: [Double]) -> Bool { seen.count == 3 && zip(seen, expected).allSatisfy { abs($0 - $1) <= 0.06 } }
        let motion = try harness.waitForReports("see devicemotion's acceleration \(linear)") { reports in
            reports.last { $0["kind"] == "motion" && close(Self.numbers($0, ["accelerationX", "accelerationY", "accelerationZ"]), linear) }
        }
        #expect(close(Self.numbers(motion, ["x", "y", "z"]), including), "\(motion) is not \(including) with gravity")
        #expect(Self.numbers(motion, ["rotationRate", "rotationRateBeta", "rotationRateGamma"]) == [0, 0, 0], "\(motion)")
        for (kind, expected) in [("linear", linear), ("gravity", gravity)] {
            _ = try harness.waitForReports("read the generic \(kind) sensor \(expected)") { reports in
                reports.last { $0["kind"] == .string(kind) }.flatMap { close($0["values"]?.arrayValue?.compactMap(\.doubleValue) ?? [], expected) ? () : nil }
            }
        }
        withExtendedLifetime((daemon, browser)) {}
    }

    @Test("issue 40.7: the ambient light reaches the generic AmbientLightSensor of a Chromium the bridge launched (its two feature flags), in Chromium's 50 lux steps")
    func ambientLightReachesThePage() throws {
        let daemon = try DaemonHarness()
        let control = try daemon.control()
        _ = try control.call(Method.deviceSet, ["light": 1234])
        let harness = try BrowserBridgeHarness(daemon: daemon, app: Self.app, address: nil)
        // Chromium gives pages the nearest multiple of 50 lux (its fingerprinting mitigation).
        for (lux, seen) in [(1234.0, (1234.0 / 50).rounded() * 50), (321.0, (321.0 / 50).rounded() * 50)] {
            _ = try control.call(Method.deviceSet, ["light": .double(lux)])
            _ = try harness.waitForReports("read AmbientLightSensor \(seen) lux") { reports in
                reports.last { $0["kind"] == "light" }?["values"]?.arrayValue?.compactMap(\.doubleValue) == [seen] ? () : nil
            }
        }
        #expect(!harness.reports().contains { $0["kind"] == "lightError" }, "\(harness.reports())")
        withExtendedLifetime(daemon) {}
    }

    @Test("issue 40.7: the bridge hears the device's motion only while a page is attached: Sextant fuses nothing for a bridge without a browser (D6: status deviceMotion null)")
    func motionHeardOnlyWithAPage() throws {
        let daemon = try DaemonHarness()
        let control = try daemon.control()
        _ = try control.call(Method.deviceSet, ["acceleration": ["x": 0, "y": 0, "z": .double(Self.g)], "rotationRate": ["x": 0, "y": 0, "z": 0.1]])
        let port = try freeLoopbackPort()
        let harness = try BrowserBridgeHarness(daemon: daemon, app: Self.app, port: port)
        try harness.bridge.waitForOutput(timeout: 30, "say its session") { $0.contains("sextant-browser: \(Self.app) is session") ? () : nil }
        // Its session is open and no browser is there: nobody hears the motion.
        #expect(try control.call(Method.status)["deviceMotion"] == .null)
        let browser = try ChromiumProcess(port: port, directory: daemon.directory)
        try harness.bridge.waitForOutput(timeout: 60, "hear the motion once the browser's first page is attached") {
            $0.contains("sextant-browser: hearing the device's motion and light") ? () : nil
        }
        try poll(timeout: 30, every: 0.05, failure: { "status never showed the fused motion" }) {
            try control.call(Method.status)["deviceMotion"] == .null ? nil : ()
        }
        browser.stop()
        try harness.bridge.waitForOutput(timeout: 60, "stop hearing once the browser is gone") {
            $0.contains("sextant-browser: no longer hearing the device's motion and light") ? () : nil
        }
        try poll(timeout: 30, every: 0.05, failure: { "status still shows the fused motion" }) {
            try control.call(Method.status)["deviceMotion"] == .null ? () : nil
        }
        withExtendedLifetime(harness) {}
    }
}
