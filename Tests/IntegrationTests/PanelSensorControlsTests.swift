import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// Issue 43.3, "each new sensor as it lands adds its control here": the ambient light, the
/// proximity sensor, the barometer, the activity and the time zone, set from the panel in
/// Debian's Chromium against the real daemon and panel. Each control's outcome is read from
/// the daemon's `status`, as `sextantctl` would leave it, and the page shows the value.
@Suite("The panel's sensor, activity and time zone controls (issue 43.3)", .serialized, .requires(Panel.requirement))
final class PanelSensorControlsTests {
    static let app = "com.example.panel.sensors"
    let daemon: DaemonHarness
    let folders: PanelFolders
    let panel: PanelProcess
    let browser: PanelBrowser

    init() throws {
        daemon = try DaemonHarness(arguments: ["--time-zone-table", TimeZoneDaemonTests.table])
        folders = try PanelFolders()
        panel = try PanelProcess(daemon: daemon, arguments: Panel.realPage, folders: folders)
        browser = try PanelBrowser(panel: panel, directory: daemon.directory, size: (1366, 768))
        try browser.step(["do": "open"])
    }

    func waitForText(_ id: String, _ condition: String) throws {
        try browser.step(["do": "waitFor", "expression": .string("document.getElementById('\(id)').textContent\(condition)")])
    }

    func held(_ status: JSONValue, _ kind: String) -> Bool { status["held"]?.arrayValue?.contains(.string(kind)) == true }

    func expectNoProblems() throws {
        let problems = try browser.step(["do": "problems"])["problems"]?.arrayValue ?? []
        #expect(problems.isEmpty, "console errors or CSP violations: \(problems)")
    }

    @Test("E1: the light typed, then slid, is held as sextantctl light LUX holds it; a level set elsewhere shows from the watch; release gives it back")
    func ambientLight() throws {
        try browser.step(["do": "type", "selector": "#light-lux", "text": "320"])
        try daemon.waitForStatus("the light held at 320 lux") { $0["light"]?["lux"]?.doubleValue == 320 && self.held($0, "light") }
        try waitForText("light-state", " === '320 lux, held'")
        let slid = try browser.step(["do": "slide", "selector": "#light-slider", "fraction": 0.8])["value"]?.doubleValue ?? -1
        // Six decades over the slider's width: at four fifths, about 10^4.8 lux.
        #expect(abs(slid - 4.8) < 0.2, "the slider took \(slid)")
        let lux = (pow(10, slid) - 1).rounded()
        try daemon.waitForStatus("the light held at \(lux) lux from the slider at \(slid)") { $0["light"]?["lux"]?.doubleValue == lux }
        try waitForText("light-state", " === '\(Int(lux)) lux, held'")
        // As sextantctl light 50 would: the page hears it from its watch.
        _ = try daemon.control().call(Method.deviceSet, ["light": 50])
        try waitForText("light-state", ".startsWith('50 lux')")
        try browser.step(["do": "waitFor", "expression": "document.querySelector('#log-table tr[data-kind=\"light\"] td.detail').textContent === '50 lux'"])
        try browser.step(["do": "click", "selector": "#light-release"])
        try daemon.waitForStatus("the light released") { $0["light"] == .null && !self.held($0, "light") }
        try waitForText("light-state", " === 'no reading'")
        try expectNoProblems()
    }

    @Test("E1: near, far and release hold and give back the proximity sensor, as sextantctl proximity does; the page shows which")
    func proximityNearFar() throws {
        try browser.step(["do": "click", "selector": "#proximity-near"])
        try daemon.waitForStatus("the proximity held near") { $0["proximity"]?["near"] == true && self.held($0, "prox") }
        try waitForText("proximity-state", " === 'near, held'")
        try browser.step(["do": "waitFor", "expression": "document.getElementById('proximity-near').getAttribute('aria-pressed') === 'true'"])
        try browser.step(["do": "click", "selector": "#proximity-far"])
        try daemon.waitForStatus("the proximity held far") { $0["proximity"]?["near"] == false && self.held($0, "prox") }
        try waitForText("proximity-state", " === 'far, held'")
        try browser.step(["do": "waitFor", "expression": "document.querySelector('#log-table tr[data-kind=\"proximity\"] td.detail').textContent === 'far'"])
        try browser.step(["do": "click", "selector": "#proximity-release"])
        try daemon.waitForStatus("the proximity released") { !self.held($0, "prox") }
        try waitForText("proximity-state", " === 'no reading'")
        try expectNoProblems()
    }

