import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// Issue 25.5: the control panel's page in Debian's Chromium, headless, used with the mouse
/// (Tools/dev/panel-browser.py over the DevTools protocol) against the real `sextant-panel` and
/// daemon. Each outcome is read from the app's side or the daemon's, never from the page.
@Suite("The control panel in Chromium (issue 25.5)", .serialized, .requires(Panel.requirement))
final class PanelBrowserTests {
    static let app = "com.example.panel"
    let daemon: DaemonHarness
    let traces: String
    let browser: PanelBrowser
    let folders: PanelFolders
    let panel: PanelProcess

    init() throws {
        daemon = try DaemonHarness()
        folders = try PanelFolders()
        traces = folders.traces
        // 60 s of a walk north, 10 fixes a second.
        try syntheticTrace(count: 601, step: 0.1).write(toFile: traces + "/walk.jsonl", atomically: true, encoding: .utf8)
        panel = try PanelProcess(daemon: daemon, arguments: Panel.realPage, folders: folders)
        browser = try PanelBrowser(panel: panel, directory: daemon.directory)
        try browser.step(["do": "open"])
    }

    func status() throws -> JSONValue { try daemon.control().call(Method.status) }

    @Test("issue 25.5, L4: the prompt card appears for the app's request, and its Allow While Using button resolves the pending request authorizedWhenInUse")
    func promptCardAnswersThePendingRequest() throws {
        let (app, _) = try daemon.app(Self.app)
        let request = try app.send(Method.authorizationRequest, ["level": "whenInUse"])
        let card = ".prompt-card[data-app=\"\(Self.app)\"]"
        try browser.step(["do": "waitFor", "expression": .string("document.querySelector('\(card)') !== null")])
        try browser.step(["do": "screenshot", "name": "prompt"])
        #expect(try !app.hasResponse(to: request), "the request waits for the card")
        try browser.step(["do": "click", "selector": .string(card + " .choice-allowWhileUsing")])
        let decided = try app.response(to: request, timeout: 30)
        #expect(decided["status"] == "authorizedWhenInUse" && decided["accuracy"] == "full", "\(decided)")
        // The card goes once answered.
        try browser.step(["do": "waitFor", "expression": .string("document.querySelector('\(card)') === null")])
    }

    /// An app of the test's that holds `authorizedWhenInUse` and streams locations and
    /// orientation.
    func streamingApp() throws -> SextantConnection {
        let (app, _) = try daemon.app(Self.app)
        _ = try daemon.control().call(Method.permissionsSet, ["app": .string(Self.app), "status": "authorizedWhenInUse"])
        _ = try app.call(Method.locationStart)
        _ = try app.call(Method.orientationStart)
        return app
    }

    @Test("issue 25.5: a click on the map sets the device there, and the app receives that location")
    func mapClickReachesTheApp() throws {
        let app = try streamingApp()
        let clicked = try browser.step(["do": "clickMap", "dx": 80, "dy": -50])
        let lat = try #require(clicked["lat"]?.doubleValue), lon = try #require(clicked["lon"]?.doubleValue)
        let delivered = try app.nextEvent(timeout: 30, description: "the clicked location \(lat), \(lon)") { event in
            event.method == Event.location && event.params["lat"]?.doubleValue.map { abs($0 - lat) < 1e-9 } == true
        }
        #expect(abs((delivered.params["lon"]?.doubleValue ?? 0) - lon) < 1e-9, "\(delivered.params) for a click at \(lat), \(lon)")
        #expect(delivered.params["accuracy"] == "full")
        #expect(try status()["location"]?["lat"]?.doubleValue.map { abs($0 - lat) < 1e-9 } == true)
    }

    @Test("issue 25.5, O1, O7: the rotate-left button turns the device landscapeLeft, and the app's interface follows to landscapeRight")
    func rotateButtonTurnsTheAppsInterface() throws {
        let app = try streamingApp()
        try browser.step(["do": "click", "selector": "#rotate-left"])
        let turned = try app.nextEvent(timeout: 30, description: "the interface's turn") { $0.method == Event.interfaceOrientation }
        #expect(turned.params["orientation"] == "landscapeRight", "\(turned.params)")
        #expect(try status()["deviceOrientation"] == "landscapeLeft")
        let listed = try daemon.control().call(Method.appsList)
        #expect(listed.arrayValue?.first?["interfaceOrientation"] == "landscapeRight", "\(listed)")
        try browser.step(["do": "clickMap", "dx": 0, "dy": 0])
        _ = try app.nextEvent(timeout: 30, description: "the centre's location") { $0.method == Event.location }
        try browser.step(["do": "screenshot", "name": "overview"])
    }

