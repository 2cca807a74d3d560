import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// Pages the bridge did not open and did not see come (issue 42.2–42.4): a page in a browser
/// context a test framework made, a page open before the bridge, and the time a page's
/// position carries. Part of `ChromiumBridgeTests`, so that one browser runs at a time.
extension ChromiumBridgeTests {
    /// Playwright from PyPI, installed by Tools/ci/setup-pypi-web-clients.sh (no browser of its own).
    static let playwrightPython = Repository.root + "/.build/pypi-web-clients/bin/python3"

    /// A daemon giving the app `authorization`, a headless Chromium and the bridge on it, connected.
    func bridgeOnBrowser(authorization: String? = "authorizedWhenInUse", arguments: [String] = [], beforeBridge: (ChromiumProcess, String, ClientProcess) throws -> Void = { _, _, _ in }) throws -> (
        DaemonHarness, ChromiumProcess, BrowserBridgeHarness
    ) {
        let daemon = try DaemonHarness()
        if let authorization { try daemon.setPermission(Self.app, authorization) }
        let browser = try ChromiumProcess(port: try freeLoopbackPort(), directory: daemon.directory)
        let harness = try BrowserBridgeHarness(
            daemon: daemon, app: Self.app, address: "http://127.0.0.1:\(browser.port)", arguments: arguments,
            beforeBridge: { try beforeBridge(browser, $0, $1) })
        try harness.waitForConnections(1)
        return (daemon, browser, harness)
    }

    /// Replays a walk and waits for the page to report its last position; the positions.
    func pageFollows(_ daemon: DaemonHarness, _ harness: BrowserBridgeHarness, from longitude: Double) throws -> [JSONValue] {
        let walk = Self.walk(from: longitude, count: 6)
        try daemon.replay("walk.jsonl", geoclueTrace(walk, step: 0.25, extras: Self.extras))
        let received = try harness.waitForReports("receive the walk's last position") { reports in
            reports.contains { $0["lon"]?.doubleValue == walk.last!.lon } ? reports.filter { $0["kind"] == "position" } : nil
        }
        // Positions before the walk (west of it) are not the walk's.
        #expect(received.compactMap { $0["lon"]?.doubleValue }.filter { $0 >= longitude } == walk.map(\.lon), "\(received)")
        return received
    }

    @Test("42.2: a page in a browser context made through plain CDP (Target.createBrowserContext, createTarget in it) gets the walk")
    func plainCDPContextPage() throws {
        let (daemon, browser, harness) = try bridgeOnBrowser()
        let framework = try openInNewContext(daemon, browser, harness)
        _ = try harness.waitForReports("see the permission granted") { $0.contains { $0["state"] == "granted" } ? () : nil }
        _ = try pageFollows(daemon, harness, from: 2.35)
        withExtendedLifetime(framework) {}
    }

    /// Opens the reporter's page in a context of its own through plain CDP; the process
    /// holding the context.
    func openInNewContext(_ daemon: DaemonHarness, _ browser: ChromiumProcess, _ harness: BrowserBridgeHarness) throws -> ClientProcess {
        let script = Repository.root + "/Tools/dev/cdp-context-page.py"
        let framework = try ClientProcess(
            ["/usr/bin/python3", script, "http://127.0.0.1:\(browser.port)", harness.pageURL], directory: daemon.directory, name: "cdp-context")
        let made = try framework.waitForOutput(timeout: 30, "make its context and page") { output in
            output.split(separator: "\n").first.flatMap { try? JSONValue.parse(String($0)) }
        }
        #expect(made["context"]?.stringValue?.isEmpty == false, "\(made)")
        return framework
    }

    @Test("42.2: in a context of its own a page asking while notDetermined raises Sextant's prompt, is granted by it, and denied by a revoke")
    func contextPageUnderThePrompt() throws {
        let (daemon, browser, harness) = try bridgeOnBrowser(authorization: nil)
        let framework = try openInNewContext(daemon, browser, harness)
        _ = try harness.waitForReports("see the permission prompt") { $0.contains { $0["state"] == "prompt" } ? () : nil }
        let control = try daemon.control()
        let prompt = try poll(timeout: 30, every: 0.05, failure: { "no prompt for \(Self.app); the page said \(harness.reports())" }) {
            try control.call(Method.promptsList).arrayValue?.first { $0["app"] == .string(Self.app) }
        }
        #expect(!harness.reports().contains { $0["kind"] == "error" }, "the page's request did not wait: \(harness.reports())")
        _ = try control.call(Method.promptsAnswer, ["id": prompt["id"]!, "choice": "allowWhileUsing"])
        _ = try harness.waitForReports("see the permission granted") { $0.contains { $0["state"] == "granted" } ? () : nil }
        _ = try pageFollows(daemon, harness, from: 2.35)
        try daemon.setPermission(Self.app, "denied")
        _ = try harness.waitForReports("see the permission denied") { $0.contains { $0["state"] == "denied" } ? () : nil }
        withExtendedLifetime(framework) {}
    }

