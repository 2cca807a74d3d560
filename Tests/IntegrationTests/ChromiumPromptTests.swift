import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// L4 in Chromium: a page that asks while its app is `notDetermined` raises Sextant's prompt
/// and waits for its answer (docs/browsers.md, "the prompt"). Part of `ChromiumBridgeTests`,
/// so that one browser runs at a time.
extension ChromiumBridgeTests {
    /// A daemon, a browser, the bridge and the reporter's page, the page asking for its
    /// position while the app has no decision; returns once Sextant's prompt for it is open.
    private func pageAsking(daemonArguments: [String] = []) throws -> (DaemonHarness, ChromiumProcess, BrowserBridgeHarness, JSONValue) {
        let (daemon, browser, harness) = try openPage(until: "prompt", daemonArguments: daemonArguments)
        let control = try daemon.control()
        var prompts: [JSONValue] = []
        let prompt = try poll(timeout: 30, every: 0.05, failure: { "no prompt for \(Self.app): \(prompts); the page said \(harness.reports())" }) {
            prompts = try control.call(Method.promptsList).arrayValue ?? []
            return prompts.first { $0["app"] == .string(Self.app) }
        }
        #expect(prompt["level"] == "whenInUse" || prompt["kind"] == "androidLocation", "\(prompt)")
        // While the prompt is open, the page's request waits: no error, no position.
        #expect(!harness.reports().contains { $0["kind"] == "error" || $0["kind"] == "position" }, "\(harness.reports())")
        return (daemon, browser, harness, prompt)
    }

    @Test("L4: a page asking while notDetermined raises Sextant's prompt; Allow While Using gives it positions")
    func pagePromptAllowed() throws {
        let (daemon, browser, harness, prompt) = try pageAsking()
        _ = try daemon.control().call(Method.promptsAnswer, ["id": prompt["id"]!, "choice": "allowWhileUsing"])
        _ = try harness.waitForReports("see the permission granted") { $0.contains { $0["state"] == "granted" } ? () : nil }
        let walk = Self.walk(from: 2.35, count: 4)
        try daemon.replay("walk.jsonl", geoclueTrace(walk, step: 0.25, extras: Self.extras))
        let received = try harness.waitForReports("receive the walk's last position") { reports in
            reports.contains { $0["lon"]?.doubleValue == walk.last!.lon } ? reports : nil
        }
        #expect(!received.contains { $0["kind"] == "error" }, "\(received)")
        #expect(received.filter { $0["kind"] == "position" }.compactMap { $0["lon"]?.doubleValue } == walk.map(\.lon))
        _ = browser
    }

    @Test("AN1, AN3: on an Android phone a page asking opens Android's dialog (coarse and fine); While using the app gives the page positions")
    func pagePromptOnAndroid() throws {
        let (daemon, browser, harness, prompt) = try pageAsking(daemonArguments: ["--platform", "android"])
        #expect(prompt["kind"] == "androidLocation" && prompt["android"]?["asked"] == ["coarse", "fine"], "\(prompt)")
        _ = try daemon.control().call(Method.promptsAnswer, ["id": prompt["id"]!, "choice": "whileUsing"])
        _ = try harness.waitForReports("see the permission granted") { $0.contains { $0["state"] == "granted" } ? () : nil }
        let walk = Self.walk(from: 2.35, count: 4)
        try daemon.replay("walk.jsonl", geoclueTrace(walk, step: 1, extras: Self.extras))
        let position = try harness.waitForReports("receive a position of the walk") { reports in
            reports.first { $0["kind"] == "position" }
        }
        #expect(walk.contains { $0.lon == position["lon"]?.doubleValue }, "\(position)")
        _ = browser
    }

    @Test("L6, issue 43.8: every page gone while Sextant's prompt is open: the prompt is cancelled and the bridge says why")
    func pagePromptCancelledWhenHidden() throws {
        let (daemon, browser, harness, _) = try pageAsking()
        let targets = try JSONValue.parse(try httpRequest(port: browser.port, "GET", "/json/list")).arrayValue ?? []
        for target in targets where target["type"] == "page" {
            try closeTarget(port: browser.port, target["id"]?.stringValue ?? "")
        }
        let control = try daemon.control()
        try poll(timeout: 30, every: 0.05, failure: { "the prompt stayed open, or the bridge said nothing:\n\(harness.bridge.output())" }) {
            let open = try control.call(Method.promptsList).arrayValue ?? []
            let said = harness.bridge.output().contains("Sextant cancels its open prompt (L6)")
            return open.isEmpty && said ? () : nil
        }
    }

    @Test("L4: a page asking while notDetermined gets PERMISSION_DENIED (code 1) when the prompt is answered Don't Allow")
    func pagePromptDenied() throws {
        let (daemon, browser, harness, prompt) = try pageAsking()
        _ = try daemon.control().call(Method.promptsAnswer, ["id": prompt["id"]!, "choice": "dontAllow"])
        let error = try harness.waitForReports("receive the error") { $0.first { $0["kind"] == "error" } }
        #expect(error["code"] == 1, "\(error)")
        #expect(harness.reports().contains { $0["state"] == "denied" })
        #expect(harness.positions().isEmpty)
        _ = browser
    }
}

/// DevTools' `/json/close/ID`; its status line is enough (the body ends without a newline).
private func closeTarget(port: UInt16, _ id: String) throws {
    guard let fd = connectLoopback(port: port) else { throw HarnessError("no DevTools on port \(port)") }
    let lines = SocketLines(fd: fd, peer: "DevTools")
    lines.send("GET /json/close/\(id) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n")
    let status = try lines.nextLine(timeout: 10)
    guard status.contains(" 200 ") else { throw HarnessError("/json/close/\(id): \(status)") }
}