    @Test("issue 36.10: Open shows a trace and changes nothing, its t = 0 control line included; Play plays it, and the seek slider moved with the mouse leaves the daemon's replay where the slider was let go")
    func openChangesNothingUntilPlayAndTheSliderSeeks() throws {
        // Location Services off at t = 0, then the 60 s walk.
        let walk = syntheticTrace(count: 601, step: 0.1).split(separator: "\n", omittingEmptySubsequences: true)
        let control = #"{"t":0,"control":{"method":"services.set","params":{"enabled":false}}}"#
        try ([String(walk[0]), control] + walk.dropFirst().map(String.init)).joined(separator: "\n").write(
            toFile: traces + "/services-off.jsonl", atomically: true, encoding: .utf8)
        try browser.step(["do": "click", "selector": "#trace-refresh"])
        try browser.step(["do": "choose", "selector": "#trace-list", "value": "services-off.jsonl"])
        try browser.step(["do": "click", "selector": "#replay-open"])
        try browser.step(["do": "waitFor", "expression": "document.querySelectorAll('#timeline-marks .mark').length === 1 && !document.getElementById('replay-play').disabled"])
        let opened = try status()
        #expect(opened["servicesEnabled"] == true, "Open played the t = 0 control line: \(opened)")
        #expect(!["running", "paused"].contains(opened["replay"]?["state"]?.stringValue ?? ""), "Open started the replay: \(opened)")
        try browser.step(["do": "click", "selector": "#replay-play"])
        try daemon.waitForStatus("Play to play the trace's control line") { $0["servicesEnabled"] == false && $0["replay"]?["state"] == "running" }
        try browser.step(["do": "waitFor", "expression": "!document.getElementById('replay-pause').disabled"])
        try browser.step(["do": "click", "selector": "#replay-pause"])
        try daemon.waitForStatus("the replay to be paused") { $0["replay"]?["state"] == "paused" }
        try browser.step(["do": "waitFor", "expression": "!document.getElementById('seek').disabled"])
        let slid = try browser.step(["do": "slide", "selector": "#seek", "fraction": 0.75])
        let value = try #require(slid["value"]?.doubleValue)
        #expect(value > 30 && value < 60, "slider at \(value) s of 60")
        try daemon.waitForStatus("the replay to stand at the slider's \(value) s") { status in
            status["replay"]?["position"]?.doubleValue.map { abs($0 - value) < 0.01 } == true
        }
        #expect(try status()["replay"]?["state"] == "paused")
        try browser.step(["do": "screenshot", "name": "replay"])
    }

    @Test("issue 25.1: an app that connects while the page is open gets its row without a refresh, and loses it when it goes")
    func newAppsRowAppearsWithoutARefresh() throws {
        let row = "#apps-table tr[data-app=\"\(Self.app)\"]"
        try browser.step(["do": "waitFor", "expression": .string("document.querySelector('\(row)') === null")])
        do {
            let (app, _) = try daemon.app(Self.app)
            try browser.step(["do": "waitFor", "expression": .string("document.querySelector('\(row)') !== null")])
            _ = try daemon.control().call(Method.permissionsSet, ["app": .string(Self.app), "status": "authorizedWhenInUse"])
            _ = try app.call(Method.locationStart)
            try browser.step(["do": "waitFor", "expression": .string("document.querySelector('\(row) .streaming').textContent === 'location'")])
            app.close()
        }
        // The app's connection is closed: its row goes.
        try browser.step(["do": "waitFor", "expression": .string("document.querySelector('\(row)') === null")])
    }

    @Test("issue 25.2: the daemon stopped under an open page shows the banner; restarted, the page is live again and sees a new app")
    func thePageOutlivesTheDaemon() throws {
        let banner = "document.getElementById('daemon-banner')"
        #expect(daemon.terminate() == 0)
        let shown = try browser.step(["do": "waitFor", "expression": .string("!\(banner).hidden && \(banner).textContent")])
        #expect(shown["value"]?.stringValue?.contains("daemon not reachable, retrying") == true, "\(shown)")
        try daemon.restart()
        try browser.step(["do": "waitFor", "expression": .string("\(banner).hidden")])
        let (app, _) = try daemon.app(Self.app)
        try browser.step(["do": "waitFor", "expression": .string("document.querySelector('#apps-table tr[data-app=\"\(Self.app)\"]') !== null")])
        withExtendedLifetime(app) {}
    }

    @Test("issue 25 performance: every fix of a 10 Hz stream reaches the page; its lag behind the daemon (fix time to the frame's receipt and drawing) is printed")
    func pageFollowsTenHertz() throws {
        let control = try daemon.control()
        var times: [JSONValue] = []
        for index in 0..<50 {
            let answer = try control.call(Method.deviceSet, ["location": ["lat": .double(47.0 + Double(index) * 1e-5), "lon": 8.5]])
            times.append(try #require(answer["location"]?["time"]))
            Thread.sleep(forTimeInterval: 0.1)
        }
        let expression = "(() => { const seen = new Set(window.sextantPanel.lags.map((l) => l.time)); return \(JSONValue.array(times).serialized()).every((t) => seen.has(t)); })()"
        try browser.step(["do": "waitFor", "expression": .string(expression)])
        let lag = try browser.step(["do": "lag", "times": .array(times)])
        #expect(lag["count"]?.intValue == times.count, "\(lag)")
        func ms(_ key: String) -> String { lag[key].map { $0.serialized() } ?? "–" }
        print("panel lag at 10 Hz over \(times.count) fixes: receipt p50 \(ms("receivedP50")) ms, p99 \(ms("receivedP99")) ms; drawn p50 \(ms("appliedP50")) ms, p99 \(ms("appliedP99")) ms")
        let problems = try browser.step(["do": "problems"])["problems"]?.arrayValue ?? []
        #expect(problems.isEmpty, "console errors or CSP violations: \(problems)")
    }
}
