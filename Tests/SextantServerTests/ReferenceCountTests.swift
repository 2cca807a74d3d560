import SextantCore
import SextantProtocol
import Testing

@testable import SextantGPSDFace
@testable import SextantHub
@testable import SextantSocketFace

/// Issue 38 ("pay only for what is heard"): asking each service on every fix whether anyone
/// listens retains the hub, and every delivery retains its session. A weak reference to
/// either (a face's drain callback held the hub weakly; a `location.once` time-out held its
/// session weakly) moved its counts to a side table, and made each of those retains the
/// runtime's slow path: a quarter of the daemon's own time in a replay at `max` to one app
/// (perf, 864,000 fixes: 1.84 s of CPU against 1.35 s before the services came).
@Suite("The hub and the sessions are never held weakly (issue 38)")
struct ReferenceCountTests {
    final class Probe {}

    @Test("issue 38: the probe itself: a weak reference moves an object's counts out of its header")
    func weakReferenceIsSeen() {
        let probe = Probe()
        #expect(ReferenceCounts.areInline(probe))
        weak let held = probe
        #expect(!ReferenceCounts.areInline(probe))
        withExtendedLifetime(held) {}
    }

    @Test("issue 38, L1 L2: after app.sock and gpsd clients, a stream, a location.once answered and one that timed out, the hub's and the session's counts are in their headers")
    func hubAndSessionsKeepTheirCountsInline() async throws {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        let app = try await hub.connect(.app)
        _ = try await app.call(Method.hello, ["app": "com.example.counts"])
        _ = try await control.call(Method.permissionsSet, ["app": "com.example.counts", "status": "authorizedAlways"])
        _ = try await app.call(Method.locationStart)
        _ = try await hub.connectGPSD()
        // One location.once times out on the device's clock, one is answered by a fix.
        try await app.send(#"{"jsonrpc":"2.0","id":"late","method":"location.once"}"#)
        _ = try await control.call(Method.timeAdvance, ["seconds": 31])
        #expect(try await app.response(to: "late")["error"]?["code"] == 1006)
        try await app.send(#"{"jsonrpc":"2.0","id":"answered","method":"location.once"}"#)
        try await FanOutTests.ingestFix(hub, latitude: 48.85)
        #expect(try await app.response(to: "answered")["result"]?["lat"] == 48.85)
        let inline = try await hub.onLoop { hub in
            // Each session, the face's object it delivers through, and the gpsd face behind its connection.
            let held: [[AnyObject]] = hub.sessions.ordered.map { session in
                [session, session.output] + ((session.output as? GPSDConnection).map { [$0.owner] } ?? [])
            }
            return (hub: ReferenceCounts.areInline(hub), sessions: held.map { $0.allSatisfy(ReferenceCounts.areInline) },
                    kinds: held.map { $0.map { "\(type(of: $0))" } })
        }
        #expect(inline.hub, "something holds the hub weakly")
        #expect(inline.kinds.map { $0.count } == [2, 3], "an app's Connection and a gpsd client's GPSDConnection and face: \(inline.kinds)")
        #expect(inline.sessions.count == 2 && !inline.sessions.contains(false), "held weakly, among \(inline.kinds): \(inline.sessions)")
    }
}
