import NIOCore
import SextantCore
import SextantProtocol
import Testing

@_spi(Sources) @_spi(Daemon) @testable import SextantHub
@testable import SextantServer

/// A fan-out to many apps leaves a bounded number of connections per turn of the loop
/// (``FlushBatcher``), in process on virtual time: a turn flushes two connections here,
/// so six apps show what thousands do.
@Suite("Fan-out across turns of the loop, in process", .timeLimit(.minutes(1)))
struct FanOutTests {
    static let flushesPerTurn = 2
    static let appCount = 6

    /// Six apps streaming locations, authorized always.
    static func streamingApps(_ hub: InProcessHub, control: TestClient) async throws -> [TestClient] {
        var apps: [TestClient] = []
        for index in 0..<Self.appCount {
            let app = try await hub.connect(.app)
            let id = JSONValue.string("com.example.fan\(index)")
            _ = try await app.call(Method.hello, ["app": id])
            _ = try await control.call(Method.permissionsSet, ["app": id, "status": "authorizedAlways"])
            _ = try await app.call(Method.locationStart)
            _ = try await app.drainEvents()
            apps.append(app)
        }
        return apps
    }

    private func makeHub() throws -> InProcessHub {
        try InProcessHub { $0.flushesPerTurn = Self.flushesPerTurn }
    }

    /// A fix from the manual source, straight into the hub as a source delivers it.
    static func ingestFix(_ hub: InProcessHub, latitude: Double) async throws {
        try await hub.onLoop { hub in
            let time = hub.now.wall
            hub.ingest(Sample(time: time, value: .location(LocationFix(latitude: latitude, longitude: 2.29, time: time))), from: .manual)
        }
    }

    /// The lines flushed to `client` so far, without waiting for more.
    static func flushedLines(_ client: TestClient) async throws -> [JSONValue] {
        var lines: [JSONValue] = []
        while let buffer = try await client.channel.readOutbound(as: ByteBuffer.self) {
            for line in TestClient.lines(buffer) { lines.append(try JSONValue.parse(String(line))) }
        }
        return lines
    }

    /// Runs the loop's later turns until every app has `count` messages; returns them per app.
    static func advanceUntilEach(_ hub: InProcessHub, of apps: [TestClient], has count: Int) async throws -> [[JSONValue]] {
        var received = Array(repeating: [JSONValue](), count: apps.count)
        for _ in 0..<50 {
            for (index, app) in apps.enumerated() { received[index] += try await Self.flushedLines(app) }
            if received.allSatisfy({ $0.count >= count }) { return received }
            await hub.advance(by: FlushBatcher.backlogPause)
        }
        throw TestFailure("the backlog never reached every app: \(received.map(\.count))")
    }

    @Test("A control request sent during a location fan-out is answered before the last apps get the fix")
    func controlAnsweredDuringFanOut() async throws {
        let hub = try makeHub()
        let control = try await hub.connect(.control)
        let apps = try await Self.streamingApps(hub, control: control)

        try await Self.ingestFix(hub, latitude: 48.85)
        // The first turn's share: the first apps have the fix.
        for app in apps.prefix(Self.flushesPerTurn) {
            #expect(try await app.nextMessage()["method"] == "location")
        }
        #expect(try await Self.flushedLines(apps.last!).isEmpty, "the last app waits for a later turn")
        // The loop is free: a control request is answered while the last app still waits.
        #expect(try await control.call(Method.status)["location"]?["lat"] == 48.85)
        #expect(try await Self.flushedLines(apps.last!).isEmpty, "the control request did not have to wait for the whole fan-out")

        let received = try await Self.advanceUntilEach(hub, of: Array(apps.dropFirst(Self.flushesPerTurn)), has: 1)
        for lines in received {
            #expect(lines.map { $0["method"] } == ["location"])
            #expect(lines.first?["params"]?["lat"] == 48.85)
        }
    }

    @Test("Issue 28.14: a control answer written in the same turn as a fan-out is flushed in that turn, not behind the fan-out's backlog")
    func controlAnswerAheadOfBacklog() async throws {
        let hub = try makeHub()
        let control = try await hub.connect(.control)
        let apps = try await Self.streamingApps(hub, control: control)

        // One turn of the loop: a fix written to every app, then a `status` read on the
        // control socket (as when a max replay's turn and a request are ready at one poll).
        let controlChannel = control.channel
        try await hub.onLoop { hub in
            let time = hub.now.wall
            hub.ingest(Sample(time: time, value: .location(LocationFix(latitude: 48.85, longitude: 2.29, time: time))), from: .manual)
            let request = ByteBuffer(string: #"{"jsonrpc":"2.0","id":"ahead","method":"status"}"# + "\n")
            controlChannel.pipeline.syncOperations.fireChannelRead(NIOAny(request))
            controlChannel.pipeline.syncOperations.fireChannelReadComplete()
        }
        // The turn's own flush has run (tasks run in order), no later turn has.
        try await hub.onLoop { _ in }
        let answer = try await Self.flushedLines(control)
        #expect(answer.map { $0["id"] } == ["ahead"], "the answer left with the turn's flush")
        #expect(try await Self.flushedLines(apps.last!).isEmpty, "the last app still waits in the backlog")
        let received = try await Self.advanceUntilEach(hub, of: Array(apps.dropFirst(Self.flushesPerTurn)), has: 1)
        for lines in received {
            #expect(lines.map { $0["params"]?["lat"] } == [48.85])
        }
    }

    @Test("Two fixes fanned out back to back reach the last app in their order, each once")
    func orderKeptAcrossSlices() async throws {
        let hub = try makeHub()
        let control = try await hub.connect(.control)
        let apps = try await Self.streamingApps(hub, control: control)

        try await Self.ingestFix(hub, latitude: 48.1)
        try await Self.ingestFix(hub, latitude: 48.2)
        let received = try await Self.advanceUntilEach(hub, of: apps, has: 2)
        for lines in received {
            #expect(lines.map { $0["params"]?["lat"] } == [48.1, 48.2])
        }
    }

    @Test("L9: an app revoked while its fix waits in the backlog hears the fix, then its authorization, then no more fixes")
    func l9RevokeDuringFanOut() async throws {
        let hub = try makeHub()
        let control = try await hub.connect(.control)
        let apps = try await Self.streamingApps(hub, control: control)
        let last = try #require(apps.last)

        try await Self.ingestFix(hub, latitude: 48.85)
        #expect(try await Self.flushedLines(last).isEmpty, "the last app's fix is still in the backlog")
        _ = try await control.call(Method.permissionsSet, ["app": .string("com.example.fan\(Self.appCount - 1)"), "status": "denied"])
        try await Self.ingestFix(hub, latitude: 48.86)

        let received = try await Self.advanceUntilEach(hub, of: apps, has: 2)
        let lastLines = try #require(received.last)
        #expect(lastLines.map { $0["method"] } == ["location", "authorization"], "\(lastLines)")
        #expect(lastLines.last?["params"]?["status"] == "denied")
        for lines in received.dropLast() {
            #expect(lines.map { $0["params"]?["lat"] } == [48.85, 48.86])
        }
    }
}

/// A fix is decided for a bounded number of sessions per turn (``LocationFanOut``): two
/// here. A session not reached yet is owed the fix, and gets it before anything else
/// reaches it, decided under the rules in force then.
@Suite("Location fan-out decided across turns of the loop, in process", .timeLimit(.minutes(1)))
struct LocationFanOutTests {
    private func makeHub() throws -> InProcessHub {
        try InProcessHub { $0.services.location.sessionsPerTurn = 2 }
    }

