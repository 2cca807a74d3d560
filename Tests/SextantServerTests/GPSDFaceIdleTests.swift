import NIOCore
import SextantProtocol
import Testing

@testable import SextantServer

/// Issue 28.9: a gpsd client that holds a slot and asks nothing is closed; a watcher is kept
/// however quiet it is, as gpsd keeps it (docs/gpsd.md).
@Suite("gpsd face: idle clients")
struct GPSDFaceIdleTests {
    @Test("issue 28.9: no request for 60 s and no WATCH: gpsd's ERROR and closed; a request restarts the time; a watcher stays")
    func idleClientsAreClosed() async throws {
        let hub = try InProcessHub()
        let idle = try await hub.connectGPSD()
        let asking = try await hub.connectGPSD()
        let watcher = try await hub.connectGPSD()
        try await watcher.send(#"?WATCH={"enable":true,"json":true}"#)
        #expect(try await watcher.nextReport(ofClass: "WATCH")["enable"] == true)

        await hub.advance(by: .seconds(30))
        try await asking.send("?VERSION;")
        #expect(try await asking.nextReport()["class"] == "VERSION")
        await hub.advance(by: .seconds(31))
        let closed = try await idle.drainReports()
        #expect(closed.last?["class"] == "ERROR" && closed.last?["message"]?.stringValue?.contains("no request for 60 s") == true, "\(closed)")
        #expect(!idle.channel.isActive)
        #expect(asking.channel.isActive, "timed from its last request")

        await hub.advance(by: .seconds(30))
        #expect(try await asking.drainReports().last?["class"] == "ERROR")
        #expect(!asking.channel.isActive)
        await hub.advance(by: .seconds(600))
        #expect(watcher.channel.isActive, "a watcher is never idle")
        #expect(try await hub.onLoop { hub in hub.sessions.ordered.count } == 1)
    }
}