    @Test("B2: the pressure typed in hPa is held as sextantctl pressure HPA holds it; an app's altimeter hears it and the page shows it in hPa; release gives it back")
    func barometerPressure() throws {
        let (app, _) = try daemon.app(Self.app)
        _ = try app.call(Method.altimeterStart)
        try browser.step(["do": "type", "selector": "#pressure-hpa", "text": "990.5"])
        try daemon.waitForStatus("the barometer held at 990.5 hPa, heard by the altimeter") { status in
            self.held(status, "pressure") && status["altimeter"]?["pressure"]?.doubleValue.map { abs($0 - 99.05) < 1e-6 } == true
        }
        try waitForText("pressure-state", " === '990.5 hPa, held'")
        // The card with the three held, for docs/panel.md.
        try browser.step(["do": "type", "selector": "#light-lux", "text": "320"])
        try browser.step(["do": "click", "selector": "#proximity-near"])
        try waitForText("light-state", " === '320 lux, held'")
        try waitForText("proximity-state", " === 'near, held'")
        try browser.step(["do": "screenshot", "name": "sensors"])
        try browser.step(["do": "click", "selector": "#pressure-release"])
        try daemon.waitForStatus("the barometer released") { !self.held($0, "pressure") }
        try expectNoProblems()
        withExtendedLifetime(app) {}
    }

    @Test("A9: an activity chosen is held by hand as sextantctl activity set holds it, shown with the steps; auto gives the word back to the derived activity")
    func activityHeldThenAuto() throws {
        try browser.step(["do": "choose", "selector": "#activity", "value": "running"])
        try daemon.waitForStatus("running held by hand") { $0["activity"]?["types"] == ["running"] && $0["activity"]?["source"] == "hand" }
        try waitForText("activity-state", " === 'running (high, hand); 0 steps, 0 m'")
        try browser.step(["do": "choose", "selector": "#activity", "value": "auto"])
        // status does not say whose word counts: wait for the daemon's answer to the page.
        try browser.step(["do": "waitFor", "expression": "(sextantPanel.answered['activity.set'] || {}).activity === 'auto'"])
        // A walk at 1.4 m/s, a fix a second for two minutes, replayed at once: with the
        // hand's word given back, the activity derived from it is reported, and its steps.
        let walk = (0..<120).map { "{\"t\":\($0),\"location\":{\"lat\":\(48.0 + Double($0) * 1.4 / 111_195),\"lon\":2.35,\"hAcc\":4,\"speed\":1.4,\"course\":0}}" }
        let path = try daemon.write("walk.jsonl", (["{\"sextant\":\"trace\",\"version\":1,\"start\":\"2026-03-01T08:00:00.000Z\"}"] + walk).joined(separator: "\n") + "\n")
        _ = try daemon.control().call(Method.replayStart, ["path": .string(path), "speed": "max"])
        try daemon.waitForStatus("the derived walking after auto") { $0["activity"]?["types"] == ["walking"] && $0["activity"]?["source"] == "derived" }
        try waitForText("activity-state", ".startsWith('walking (')")
        try waitForText("activity-state", ".includes(', derived); ') && !/; 0 steps/.test(document.getElementById('activity-state').textContent)")
        try expectNoProblems()
    }

