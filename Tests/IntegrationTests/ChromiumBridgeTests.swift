import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// A web page in Debian's Chromium, headless, made one of Sextant's apps by the bridge
/// (`sextantctl browser`, docs/browsers.md): what the page gets is read back from the page.
@Suite("Chromium through DevTools (issue 26.1, 26.4)", .serialized, .requires(Chromium.requirement))
struct ChromiumBridgeTests {
    static let app = "org.example.web"

    /// `count` positions east along 48°N from `longitude`, 0.0005° (37 m) a step.
    static func walk(from longitude: Double, count: Int) -> [(lat: Double, lon: Double)] {
        (0..<count).map { (lat: 48.0, lon: longitude + Double($0) * 0.0005) }
    }

    static let extras = #","hAcc":4,"alt":35,"vAcc":3,"speed":1.5,"course":90"#

    /// A daemon, a headless Chromium, the bridge attached to it and the reporter's page
    /// opened in it: the app given `authorization` first when there is one, and the page
    /// waited for until it reports the geolocation permission `state` when there is one.
    func openPage(
        authorization: String? = nil, until state: JSONValue? = nil, daemonArguments: [String] = []
    ) throws -> (DaemonHarness, ChromiumProcess, BrowserBridgeHarness) {
        let daemon = try DaemonHarness(arguments: daemonArguments)
        if let authorization { try daemon.setPermission(Self.app, authorization) }
        let browser = try ChromiumProcess(port: try freeLoopbackPort(), directory: daemon.directory)
        let harness = try BrowserBridgeHarness(daemon: daemon, app: Self.app, port: browser.port)
        try harness.waitForConnections(1)
        try browser.open(harness.pageURL)
        if let state {
            _ = try harness.waitForReports("see the permission \(state)") { $0.contains { $0["state"] == state } ? () : nil }
        }
        return (daemon, browser, harness)
    }

    @Test("L9: the page receives the walk with its altitude, heading and speed, and nothing after a revoke")
    func pageFollowsTheRules() throws {
        let (daemon, browser, harness) = try openPage(authorization: "authorizedWhenInUse", until: "granted")

        let granted = Self.walk(from: 2.35, count: 12)
        try daemon.replay("granted.jsonl", geoclueTrace(granted, step: 0.25, extras: Self.extras))
        let received = try harness.waitForReports("receive the walk's last position") { reports in
            reports.contains { $0["lon"]?.doubleValue == granted.last!.lon } ? reports.filter { $0["kind"] == "position" } : nil
        }
        // Every fix of the walk, in order, with the trace's values; none other.
        #expect(received.compactMap { $0["lon"]?.doubleValue } == granted.map(\.lon), "\(received)")
        let expected: [String: JSONValue] = ["lat": 48, "accuracy": 4, "altitude": 35, "altitudeAccuracy": 3, "speed": 1.5, "heading": 90]
        for (key, value) in expected {
            #expect(received.allSatisfy { $0[key] == value }, "\(key): \(received.map { $0[key] ?? .null })")
        }

        // Revoked: the page is denied, and the walk replayed meanwhile never reaches it (L9).
        try daemon.setPermission(Self.app, "denied")
        _ = try harness.waitForReports("see the permission denied") { $0.contains { $0["state"] == "denied" } ? () : nil }
        try daemon.replay("revoked.jsonl", geoclueTrace(Self.walk(from: 3.35, count: 8), step: 0.1, extras: Self.extras), speed: "max")
        try daemon.waitForStatus("the revoked walk to end") { $0["replay"]?["state"] == "finished" }

        // Nothing of the revoked walk reached the page.
        #expect(harness.positions().count == granted.count, "\(harness.positions())")
        withExtendedLifetime(browser) {}
    }

    @Test("L10: an app with reduced accuracy gives the page the 2 km cell app.sock gives it, without altitude, speed or heading")
    func reducedAccuracyGivesTheCell() throws {
        let daemon = try DaemonHarness()
        _ = try daemon.control().call(Method.permissionsSet, ["app": .string(Self.app), "status": "authorizedWhenInUse", "accuracy": "reduced"])
        let browser = try ChromiumProcess(port: try freeLoopbackPort(), directory: daemon.directory)
        let harness = try BrowserBridgeHarness(daemon: daemon, app: Self.app, port: browser.port)
        try harness.waitForConnections(1)
        // What app.sock gives the app, from the control side's watch, beside what the page gets.
        let watch = try daemon.control()
        _ = try watch.call(Method.watch, ["topics": ["location"]])
        try browser.open(harness.pageURL)
        _ = try harness.waitForReports("see the permission granted") { $0.contains { $0["state"] == "granted" } ? () : nil }

        try daemon.replay("walk.jsonl", geoclueTrace(Self.walk(from: 2.35, count: 3), step: 0.25, extras: Self.extras))
        let event = try watch.nextEvent(timeout: 30, description: "the app's location") { $0.method == Event.location && $0.params["app"] == .string(Self.app) }
        let page = try harness.waitForReports("receive a position") { $0.first { $0["kind"] == "position" } }
        #expect(page["lat"] == event.params["lat"] && page["lon"] == event.params["lon"], "page \(page), app.sock \(event.params)")
        #expect((page["accuracy"]?.doubleValue ?? 0) >= 2000, "\(page)")
        #expect(page["altitude"] == .null && page["speed"] == .null && page["heading"] == .null, "\(page)")
        #expect(page["lon"]?.doubleValue != 2.35, "the true position reached the page: \(page)")
    }

    @Test("The bridge survives a page reload and the browser's restart at the same address: the page is served again")
    func survivesReloadAndRestart() throws {
        let daemon = try DaemonHarness()
        try daemon.setPermission(Self.app, "authorizedWhenInUse")
        let port = try freeLoopbackPort()
        var browser = try ChromiumProcess(port: port, directory: daemon.directory)
        let harness = try BrowserBridgeHarness(daemon: daemon, app: Self.app, port: port)
        try harness.waitForConnections(1)
        try browser.open(harness.pageURL + "?reload=2")

        // A walk long enough to go on after the page reloaded itself at its second position.
        let first = Self.walk(from: 2.35, count: 40)
        try daemon.replay("first.jsonl", geoclueTrace(first, step: 0.25, extras: Self.extras))
        let afterReload = try harness.waitForReports("receive positions after its reload") { reports -> Int? in
            guard let reload = reports.lastIndex(where: { $0["kind"] == "loaded" }), reload > 0 else { return nil }
            return reports[reload...].contains { $0["kind"] == "position" } ? reports.count : nil
        }
        #expect(afterReload > 0)
        _ = try daemon.control().call(Method.replayStop)

        // The browser goes away and another comes up at the same address.
        browser.stop()
        browser = try ChromiumProcess(port: port, directory: daemon.directory, name: "chromium-again")
        try harness.waitForConnections(2)
        try harness.replaceReporter()
        try browser.open(harness.pageURL)
        let second = Self.walk(from: 5.35, count: 6)
        try daemon.replay("second.jsonl", geoclueTrace(second, step: 0.25, extras: Self.extras))
        let received = try harness.waitForReports("receive the second walk in the new browser") { reports in
            reports.contains { $0["lon"]?.doubleValue == second.last!.lon } ? reports.filter { $0["kind"] == "position" } : nil
        }
        #expect(received.allSatisfy { $0["lat"] == 48 && $0["altitude"] == 35 }, "\(received)")
    }
}
