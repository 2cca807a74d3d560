import SextantCore
import SextantProtocol
import Testing

@_spi(Sources) @_spi(Daemon) @testable import SextantHub

/// An event delivered to many sessions is built for the watchers only when a watcher takes
/// it: a watcher of something else (the panel, `sextantctl watch replay`) cost every fix
/// to every app a JSON object built and dropped, about 10,800 instructions a delivery, half
/// of what a listening app cost a fix (Tools/bench/bench-callgrind.py).
@Suite("Watched deliveries, built only for a watcher that takes them", .timeLimit(.minutes(1)))
struct WatchedDeliveryTests {
    /// How many times an event's params were built; read and written on the hub's loop only.
    final class Builds: @unchecked Sendable {
        var count = 0
    }

    /// An event every session hears whose params count their builds.
    struct CountedEvent: AppEventKind {
        /// A real event's name, which `watch` takes; nothing else sends it in these tests.
        static let method = Event.servicesEnabled
        static var topic: AppTopic { .session }
        let builds: Builds
        var outboundKind: OutboundKind { .essential }
        var method: String { Self.method }
        var params: JSONValue {
            builds.count += 1
            return ["n": 1]
        }
    }

    static let apps = ["com.example.a", "com.example.b", "com.example.c"]

    /// One shared event published to every session: how many times its params were built.
    func publishToEverySession(_ hub: InProcessHub) async throws -> Int {
        try await hub.onLoop { hub in
            let builds = Builds()
            let shared = SharedEvent(CountedEvent(builds: builds))
            for session in hub.sessions.ordered { hub.publish(to: session, shared) }
            return builds.count
        }
    }

    @Test("a watcher of replay events: the event's params are built once, for its line, not once more per delivery")
    func unwatchedEventBuiltOnce() async throws {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        _ = try await control.call(Method.watch, ["topics": [.string(Event.replay)]])
        var clients: [TestClient] = []
        for app in Self.apps {
            clients.append(try await hub.connect(.app))
            _ = try await clients.last!.call(Method.hello, ["app": .string(app)])
        }
        let builds = try await publishToEverySession(hub)
        #expect(builds == 1)
        #expect(try await control.drainEvents().filter { $0.method == CountedEvent.method }.isEmpty)
        withExtendedLifetime(clients) {}
    }

    @Test("a watcher that takes the event sees every app's copy; one that watches one app sees that app's only")
    func watchedEventReachesItsWatchers() async throws {
        let hub = try InProcessHub()
        let everyApp = try await hub.connect(.control)
        _ = try await everyApp.call(Method.watch, ["topics": [.string(CountedEvent.method)]])
        let oneApp = try await hub.connect(.control)
        _ = try await oneApp.call(Method.watch, ["topics": [.string(CountedEvent.method)], "app": .string(Self.apps[1])])
        var clients: [TestClient] = []
        for app in Self.apps {
            clients.append(try await hub.connect(.app))
            _ = try await clients.last!.call(Method.hello, ["app": .string(app)])
        }
        let builds = try await publishToEverySession(hub)
        #expect(builds == 1 + Self.apps.count)
        let seen = try await everyApp.drainEvents().filter { $0.method == CountedEvent.method }
        #expect(seen.compactMap { $0.params["app"]?.stringValue } == Self.apps)
        #expect(seen.allSatisfy { $0.params["n"]?.intValue == 1 && $0.params["session"]?.intValue != nil })
        #expect(try await oneApp.drainEvents().filter { $0.method == CountedEvent.method }.compactMap { $0.params["app"]?.stringValue } == [Self.apps[1]])
        for client in clients {
            #expect(try await client.drainEvents().filter { $0.method == CountedEvent.method }.count == 1)
        }
    }
}
