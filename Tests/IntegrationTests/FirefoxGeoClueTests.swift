import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// A web page in Debian's Firefox, unmodified and headless, reads its position through
/// Sextant's GeoClue face (docs/dbus.md, "Firefox") under the same rules as any app: the
/// values come back from the page itself.
@Suite("Firefox through GeoClue (issue 26.2)", .serialized, .requires(Firefox.requirement))
struct FirefoxGeoClueTests {
    /// `count` positions east along 48°N from `longitude`, 0.0005° (37 m) a step.
    static func walk(from longitude: Double, count: Int) -> [(lat: Double, lon: Double)] {
        (0..<count).map { (lat: 48.0, lon: longitude + Double($0) * 0.0005) }
    }

    @Test("L4, L9: the page's watchPosition waits for Sextant's prompt, receives the replayed walk, gets nothing while revoked, and resumes when granted again")
    func pageFollowsTheRules() throws {
        let bus = try GeoClueTestBus()
        let daemon = try DaemonHarness.onBus(bus)
        let page = try FirefoxPage(bus: bus, directory: daemon.directory)

        // The page asked: Firefox's GeoClue client is Sextant's prompt, and nothing comes
        // before it is answered.
        let waited = try daemon.ctl(["prompts", "wait", "--app", Firefox.app, "--timeout", "90"])
        #expect(waited.status == 0, "\(waited.stdout)\(waited.stderr)")
        #expect(page.reports().allSatisfy { $0.kind == "loaded" }, "\(page.reports())")
        let answered = try daemon.ctl(["prompts", "answer", "--app", Firefox.app, "allowWhileUsing"])
        #expect(answered.status == 0, "\(answered.stdout)\(answered.stderr)")
        try daemon.waitForActiveGeoClueClient(Firefox.app, timeout: 30)

        let granted = Self.walk(from: 2.35, count: 12)
        try daemon.replay("granted.jsonl", geoclueTrace(granted, step: 0.25))
        let received = try page.waitForReports("receive the walk's last position") { reports in
            reports.contains { $0.position?.longitude == granted.last!.lon } ? reports.compactMap(\.position) : nil
        }
        // Every fix of the walk, in order, with the trace's values; none other.
        #expect(received.map(\.longitude) == granted.map(\.lon), "\(received)")
        #expect(received.allSatisfy { $0.latitude == 48 && $0.accuracy == 4 }, "\(received)")
        // Altitude, speed and heading as the trace has them (geoclueTrace: 35 m, 1.5 m/s, 90°).
        #expect(received.allSatisfy { $0.altitude == 35 && $0.speed == 1.5 && $0.heading == 90 }, "\(received)")

        // Revoked: the walk replayed meanwhile never reaches the page (L9).
        try daemon.setPermission(Firefox.app, "denied")
        let revoked = Self.walk(from: 3.35, count: 8)
        try daemon.replay("revoked.jsonl", geoclueTrace(revoked, step: 0.1), speed: "max")
        try daemon.waitForStatus("the revoked walk to end") { $0["replay"]?["state"] == "finished" }
        let after = Self.walk(from: 4.35, count: 4)
        try daemon.replay("after.jsonl", geoclueTrace(after, step: 0.1), speed: "max")
        try daemon.waitForStatus("the next walk to end") { $0["replay"]?["state"] == "finished" }

        // Granted again: GeoClue hands a started client the current location, the next
        // walk's last fix. Everything the page said before it is in (the page numbers its
        // reports), and none of it is from the fixes decided while the app was denied.
        try daemon.setPermission(Firefox.app, "authorizedWhenInUse")
        let resumed = try page.waitForReports("receive the current location after the new grant") { reports in
            reports.contains { $0.position?.longitude == after.last!.lon } ? reports.compactMap(\.position) : nil
        }
        let sinceRevoke = resumed.dropFirst(received.count)
        #expect(sinceRevoke.map(\.longitude) == [after.last!.lon], "only the current location after the grant: \(Array(sinceRevoke))")
    }
}
