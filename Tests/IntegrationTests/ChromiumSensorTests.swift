import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// `screen.orientation` and `devicemotion` in Chromium, read from the page (docs/browsers.md).
/// Part of `ChromiumBridgeTests`, so that one browser runs at a time.
extension ChromiumBridgeTests {
    /// A daemon, a browser, the bridge and the reporter's page, no location decision (none
    /// of this needs one).
    private func page() throws -> (DaemonHarness, ChromiumProcess, BrowserBridgeHarness) {
        try openPage()
    }

    @Test("O6 O7: after each rotation the page's screen.orientation (type, angle, change event) is the app's interface orientation")
    func screenFollowsInterfaceOrientation() throws {
        let (daemon, browser, harness) = try page()
        let watch = try daemon.control()
        _ = try watch.call(Method.watch, ["topics": ["interfaceOrientation"]])
        _ = try harness.waitForReports("show portrait at launch (O6)") {
            $0.first { $0["kind"] == "screen" && $0["type"] == "portrait-primary" && $0["angle"] == 0 }
        }
        let g = 9.80665
        // Device landscapeLeft goes with interface landscapeRight, device landscapeRight with
        // interface landscapeLeft (RULES "Interface orientation"); W3C's angle counts the
        // screen's turn counter-clockwise, as Android reports it.
        let turns: [(x: Double, y: Double, interface: String, type: String, angle: Int64)] = [
            (g, 0, "landscapeRight", "landscape-primary", 90), (-g, 0, "landscapeLeft", "landscape-secondary", 270),
            (0, g, "portrait", "portrait-primary", 0),
        ]
        for turn in turns {
            _ = try daemon.control().call(Method.deviceSet, ["acceleration": ["x": .double(turn.x), "y": .double(turn.y), "z": 0]])
            let decided = try watch.nextEvent(timeout: 30, description: "the app's interface orientation") {
                $0.method == Event.interfaceOrientation && $0.params["app"] == .string(Self.app)
            }
            #expect(decided.params["orientation"] == .string(turn.interface), "\(decided.params)")
            // Typed: a bare `nil` here would be JSONValue's null literal, found at once.
            let seen = try harness.waitForReports("show \(turn.type)") { reports -> JSONValue? in
                guard let last = reports.last(where: { $0["kind"] == "screen" }), last["type"] == .string(turn.type) else { return nil }
                return last
            }
            #expect(seen["angle"] == .int(turn.angle) && seen["change"] == true, "\(seen)")
            let landscape = turn.type.hasPrefix("landscape")
            #expect(seen["width"] == (landscape ? 844 : 390) && seen["height"] == (landscape ? 390 : 844), "\(seen)")
        }
        _ = browser
    }

