import Foundation
import SextantProtocol
import SextantTestSupport
import Testing

/// "Position unavailable" in Chromium, read from the page's own `watchPosition`
/// (docs/browsers.md, "Errors"). Part of `ChromiumBridgeTests`, so that one browser runs at a time.
extension ChromiumBridgeTests {
    @Test("A GNSS outage is one POSITION_UNAVAILABLE (code 2) to the page's watch; none before the first fix nor while fixes stream")
    func outageIsOneError() throws {
        let (daemon, browser, harness) = try openPage(authorization: "authorizedWhenInUse", until: "granted")

        // Six fixes, the GPS source lost, six fixes again: each fix replaces the page's
        // override while its watch waits, which is where Chromium makes up an error.
        let before = Self.walk(from: 2.35, count: 6), after = Self.walk(from: 2.36, count: 6)
        var lines = [#"{"sextant":"trace","version":1,"start":"2026-03-01T08:00:00.000Z"}"#]
        for (index, fix) in before.enumerated() {
            lines.append(#"{"t":\#(Double(index) * 0.25),"location":{"lat":\#(fix.lat),"lon":\#(fix.lon)\#(Self.extras)}}"#)
        }
        lines.append(#"{"t":1.5,"gps":{"state":"lost"}}"#)
        for (index, fix) in after.enumerated() {
            lines.append(#"{"t":\#(2.5 + Double(index) * 0.25),"location":{"lat":\#(fix.lat),"lon":\#(fix.lon)\#(Self.extras)}}"#)
        }
        try daemon.replay("outage.jsonl", lines.joined(separator: "\n") + "\n")
        let heard = try harness.waitForReports("receive the last position after the outage") { reports -> [String]? in
            let heard = reports.compactMap { report -> String? in
                if report["kind"] == "position" { return report["lon"]?.doubleValue.map { "\($0)" } }
                if report["kind"] == "error" { return "error \(report["code"]?.intValue ?? -1)" }
                return nil
            }
            return heard.last == "\(after.last!.lon)" ? heard : nil
        }
        #expect(heard == before.map { "\($0.lon)" } + ["error 2"] + after.map { "\($0.lon)" }, "\(harness.reports())")
        _ = browser
    }
}
