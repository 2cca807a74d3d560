import Foundation
import SextantClient
import SextantProtocol
import Testing

/// The control panel's cards for iOS's two later prompts (docs/platforms.md I5, I9) and the
/// Apps card's controls that set a session grant by hand, in Debian's Chromium against the
/// real `sextant-panel` and `sextantd`. Each outcome is read from the app's side.
@Suite("The control panel's iOS prompts in Chromium", .serialized, .requires(Panel.requirement))
final class PanelIOSPromptTests {
    static let app = "com.example.panel"

    struct Setting {
        let daemon: DaemonHarness
        let panel: PanelProcess
        let browser: PanelBrowser
        let app: SextantConnection
    }

    /// The panel open, an app in the foreground authorized When In Use (reduced: full only
    /// through a temporary grant), declaring the purpose key `route`.
    static func opened() throws -> Setting {
        let daemon = try DaemonHarness()
        let folders = try PanelFolders()
        let panel = try PanelProcess(daemon: daemon, arguments: Panel.realPage, folders: folders)
        let browser = try PanelBrowser(panel: panel, directory: daemon.directory)
        try browser.step(["do": "open"])
        let app = try SextantConnection.app(runtimeDirectory: daemon.runtime)
        _ = try app.call(Method.hello, ["app": .string(Self.app), "state": "foreground", "temporaryUsageDescriptions": ["route": "Turn by turn"]])
        _ = try daemon.control().call(Method.permissionsSet, ["app": .string(Self.app), "status": "authorizedWhenInUse", "accuracy": "reduced"])
        return Setting(daemon: daemon, panel: panel, browser: browser, app: app)
    }

    static func card(_ kind: String) -> String { ".prompt-card[data-app=\"\(Self.app)\"][data-kind=\"\(kind)\"]" }

    static func buttons(_ selector: String) -> String {
        "Array.from(document.querySelectorAll('\(selector) button')).map(b => b.title).join(',')"
    }

    @Test("I5: the upgrade card shows Keep Only While Using and Change to Always Allow; Change gives the pending Always request authorizedAlways")
    func upgradeCardChangesToAlways() throws {
        let s = try Self.opened()
        let request = try s.app.send(Method.authorizationRequest, ["level": "always"])
        let card = Self.card("alwaysUpgrade")
        try s.browser.step(["do": "waitFor", "expression": .string("\(Self.buttons(card)) === 'keepWhileUsing,changeToAlways'")])
        try s.browser.step(["do": "click", "selector": .string(card + " .choice-changeToAlways")])
        let decided = try s.app.response(to: request, timeout: 30)
        #expect(decided["status"] == "authorizedAlways", "\(decided)")
        try s.browser.step(["do": "waitFor", "expression": .string("document.querySelector('\(card)') === null")])
    }

    @Test("I4, I5: Keep Only While Using in the card answers the Always request with authorizedWhenInUse")
    func upgradeCardKeepsWhileUsing() throws {
        let s = try Self.opened()
        let request = try s.app.send(Method.authorizationRequest, ["level": "always"])
        let card = Self.card("alwaysUpgrade")
        try s.browser.step(["do": "waitFor", "expression": .string("document.querySelector('\(card) .choice-keepWhileUsing') !== null")])
        try s.browser.step(["do": "click", "selector": .string(card + " .choice-keepWhileUsing")])
        let decided = try s.app.response(to: request, timeout: 30)
        #expect(decided["status"] == "authorizedWhenInUse", "\(decided)")
    }

    @Test("I9: the temporary full accuracy card names the purpose key; Allow gives the pending request full accuracy")
    func temporaryCardAllows() throws {
        let s = try Self.opened()
        let request = try s.app.send(Method.authorizationRequestTemporaryFullAccuracy, ["purposeKey": "route"])
        let card = Self.card("temporaryFullAccuracy")
        try s.browser.step(["do": "waitFor", "expression": .string("\(Self.buttons(card)) === 'allow,deny' && document.querySelector('\(card) h3').textContent.includes('route')")])
        try s.browser.step(["do": "click", "selector": .string(card + " .choice-allow")])
        let decided = try s.app.response(to: request, timeout: 30)
        #expect(decided["status"] == "authorizedWhenInUse" && decided["accuracy"] == "full", "\(decided)")
    }

    @Test("L5, I9, I2: the Apps card's Full accuracy: route, Allow Once and Provisional Always set the states by hand; the row shows them as Settings would; the app hears them")
    func appsCardSetsSessionGrants() throws {
        let s = try Self.opened()
        let row = "#apps-table tr[data-app=\"\(Self.app)\"]"
        try s.browser.step(["do": "waitFor", "expression": .string("document.querySelector('\(row) .state-menu option[value=\"temporary:route\"]') !== null")])
        try s.browser.step(["do": "choose", "selector": .string(row + " .state-menu"), "value": "temporary:route"])
        let full = try s.app.nextEvent(timeout: 30, description: "full accuracy") { $0.method == Event.authorization && $0.params["accuracy"] == "full" }
        #expect(full.params["status"] == "authorizedWhenInUse")
        try s.browser.step(["do": "waitFor", "expression": .string("document.querySelector('\(row) td.accuracy').textContent.includes('temporary: route')")])
        _ = try s.daemon.control().call(Method.permissionsSet, ["app": .string(Self.app), "status": "denied"])
        try s.browser.step(["do": "choose", "selector": .string(row + " .state-menu"), "value": "once"])
        let once = try s.app.nextEvent(timeout: 30, description: "Allow Once") { $0.method == Event.authorization && $0.params["status"] == "authorizedWhenInUse" }
        #expect(once.params["status"] == "authorizedWhenInUse")
        try s.browser.step(["do": "waitFor", "expression": .string("document.querySelector('\(row) td.allow-once').textContent === 'yes'")])
        try s.browser.step(["do": "choose", "selector": .string(row + " .state-menu"), "value": "provisional"])
        let always = try s.app.nextEvent(timeout: 30, description: "provisional Always") { $0.method == Event.authorization && $0.params["status"] == "authorizedAlways" }
        #expect(always.params["status"] == "authorizedAlways", "the app reads Always")
        try s.browser.step(["do": "waitFor", "expression": .string("document.querySelector('\(row) td.authorization').textContent === 'always (provisional: While Using)'")])
    }
}
