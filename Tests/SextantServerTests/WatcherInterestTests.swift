import Foundation
import SextantProtocol
import Testing

@_spi(Sources) @_spi(Daemon) @testable import SextantHub

/// What a service asks the watchers on every fix ("does one take `location`? `visit`?") is
/// kept until the watchers change (`WatcherInterest`): a watcher that comes, changes its
/// filter or goes is heard from its next fix, as when the question was asked every time.
@Suite("Watchers' interest, kept between their changes", .timeLimit(.minutes(1)))
struct WatcherInterestTests {
    @Test("a watcher of replay events sees no fix; the same watcher widened to location sees the next ones; a second watcher of locations that goes stops nothing for the first")
    func followsTheWatchers() async throws {
        let hub = try InProcessHub()
        let path = try HubTimeTests.write(GNSSProfileHubTests.walk, in: hub, as: "walk.jsonl")
        let control = try await hub.connect(.control)
        _ = try await control.call(Method.watch, ["topics": [.string(Event.replay)]])
        _ = try await control.call(Method.replayStart, ["path": .string(path), "speed": 1])
        await hub.advance(by: .milliseconds(5_500))
        #expect(try await control.drainEvents().filter { $0.method == Event.location }.isEmpty, "a fix nobody watches is not sent")
        _ = try await control.call(Method.watch, ["topics": [.string(Event.replay), .string(Event.location)]])
        let other = try await hub.connect(.control)
        _ = try await other.call(Method.watch, ["topics": [.string(Event.location)]])
        await hub.advance(by: .seconds(5))
        let seen = try await control.drainEvents().filter { $0.method == Event.location }.compactMap { $0.params["lat"]?.doubleValue }
        #expect(seen.count == 5 && seen.first.map { abs($0 - 48.0006) < 1e-9 } == true, "the fixes from 6 s on: \(seen)")
        #expect(try await other.drainEvents().filter { $0.method == Event.location }.count == 5)
        try await other.channel.close()
        await hub.advance(by: .seconds(5))
        #expect(try await control.drainEvents().filter { $0.method == Event.location }.count == 5, "the first watcher still hears them")
    }
}
