import Foundation
import SextantClient
import SextantProtocol
import Testing

/// The control panel's cards for the Motion & Fitness prompt and Android's ACTIVITY_RECOGNITION
/// dialog (docs/motion.md A13, A15, A16), in Debian's Chromium against the real `sextant-panel`
/// and `sextantd`. The outcome is read from the app's side.
@Suite("The control panel's motion prompts in Chromium", .serialized, .requires(Panel.requirement))
final class PanelMotionPromptTests {
    static let app = "com.example.fit"

    /// Opens the panel on a daemon with `arguments`, says hello with `declarations`, sends
    /// `method`, clicks the card's `choice` once its buttons are `buttons`; the app's answer.
    func answerOnCard(_ arguments: [String], _ declarations: [String: JSONValue], _ method: String, kind: String, buttons: String, choice: String) throws -> JSONValue {
        let daemon = try DaemonHarness(arguments: arguments)
        let folders = try PanelFolders()
        let panel = try PanelProcess(daemon: daemon, arguments: Panel.realPage, folders: folders)
        let browser = try PanelBrowser(panel: panel, directory: daemon.directory)
        try browser.step(["do": "open"])
        let app = try SextantConnection.app(runtimeDirectory: daemon.runtime)
        _ = try app.call(Method.hello, .object(["app": .string(Self.app)].merging(declarations) { $1 }))
        let request = try app.send(method)
        let card = ".prompt-card[data-app=\"\(Self.app)\"][data-kind=\"\(kind)\"]"
        let titles = "Array.from(document.querySelectorAll('\(card) button')).map(b => b.title).join(',')"
        try browser.step(["do": "waitFor", "expression": .string("\(titles) === '\(buttons)'")])
        try browser.step(["do": "click", "selector": .string(card + " .choice-\(choice)")])
        _ = panel
        return try app.response(to: request, timeout: 30)
    }

    @Test("A13, A16: the iPhone's card shows Don't Allow and OK; OK answers the waiting activity.start")
    func iosCard() throws {
        let started = try answerOnCard(
            [], ["motionUsageDescription": "Counts your steps"], Method.activityStart, kind: "motionFitness", buttons: "dontAllow,allow", choice: "allow")
        #expect(started == [:], "\(started)")
    }

    @Test("A15, A16: the Android card shows Don't allow and Allow; Don't allow answers the request denied")
    func androidCard() throws {
        let decided = try answerOnCard(
            ["--platform", "android", "--android-api", "34"], [:], Method.activityRequestAuthorization, kind: "androidActivityRecognition",
            buttons: "dontAllow,allow", choice: "dontAllow")
        #expect(decided["status"] == "denied", "\(decided)")
    }
}
