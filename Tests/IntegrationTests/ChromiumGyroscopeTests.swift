import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// The gyroscope in Chromium through the bridge (issue 40.7): the generic `Gyroscope` and
/// `devicemotion`'s `rotationRate`, read from the page. Part of `ChromiumBridgeTests`, so
/// that one browser runs at a time.
extension ChromiumBridgeTests {
    @Test("issue 40.7: a rate held by hand reaches the page's generic Gyroscope in rad/s and devicemotion's rotationRate in °/s (Chromium: alpha about x, beta y, gamma z)")
    func gyroscopeReachesThePage() throws {
        let daemon = try DaemonHarness()
        let control = try daemon.control()
        _ = try control.call(Method.deviceSet, ["acceleration": ["x": 0, "y": 0, "z": 9.80665], "rotationRate": ["x": 0, "y": 0, "z": 1.5708]])
        let browser = try ChromiumProcess(port: try freeLoopbackPort(), directory: daemon.directory)
        let harness = try BrowserBridgeHarness(daemon: daemon, app: Self.app, port: browser.port)
        try harness.waitForConnections(1)
        // Chromium reads a page's gyroscope override from its load on: the page is opened
        // once the bridge says it has the device's first rate.
        try harness.bridge.waitForOutput(timeout: 60, "say the gyroscope reaches pages") { output in
            output.contains("sextant-browser: the device's gyroscope reaches the pages loaded from now on") ? () : nil
        }
        try browser.open(harness.pageURL)
        let gyroscope = try harness.waitForReports("read the generic Gyroscope") { reports -> [Double]? in
            let values = reports.last { $0["kind"] == "gyroscope" }?["values"]?.arrayValue?.compactMap(\.doubleValue)
            return values.flatMap { $0.count == 3 && abs($0[2] - 1.5708) < 0.001 ? $0 : nil }
        }
        #expect(abs(gyroscope[0]) < 1e-9 && abs(gyroscope[1]) < 1e-9, "\(gyroscope)")
        let motion = try harness.waitForReports("see devicemotion's rotationRate") { reports in
            reports.last { $0["kind"] == "motion" && $0["rotationRateGamma"]?.doubleValue != nil }
        }
        // 1.5708 rad/s is 90.0°/s; W3C's DeviceMotionEvent rounds rates to 0.1°/s. Chromium
        // fills alpha, beta, gamma from the gyroscope's x, y, z in that order.
        #expect(abs((motion["rotationRateGamma"]?.doubleValue ?? .nan) - 90) < 0.051, "\(motion)")
        #expect(motion["rotationRate"] == 0 && motion["rotationRateBeta"] == 0, "\(motion)")
        #expect(!harness.reports().contains { $0["kind"] == "gyroscopeError" }, "\(harness.reports())")
        withExtendedLifetime(browser) {}
    }
}
