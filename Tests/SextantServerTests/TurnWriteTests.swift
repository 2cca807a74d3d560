import NIOCore
import SextantCore
import SextantProtocol
import Testing

@_spi(Sources) @_spi(Daemon) @testable import SextantHub
@testable import SextantServer

/// A connection joins the lines of one turn of the loop into one write to its channel
/// (one pass through NIO's pipeline, not one a line), in their order; past
/// `LineWriter.turnLinesLimit` bytes they go to the channel at once.
@Suite("One write per connection per turn, in process", .timeLimit(.minutes(1)))
struct TurnWriteTests {
    /// Fixes from the manual source, all in one turn of the loop.
    static func ingestFixes(_ hub: InProcessHub, latitudes: [Double]) async throws {
        try await hub.onLoop { hub in
            for latitude in latitudes {
                let time = hub.now.wall
                hub.ingest(Sample(time: time, value: .location(LocationFix(latitude: latitude, longitude: 2.29, time: time))), from: .manual)
            }
        }
    }

    static func latitudes(_ buffer: ByteBuffer) throws -> [Double?] {
        try TestClient.lines(buffer).map { try JSONValue.parse(String($0))["params"]?["lat"]?.doubleValue }
    }

    @Test("Five fixes in one turn reach an app as one write of five lines, in order")
    func oneWritePerTurn() async throws {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        let app = try await FanOutTests.streamingApps(hub, control: control)[0]
        let sent: [Double] = [10, 11, 12, 13, 14]
        try await Self.ingestFixes(hub, latitudes: sent)
        let write = try await app.channel.waitForOutboundWrite(as: ByteBuffer.self)
        #expect(try Self.latitudes(write) == sent)
        #expect(try await app.channel.readOutbound(as: ByteBuffer.self) == nil, "one write, not one a line")
    }

    @Test("A turn's lines past the limit go to the channel in more than one write, none lost or reordered")
    func limitSplitsTheTurn() async throws {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        let app = try await FanOutTests.streamingApps(hub, control: control)[0]
        // ~150 bytes a line: 900 lines are about twice the limit, under the outbox's bounds.
        let sent = (0..<900).map { 40 + Double($0) / 10000 }
        try await Self.ingestFixes(hub, latitudes: sent)
        var writes: [ByteBuffer] = [try await app.channel.waitForOutboundWrite(as: ByteBuffer.self)]
        while let more = try await app.channel.readOutbound(as: ByteBuffer.self) { writes.append(more) }
        #expect(writes.count >= 2)
        #expect(writes.allSatisfy { $0.readableBytes < LineWriter.turnLinesLimit + 1024 })
        #expect(try writes.flatMap(Self.latitudes) == sent)
    }
}
