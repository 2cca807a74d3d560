import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// The panel shows the device's time zone and its local time (docs/timezone.md), from
/// `status` and then each `timeZone` event its watch receives (sextant-rules(7) Z1, Z9).
@Suite("The time zone in the panel", .serialized, .requires(Panel.requirement))
final class PanelTimeZoneTests {
    let daemon: DaemonHarness
    let browser: PanelBrowser
    let folders: PanelFolders
    let panel: PanelProcess

    init() throws {
        daemon = try DaemonHarness(arguments: ["--time-zone-table", TimeZoneDaemonTests.table])
        folders = try PanelFolders()
        panel = try PanelProcess(daemon: daemon, arguments: Panel.realPage, folders: folders)
        browser = try PanelBrowser(panel: panel, directory: daemon.directory)
        try browser.step(["do": "open"])
    }

    func waitForReadout(_ condition: String) throws {
        try browser.step(["do": "waitFor", "expression": .string("document.getElementById('time-zone-readout').textContent\(condition)")])
    }

    @Test("Z1, Z9: no zone before the first fix; a fix in Elvas shows Europe/Lisbon with its local time; set by hand, Asia/Kolkata at UTC+05:30")
    func readoutFollowsTheZone() throws {
        try waitForReadout(".startsWith('time zone unknown')")
        _ = try daemon.control().call(Method.deviceSet, ["location": ["lat": 38.8794, "lon": -7.0346]])
        try waitForReadout(".startsWith('Europe/Lisbon, UTC+0') && /\\d\\d:\\d\\d local$/.test(document.getElementById('time-zone-readout').textContent)")
        _ = try daemon.control().call(Method.timeZoneSet, ["zone": "Asia/Kolkata"])
        try waitForReadout(" === 'Asia/Kolkata, UTC+05:30, ' + new Date(Date.now() + 19800000).toISOString().slice(11, 16) + ' local (set by hand)'")
    }
}
