import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// GeoClue's own client on an Android phone (docs/platforms.md AN1–AN3, AN2): where-am-i's
/// `Start` asks as a foreground Android app asking fine with coarse, Android's dialog opens,
/// and its answer decides what the client gets, as the same answer decides for app.sock.
@Suite("GeoClue face on an Android phone (where-am-i)", .serialized, .requires(GeoClueClients.requirement))
struct GeoClueAndroidTests {
    @Test("AN1, AN3: where-am-i's Start opens Android's dialog (coarse and fine, Precise offered); While using the app gives it the replayed positions")
    func whileUsingGivesPositions() throws {
        let bus = try GeoClueTestBus()
        let daemon = try DaemonHarness.onBus(bus, grant: false, ["--platform", "android"])
        let client = try WhereAmI(bus: bus, directory: daemon.directory)
        let waited = try daemon.ctl(["prompts", "wait", "--app", GeoClueClients.whereAmIApp])
        #expect(waited.status == 0, "\(waited.stdout)\(waited.stderr)")
        let prompt = try #require((try daemon.control().call(Method.promptsList).arrayValue ?? []).first)
        #expect(prompt["kind"] == "androidLocation", "\(prompt)")
        #expect(prompt["android"]?["asked"] == ["coarse", "fine"] && prompt["android"]?["approximateOffered"] == true, "\(prompt)")
        let answered = try daemon.ctl(["prompts", "answer", "--app", GeoClueClients.whereAmIApp, "whileUsing"])
        #expect(answered.status == 0, "\(answered.stdout)\(answered.stderr)")
        try daemon.waitForActiveGeoClueClient()
        let walk = (0..<4).map { (lat: 48.0, lon: 2.35 + Double($0) * 0.0005) }
        try daemon.replay("walk.jsonl", geoclueTrace(walk, step: 0.2))
        let printed = try client.waitForLocations(walk.count)
        for (got, want) in zip(printed, walk) {
            #expect(abs(got.latitude - want.lat) <= 5e-7 && abs(got.longitude - want.lon) <= 5e-7, "\(got) vs \(want)")
        }
    }

    @Test("AN9: Don't allow in Android's dialog: where-am-i's Start fails with AccessDenied, as a denied app's does on an iPhone")
    func dontAllowDenies() throws {
        let bus = try GeoClueTestBus()
        let daemon = try DaemonHarness.onBus(bus, grant: false, ["--platform", "android", "--prompt-policy", "dontAllow"])
        let client = try WhereAmI(bus: bus, directory: daemon.directory)
        #expect(try client.exitStatus(timeout: 20) == 255)
        #expect(client.errors().contains("AccessDenied"), "\(client.errors())")
        #expect(!client.output().contains("New location"))
    }
}