    @Test(
        "42.2: a page of Playwright's browser.new_context() (connect_over_cdp to Debian's Chromium) gets the walk",
        .enabled(if: FileManager.default.isExecutableFile(atPath: ChromiumBridgeTests.playwrightPython), "needs Playwright (bash Tools/ci/setup-pypi-web-clients.sh)"))
    func playwrightContextPage() throws {
        let (daemon, browser, harness) = try bridgeOnBrowser()
        let script = Repository.root + "/Tools/dev/playwright-context-page.py"
        let framework = try ClientProcess(
            [Self.playwrightPython, script, "http://127.0.0.1:\(browser.port)", harness.pageURL], directory: daemon.directory, name: "playwright")
        _ = try framework.waitForOutput(timeout: 60, "open its page") { $0.contains(#""opened""#) ? () : nil }
        _ = try harness.waitForReports("see the permission granted") { $0.contains { $0["state"] == "granted" } ? () : nil }
        _ = try pageFollows(daemon, harness, from: 2.35)
        withExtendedLifetime(framework) {}
    }

    /// Opens the page before any bridge: Chromium alone answers its watch ("User denied
    /// Geolocation", headless), and the page does not ask again.
    static func refusedBeforeTheBridge(_ browser: ChromiumProcess, _ page: String, _ reporter: ClientProcess) throws {
        try browser.open(page)
        try reporter.waitForOutput(timeout: 30, "report Chromium's refusal") { $0.contains("User denied Geolocation") ? () : nil }
    }

    @Test("42.3: a page open before the bridge, refused by Chromium, is reloaded (said on the bridge's output) and gets the walk")
    func pageOpenBeforeTheBridge() throws {
        let (daemon, browser, harness) = try bridgeOnBrowser { browser, page, reporter in
            try Self.refusedBeforeTheBridge(browser, page, reporter)
        }
        try harness.bridge.waitForOutput(timeout: 30, "say it reloaded the page") { $0.contains("sextant-browser: reloaded \(harness.pageURL)") ? () : nil }
        // The reloaded document is live once a position has reached it: until then a walk
        // would reach it from the latest fix at that moment, not from its first.
        try daemon.replay("prelude.jsonl", geoclueTrace(Self.walk(from: 2.30, count: 1), step: 0.25, extras: Self.extras))
        _ = try harness.waitForReports("receive a position after the reload") { reports in
            reports.contains { $0["kind"] == "position" && $0["lon"]?.doubleValue == 2.30 } ? () : nil
        }
        _ = try pageFollows(daemon, harness, from: 2.35)
        withExtendedLifetime(browser) {}
    }

    @Test("42.3: --no-reload-open-pages leaves a page open before the bridge as it was, and says so")
    func openPageLeft() throws {
        let (daemon, browser, harness) = try bridgeOnBrowser(arguments: ["--no-reload-open-pages"]) { browser, page, reporter in
            try Self.refusedBeforeTheBridge(browser, page, reporter)
        }
        try harness.bridge.waitForOutput(timeout: 30, "say it left the page") { $0.contains("sextant-browser: left \(harness.pageURL) as it was") ? () : nil }
        #expect(harness.reports().filter { $0["kind"] == "loaded" }.count == 1, "\(harness.reports())")
        withExtendedLifetime((daemon, browser)) {}
    }

    @Test("42.4: each position's timestamp is its fix's own time from the trace (2001), not the browser's clock, across a reload")
    func positionsCarryTheFixTime() throws {
        let (daemon, browser, harness) = try bridgeOnBrowser()
        // The page reloads itself after its second position: its next document is told the
        // fixes' times as its navigation is held.
        try browser.open(harness.pageURL + "?reload=2")
        _ = try harness.waitForReports("see the permission granted") { $0.contains { $0["state"] == "granted" } ? () : nil }
        // 2001-09-09T01:46:40Z is 10^12 ms after the epoch; the fixes come every 250 ms.
        let walk = Self.walk(from: 2.35, count: 12)
        var lines = [#"{"sextant":"trace","version":1,"start":"2001-09-09T01:46:40.000Z"}"#]
        for (index, fix) in walk.enumerated() {
            lines.append(#"{"t":\#(Double(index) * 0.25),"location":{"lat":\#(fix.lat),"lon":\#(fix.lon)\#(Self.extras)}}"#)
        }
        try daemon.replay("2001.jsonl", lines.joined(separator: "\n") + "\n")
        let reports = try harness.waitForReports("receive the walk's last position") { reports in
            reports.contains { $0["lon"]?.doubleValue == walk.last!.lon } ? reports : nil
        }
        let reload = try #require(reports.lastIndex { $0["kind"] == "loaded" }, "\(reports)")
        #expect(reload > 0 && reports[reload...].contains { $0["kind"] == "position" }, "no reload, or no position after it: \(reports)")
        let positions = reports.filter { $0["kind"] == "position" }
        let times = positions.map { position in walk.firstIndex { $0.lon == position["lon"]?.doubleValue }.map { 1_000_000_000_000 + Double($0) * 250 } }
        #expect(positions.map { $0["timestamp"]?.doubleValue } == times, "\(positions)")
    }
}
