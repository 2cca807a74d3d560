import Foundation
import SextantClient
import SextantProtocol
import Testing

/// The control panel's card for Android's dialog (docs/platforms.md AN3), in Debian's Chromium
/// against the real `sextant-panel` and `sextantd --platform android`. The outcome is read
/// from the app's side.
@Suite("The control panel's Android dialog in Chromium", .serialized, .requires(Panel.requirement))
final class PanelAndroidPromptTests {
    static let app = "com.example.panel"

    /// An Android phone (API 34), the real panel over it, and its page open in Chromium.
    struct Opened {
        let daemon: DaemonHarness
        let folders: PanelFolders
        let panel: PanelProcess
        let browser: PanelBrowser
    }

    static func opened() throws -> Opened {
        let daemon = try DaemonHarness(arguments: ["--platform", "android", "--android-api", "34"])
        let folders = try PanelFolders()
        let panel = try PanelProcess(daemon: daemon, arguments: Panel.realPage, folders: folders)
        let browser = try PanelBrowser(panel: panel, directory: daemon.directory)
        try browser.step(["do": "open"])
        return Opened(daemon: daemon, folders: folders, panel: panel, browser: browser)
    }

    @Test("AN3: the card shows Android's buttons and Precise; Only this time unticked gives the pending request coarse only, one-time")
    func androidCardAnswersThePendingRequest() throws {
        let s = try Self.opened()
        let (daemon, browser) = (s.daemon, s.browser)
        let (app, _) = try daemon.app(Self.app)
        let request = try app.send(Method.authorizationRequest, ["permissions": ["coarse", "fine"]])
        let card = ".prompt-card[data-app=\"\(Self.app)\"][data-kind=\"androidLocation\"]"
        let buttons = "Array.from(document.querySelectorAll('\(card) button')).map(b => b.title).join(',')"
        try browser.step(["do": "waitFor", "expression": .string("\(buttons) === 'whileUsing,onlyThisTime,dontAllow'")])
        try browser.step(["do": "click", "selector": .string(card + " .precise")])
        try browser.step(["do": "click", "selector": .string(card + " .choice-onlyThisTime")])
        let decided = try app.response(to: request, timeout: 30)
        #expect(decided["status"] == "authorizedWhenInUse" && decided["accuracy"] == "reduced" && decided["oneTime"] == true, "\(decided)")
        withExtendedLifetime(s) {}
    }

    @Test("AN38, AN15, AN5: the Apps card's Android menu puts the app in Only this time (precise), then Allow all the time, then don't ask again; the app hears each and its next request is denied at once")
    func androidMenuSetsStates() throws {
        let s = try Self.opened()
        let (daemon, browser) = (s.daemon, s.browser)
        let (app, _) = try daemon.app(Self.app)
        let menu = "#apps-table tr[data-app=\"\(Self.app)\"] .state-menu"
        try browser.step(["do": "waitFor", "expression": .string("document.querySelector('\(menu) option[value=\"oneTime\"]') !== null")])
        try browser.step(["do": "choose", "selector": .string(menu), "value": "oneTime"])
        let once = try app.nextEvent(timeout: 30, description: "Only this time") { $0.method == Event.authorization && $0.params["oneTime"] == true }
        #expect(once.params["status"] == "authorizedWhenInUse" && once.params["accuracy"] == "full", "\(once.params)")
        try browser.step(["do": "choose", "selector": .string(menu), "value": "always"])
        let always = try app.nextEvent(timeout: 30, description: "Allow all the time") { $0.method == Event.authorization && $0.params["status"] == "authorizedAlways" }
        #expect(always.params["grants"]?["background"] == "granted", "\(always.params)")
        try browser.step(["do": "choose", "selector": .string(menu), "value": "dontAskAgain"])
        _ = try app.nextEvent(timeout: 30, description: "denied") { $0.method == Event.authorization && $0.params["status"] == "denied" }
        let asked = try app.call(Method.authorizationRequest, ["permissions": ["coarse", "fine"]])
        #expect(asked["status"] == "denied", "don't ask again: answered at once, no dialog: \(asked)")
        #expect(try daemon.control().call(Method.promptsList) == [])
        withExtendedLifetime(s) {}
    }
}
