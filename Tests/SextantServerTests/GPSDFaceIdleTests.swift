import NIOCore
import SextantProtocol
import Testing

@testable import SextantGPSDFace
@testable import SextantHub
@testable import SextantServer

/// Issue 28.9: a gpsd client that holds a slot and asks nothing is closed; a watcher is kept
/// however quiet it is, as gpsd keeps it (docs/gpsd.md). Issue 28.6: a client gone before it
/// is served leaves nothing.
@Suite("gpsd face: idle and vanished clients", .timeLimit(.minutes(1)))
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

    @Test("issue 28.6: a client reset while its banner is written leaves no session behind")
    func resetDuringTheBannerLeavesNoSession() async throws {
        let hub = try InProcessHub()
        for _ in 0..<3 { try await hub.connectGPSDResettingAtOnce() }
        await hub.advance(by: .seconds(1))
        #expect(try await hub.onLoop { hub in hub.sessions.ordered.map(\.app) } == [])
        let kept = try await hub.connectGPSD()
        #expect(kept.channel.isActive)
        #expect(try await hub.onLoop { hub in hub.sessions.ordered.count } == 1, "a client that stays still gets its session")
    }

    @Test("issue 36.9: clients from other machines are counted by address: a 5th watcher from one address hears ERROR and is closed, another address is still served")
    func remoteSlotsPerAddress() async throws {
        let hub = try InProcessHub()
        func watching(_ address: String) async throws -> GPSDTestClient {
            let client = try await hub.connectGPSD(remote: address)
            try await client.send(#"?WATCH={"enable":true,"json":true}"#)
            return client
        }
        for _ in 0..<GPSDListener.maxClientsPerRemoteAddress {
            #expect(try await watching("10.9.9.1").nextReport(ofClass: "WATCH")["enable"] == true)
        }
        let fifth = try await watching("10.9.9.1")
        let refused = try await fifth.nextReport()
        #expect(refused["class"] == "ERROR" && refused["message"]?.stringValue?.contains("address 10.9.9.1") == true, "\(refused)")
        if refused["class"] == "ERROR" { try await fifth.channel.closeFuture.get() }
        #expect(try await watching("10.9.9.2").nextReport(ofClass: "WATCH")["enable"] == true, "another address has its own slots")
    }
}