    @Test("M1: the page's devicemotion accelerationIncludingGravity is each replayed accelerometer sample, W3C's signs being Sextant's")
    func devicemotionFollowsTheAccelerometer() throws {
        let (daemon, browser, harness) = try page()
        _ = try harness.waitForReports("load") { $0.contains { $0["kind"] == "loaded" } ? () : nil }
        // Upright in portrait, leaning, face up, face down, turned on its left side: held 0.4 s each.
        let samples: [(x: Double, y: Double, z: Double)] = [
            (0, 9.80665, 0), (0.5, 9.21, 3.18), (0, 0, 9.80665), (0, 0, -9.80665), (9.80665, 0, 0),
        ]
        // What the page is given: W3C's DeviceMotionEvent rounds each axis to 0.1 m/s² (its
        // fingerprinting mitigation), Chromium with it.
        let rounded: [[Double?]] = [[0, 9.8, 0], [0.5, 9.2, 3.2], [0, 0, 9.8], [0, 0, -9.8], [9.8, 0, 0]]
        var trace = [#"{"sextant":"trace","version":1,"start":"2026-03-01T08:00:00.000Z"}"#]
        for (index, sample) in samples.enumerated() {
            trace.append(#"{"t":\#(Double(index) * 0.4),"accel":{"x":\#(sample.x),"y":\#(sample.y),"z":\#(sample.z)}}"#)
        }
        try daemon.replay("accel.jsonl", trace.joined(separator: "\n") + "\n")
        let motions = try harness.waitForReports("see the last sample") { reports -> [JSONValue]? in
            let motions = reports.filter { $0["kind"] == "motion" }
            return motions.last?["x"]?.doubleValue == rounded.last![0] ? motions : nil
        }
        let seen = motions.map { [$0["x"]?.doubleValue, $0["y"]?.doubleValue, $0["z"]?.doubleValue] }
        let close = seen.count == rounded.count && zip(seen, rounded).allSatisfy { pair in
            zip(pair.0, pair.1).allSatisfy { abs(($0 ?? .nan) - ($1 ?? .nan)) < 1e-9 }
        }
        #expect(close, "\(seen) is not \(rounded)")
        // Sextant has no linear acceleration nor gyroscope: null, as on a phone without them.
        #expect(motions.allSatisfy { $0["acceleration"] == .null && $0["rotationRate"] == .null }, "\(motions)")
        _ = browser
    }

    @Test("H2 O1: deviceorientation, deviceorientationabsolute and the generic AbsoluteOrientationSensor follow the compass and the device held upright; the generic Accelerometer reads the accelerometer")
    func orientationFollowsTheCompass() throws {
        let (daemon, browser, harness) = try page()
        let control = try daemon.control()
        _ = try control.call(Method.deviceSet, ["acceleration": ["x": 0, "y": 9.80665, "z": 0]])
        _ = try harness.waitForReports("see the device upright (beta 90)") {
            $0.first { $0["kind"] == "orientation" && $0["beta"]?.doubleValue == 90 && $0["alpha"]?.doubleValue == 0 }
        }
        let accelerometer = try harness.waitForReports("read the generic Accelerometer") { reports -> [Double]? in
            let values = reports.last { $0["kind"] == "accelerometer" }?["values"]?.arrayValue?.compactMap(\.doubleValue)
            return values.flatMap { abs($0[1] - 9.8) < 0.05 ? $0 : nil }
        }
        #expect(abs(accelerometer[0]) < 0.05 && abs(accelerometer[2]) < 0.05, "\(accelerometer)")
        // Before a heading there is no absolute orientation: no reading, no angles.
        #expect(!harness.reports().contains { $0["kind"] == "quaternion" || ($0["kind"] == "absolute" && $0["alpha"] != .null) }, "\(harness.reports())")

        // W3C's alpha = 360 − heading; the quaternions worked by hand from z(alpha)·x(90°).
        let half = 0.5.squareRoot()
        let turns: [(heading: Double, alpha: Double, quaternion: [Double])] = [
            (90, 270, [-0.5, 0.5, 0.5, -0.5]), (180, 180, [0, half, half, 0]),
        ]
        func close(_ a: JSONValue?, _ b: Double) -> Bool { abs((a?.doubleValue ?? .nan) - b) < 0.1 }
        for turn in turns {
            _ = try control.call(Method.deviceSet, ["heading": ["magnetic": .double(turn.heading)]])
            for kind in ["orientation", "absolute"] {
                _ = try harness.waitForReports("show \(kind) alpha \(turn.alpha)") { reports in
                    reports.last { $0["kind"] == .string(kind) }.flatMap {
                        close($0["alpha"], turn.alpha) && close($0["beta"], 90) && close($0["gamma"], 0) ? () : nil
                    }
                }
            }
            // A quaternion and its negation are the same rotation.
            _ = try harness.waitForReports("read the quaternion \(turn.quaternion)") { reports in
                reports.last { $0["kind"] == "quaternion" }.flatMap { report -> Void? in
                    let q = report["values"]?.arrayValue?.compactMap(\.doubleValue) ?? []
                    let same = { (sign: Double) in q.count == 4 && zip(q, turn.quaternion).allSatisfy { abs($0 - sign * $1) < 0.002 } }
                    return same(1) || same(-1) ? () : nil
                }
            }
        }
        withExtendedLifetime(browser) {}
    }
}
