import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// The panel says which phone the daemon plays (docs/platforms.md PF1), from `status`.
@Suite("The platform in the panel", .serialized, .requires(Panel.requirement))
struct PanelPlatformTests {
    @Test("PF1: the panel's header says Android (API 30) for sextantd --platform android --android-api 30, and iOS by default")
    func headerSaysThePlatform() throws {
        for (arguments, shown) in [(["--platform", "android", "--android-api", "30"], "Android (API 30)"), ([], "iOS")] {
            let daemon = try DaemonHarness(arguments: arguments)
            let folders = try PanelFolders()
            let panel = try PanelProcess(daemon: daemon, arguments: Panel.realPage, folders: folders)
            let browser = try PanelBrowser(panel: panel, directory: daemon.directory)
            try browser.step(["do": "open"])
            try browser.step(["do": "waitFor", "expression": .string("document.getElementById('platform').textContent === '\(shown)'")])
        }
    }
}