    @Test("Z9: a zone typed is set by hand as sextantctl time zone set does; one tzdata does not know is the daemon's error on the page; automatic follows the position again")
    func timeZoneSetAndAutomatic() throws {
        try browser.step(["do": "type", "selector": "#time-zone-id", "text": "Asia/Kolkata"])
        try daemon.waitForStatus("Asia/Kolkata set by hand") { $0["timeZone"]?["zone"] == "Asia/Kolkata" && $0["timeZone"]?["automatic"] == false }
        try waitForText("time-zone-readout", ".startsWith('Asia/Kolkata, UTC+05:30, ')")
        try browser.step(["do": "type", "selector": "#time-zone-id", "text": "Mars/Olympus_Mons"])
        try waitForText("error-bar", ".includes('Mars/Olympus_Mons')")
        #expect(try daemon.control().call(Method.status)["timeZone"]?["zone"] == "Asia/Kolkata")
        try browser.step(["do": "click", "selector": "#time-zone-automatic"])
        try daemon.waitForStatus("the zone automatic again") { $0["timeZone"]?["automatic"] == true }
        try waitForText("time-zone-readout", ".startsWith('time zone unknown')")
    }
    @Test("issue 40.1, O4a: the rotation rate typed as X, Y and Z in rad/s is held as sextantctl gyro X Y Z holds it; an app's device motion hears it and the page shows it; release gives it back")
    func gyroscopeRate() throws {
        _ = try daemon.control().call(Method.deviceSet, ["orientation": "faceUp"])
        let (app, _) = try daemon.app(Self.app)
        _ = try app.call(Method.deviceMotionStart, ["referenceFrame": "gameRotationVector"])
        try browser.step(["do": "type", "selector": "#gyro-x", "text": "0.25"])
        try browser.step(["do": "type", "selector": "#gyro-y", "text": "-0.5"])
        try browser.step(["do": "type", "selector": "#gyro-z", "text": "1.5708"])
        try browser.step(["do": "click", "selector": "#gyro-set"])
        try daemon.waitForStatus("the gyroscope held at (0.25, -0.5, 1.5708) rad/s, heard by device motion") { status in
            let rate = status["deviceMotion"]?["rotationRate"]
            return self.held(status, "gyro") && rate?["x"] == 0.25 && rate?["y"] == -0.5 && rate?["z"] == 1.5708
        }
        try waitForText("gyro-state", " === '0.25, -0.5, 1.5708 rad/s, held'")
        try browser.step(["do": "click", "selector": "#gyro-release"])
        try daemon.waitForStatus("the gyroscope released") { !self.held($0, "gyro") }
        try waitForText("gyro-state", ".startsWith('not held')")
        try expectNoProblems()
        withExtendedLifetime(app) {}
    }

    /// The device's wall clock ahead of the host's, by `time.get` on control.sock.
    func deviceOffset() throws -> Double {
        try DeviceClockState(json: daemon.control().call(Method.timeGet)).offsetSeconds
    }

    @Test("C3, C5: advance 90 d from the panel moves time.get's clock 90 days on, as sextantctl time advance 90d; a typed 15m moves it 15 minutes more; reset puts it back on the host's; the page shows the daemon's clock, and a move made elsewhere from the watch")
    func deviceClockAdvanceAndReset() throws {
        try waitForText("clock-state", ".includes('host time')")
        try browser.step(["do": "click", "selector": "#clock-advance-90d"])
        try browser.step(["do": "waitFor", "expression": "(sextantPanel.answered['time.advance'] || {}).seconds === 7776000"])
        #expect(try deviceOffset() == 90 * 86_400, "time.get after 90 d")
        try waitForText("clock-state", ".includes('host + 90 d')")
        try browser.step(["do": "type", "selector": "#clock-duration", "text": "15m"])
        try browser.step(["do": "waitFor", "expression": "(sextantPanel.answered['time.advance'] || {}).seconds === 900"])
        #expect(try deviceOffset() == 90 * 86_400 + 900, "time.get after 90 d and 15 min")
        try browser.step(["do": "type", "selector": "#clock-duration", "text": "15 fortnights"])
        try waitForText("error-bar", ".includes('15 fortnights')")
        try browser.step(["do": "click", "selector": "#clock-reset"])
        try browser.step(["do": "waitFor", "expression": "'time.reset' in sextantPanel.answered"])
        #expect(try deviceOffset() == 0, "time.get after reset")
        try waitForText("clock-state", ".includes('host time')")
        // As sextantctl time advance 1h would: the page hears it from its watch's clockChanged.
        _ = try daemon.control().call(Method.timeAdvance, ["seconds": 3600])
        try waitForText("clock-state", ".includes('(host + 1 h)')")
        try expectNoProblems()
    }
}
