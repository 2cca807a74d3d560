import NIOCore
import SextantCore
import SextantProtocol
import Testing

@testable import SextantServer

/// A fan-out to many apps leaves a bounded number of connections per turn of the loop
/// (``FlushBatcher``), in process on virtual time: a turn flushes two connections here,
/// so six apps show what thousands do.
@Suite("Fan-out across turns of the loop, in process", .timeLimit(.minutes(1)))
struct FanOutTests {
    static let flushesPerTurn = 2
    static let appCount = 6

    /// Six apps streaming locations, authorized always.
    private func streamingApps(_ hub: InProcessHub, control: TestClient) async throws -> [TestClient] {
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
    private func ingestFix(_ hub: InProcessHub, latitude: Double) async throws {
        try await hub.onLoop { hub in
            let time = hub.now.wall
            hub.ingest(Sample(time: time, value: .location(LocationFix(latitude: latitude, longitude: 2.29, time: time))), from: .manual)
        }
    }

    /// The lines flushed to `client` so far, without waiting for more.
    private func flushedLines(_ client: TestClient) async throws -> [JSONValue] {
        var lines: [JSONValue] = []
        while let buffer = try await client.channel.readOutbound(as: ByteBuffer.self) {
            lines.append(try JSONValue.parse(String(buffer: buffer).trimmingCharacters(in: .newlines)))
        }
        return lines
    }

    /// Runs the backlog's slices until every app has `count` messages; returns them per app.
    private func advanceUntilEach(_ hub: InProcessHub, of apps: [TestClient], has count: Int) async throws -> [[JSONValue]] {
        var received = Array(repeating: [JSONValue](), count: apps.count)
        for _ in 0..<50 {
            for (index, app) in apps.enumerated() { received[index] += try await flushedLines(app) }
            if received.allSatisfy({ $0.count >= count }) { return received }
            await hub.advance(by: FlushBatcher.backlogPause)
        }
        throw TestFailure("the backlog never reached every app: \(received.map(\.count))")
    }

    @Test("A control request sent during a location fan-out is answered before the last apps get the fix")
    func controlAnsweredDuringFanOut() async throws {
        let hub = try makeHub()
        let control = try await hub.connect(.control)
        let apps = try await streamingApps(hub, control: control)

        try await ingestFix(hub, latitude: 48.85)
        // The first turn's share: the first apps have the fix.
        for app in apps.prefix(Self.flushesPerTurn) {
            #expect(try await app.nextMessage()["method"] == "location")
        }
        #expect(try await flushedLines(apps.last!).isEmpty, "the last app waits for a later turn")
        // The loop is free: a control request is answered while the last app still waits.
        #expect(try await control.call(Method.status)["location"]?["lat"] == 48.85)
        #expect(try await flushedLines(apps.last!).isEmpty, "the control request did not have to wait for the whole fan-out")

        let received = try await advanceUntilEach(hub, of: Array(apps.dropFirst(Self.flushesPerTurn)), has: 1)
        for lines in received {
            #expect(lines.map { $0["method"] } == ["location"])
            #expect(lines.first?["params"]?["lat"] == 48.85)
        }
    }

    @Test("Two fixes fanned out back to back reach the last app in their order, each once")
    func orderKeptAcrossSlices() async throws {
        let hub = try makeHub()
        let control = try await hub.connect(.control)
        let apps = try await streamingApps(hub, control: control)

        try await ingestFix(hub, latitude: 48.1)
        try await ingestFix(hub, latitude: 48.2)
        let received = try await advanceUntilEach(hub, of: apps, has: 2)
        for lines in received {
            #expect(lines.map { $0["params"]?["lat"] } == [48.1, 48.2])
        }
    }

    @Test("L9: an app revoked while its fix waits in the backlog hears the fix, then its authorization, then no more fixes")
    func l9RevokeDuringFanOut() async throws {
        let hub = try makeHub()
        let control = try await hub.connect(.control)
        let apps = try await streamingApps(hub, control: control)
        let last = try #require(apps.last)

        try await ingestFix(hub, latitude: 48.85)
        #expect(try await flushedLines(last).isEmpty, "the last app's fix is still in the backlog")
        _ = try await control.call(Method.permissionsSet, ["app": .string("com.example.fan\(Self.appCount - 1)"), "status": "denied"])
        try await ingestFix(hub, latitude: 48.86)

        let received = try await advanceUntilEach(hub, of: apps, has: 2)
        let lastLines = try #require(received.last)
        #expect(lastLines.map { $0["method"] } == ["location", "authorization"], "\(lastLines)")
        #expect(lastLines.last?["params"]?["status"] == "denied")
        for lines in received.dropLast() {
            #expect(lines.map { $0["params"]?["lat"] } == [48.85, 48.86])
        }
    }
}