    @Test("A control request sent during a location fan-out is answered before the last apps' fix is decided")
    func controlAnsweredBeforeTheRestIsDecided() async throws {
        let hub = try makeHub()
        let control = try await hub.connect(.control)
        let apps = try await FanOutTests.streamingApps(hub, control: control)

        try await FanOutTests.ingestFix(hub, latitude: 48.85)
        for app in apps.prefix(2) {
            #expect(try await app.nextMessage()["method"] == "location")
        }
        #expect(try await control.call(Method.status)["location"]?["lat"] == 48.85)
        #expect(try await FanOutTests.flushedLines(apps.last!).isEmpty, "the last app's fix is decided in a later turn")
        let received = try await FanOutTests.advanceUntilEach(hub, of: Array(apps.dropFirst(2)), has: 1)
        for lines in received {
            #expect(lines.map { $0["params"]?["lat"] } == [48.85])
        }
    }

    @Test("L9: an app revoked while it is owed a fix never gets it: its authorization event, then nothing")
    func l9RevokedWhileOwed() async throws {
        let hub = try makeHub()
        let control = try await hub.connect(.control)
        let apps = try await FanOutTests.streamingApps(hub, control: control)
        let last = try #require(apps.last)

        try await FanOutTests.ingestFix(hub, latitude: 48.85)
        _ = try await control.call(Method.permissionsSet, ["app": .string("com.example.fan\(FanOutTests.appCount - 1)"), "status": "denied"])
        try await FanOutTests.ingestFix(hub, latitude: 48.86)
        let received = try await FanOutTests.advanceUntilEach(hub, of: Array(apps.dropLast()), has: 2)
        for lines in received {
            #expect(lines.map { $0["params"]?["lat"] } == [48.85, 48.86])
        }
        let lastLines = try await FanOutTests.flushedLines(last)
        #expect(lastLines.map { $0["method"] } == ["authorization"], "\(lastLines)")
    }

    @Test("An app's own request comes after the fix it is owed, as if the fan-out had ended")
    func appRequestAfterOwedFix() async throws {
        let hub = try makeHub()
        let control = try await hub.connect(.control)
        let apps = try await FanOutTests.streamingApps(hub, control: control)
        let last = try #require(apps.last)

        try await FanOutTests.ingestFix(hub, latitude: 48.85)
        try await last.send(#"{"jsonrpc":"2.0","id":"get","method":"authorization.get"}"#)
        let first = try await last.nextMessage()
        #expect(first["method"] == "location")
        #expect(first["params"]?["lat"] == 48.85)
        #expect(try await last.nextMessage()["id"] == "get")
        // Its turn in the fan-out comes later and sends nothing more.
        _ = try await FanOutTests.advanceUntilEach(hub, of: Array(apps.dropLast()), has: 1)
        #expect(try await FanOutTests.flushedLines(last).isEmpty)
    }

    @Test("An app that says hello during a fan-out does not get the fix in flight, and gets the next one")
    func newSessionDuringFanOut() async throws {
        let hub = try makeHub()
        let control = try await hub.connect(.control)
        let apps = try await FanOutTests.streamingApps(hub, control: control)

        try await FanOutTests.ingestFix(hub, latitude: 48.85)
        let late = try await hub.connect(.app)
        _ = try await late.call(Method.hello, ["app": "com.example.late"])
        _ = try await control.call(Method.permissionsSet, ["app": "com.example.late", "status": "authorizedAlways"])
        _ = try await late.call(Method.locationStart)
        _ = try await FanOutTests.advanceUntilEach(hub, of: apps, has: 1)
        #expect(try await late.drainEvents().map(\.method) == ["authorization"])
        try await FanOutTests.ingestFix(hub, latitude: 48.86)
        let received = try await FanOutTests.advanceUntilEach(hub, of: apps + [late], has: 1)
        #expect(received.last?.map { $0["params"]?["lat"] } == [48.86])
    }
}
