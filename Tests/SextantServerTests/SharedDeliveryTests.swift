import Foundation
import NIOCore
import NIOPosix
import SextantCore
import SextantProtocol
import Testing

@_spi(Sources) @_spi(Daemon) @testable import SextantHub
@testable import SextantServer

/// A session's decided accuracy is kept between fixes (`Hub.decidedAccuracy(of:)`) and
/// asked again after any change of the authorization engine: every change must reach the
/// very next fix.
@Suite("Deliveries decided under the rules in force, in process", .timeLimit(.minutes(1)))
struct DecidedAccuracyTests {
    static let app = "com.example.decided"

    /// The locations `client` got for one fix: the fix, then `authorization.get`, whose
    /// answer comes after anything the fix brought.
    static func locations(_ hub: InProcessHub, _ client: TestClient, latitude: Double) async throws -> [JSONValue] {
        _ = try await client.drainEvents()
        try await FanOutTests.ingestFix(hub, latitude: latitude)
        _ = try await client.call(Method.authorizationGet)
        return try await client.drainEvents().filter { $0.method == Event.location }.map(\.params)
    }

    static func permission(_ control: TestClient, _ status: String, accuracy: String = "full") async throws {
        _ = try await control.call(Method.permissionsSet, ["app": .string(app), "status": .string(status), "accuracy": .string(accuracy)])
    }

    @Test("L1, L8, L9, L10: each authorization change reaches the next fix, and so does its undoing")
    func everyChangeReachesTheNextFix() async throws {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        let client = try await hub.connect(.app)
        _ = try await client.call(Method.hello, ["app": .string(Self.app)])
        try await Self.permission(control, "authorizedWhenInUse")
        _ = try await client.call(Method.locationStart)

        #expect(try await Self.locations(hub, client, latitude: 1).map { $0["lat"] } == [1])
        _ = try await control.call(Method.servicesSet, ["enabled": false])
        #expect(try await Self.locations(hub, client, latitude: 2).isEmpty, "L1: services off")
        _ = try await control.call(Method.servicesSet, ["enabled": true])
        #expect(try await Self.locations(hub, client, latitude: 3).map { $0["lat"] } == [3])
        _ = try await client.call(Method.appUpdate, ["state": "background"])
        #expect(try await Self.locations(hub, client, latitude: 4).isEmpty, "L8: when in use, in the background")
        _ = try await client.call(Method.appUpdate, ["state": "foreground"])
        #expect(try await Self.locations(hub, client, latitude: 5).map { $0["lat"] } == [5])
        try await Self.permission(control, "denied")
        #expect(try await Self.locations(hub, client, latitude: 6).isEmpty, "L9: revoked")
        try await Self.permission(control, "authorizedAlways")
        #expect(try await Self.locations(hub, client, latitude: 7).map { $0["lat"] } == [7])

        // L10: reduced; the first reduced fix waits for the app's grid to be written.
        try await Self.permission(control, "authorizedAlways", accuracy: "reduced")
        _ = try await client.drainEvents()
        try await FanOutTests.ingestFix(hub, latitude: 48.85)
        var message = try await client.nextMessage()
        while message["method"] != "location" { message = try await client.nextMessage() }
        #expect(message["params"]?["accuracy"] == "reduced")
        #expect(message["params"]?["lat"] != 48.85, "coarsened to the app's grid")
        try await Self.permission(control, "authorizedAlways", accuracy: "full")
        let full = try await Self.locations(hub, client, latitude: 8)
        #expect(full.map { $0["lat"] } == [8] && full.first?["accuracy"] == "full")
    }
}

/// Lines shared between connections are joined once (``SharedLineChunks``): connections
/// that get the same run of lines in a turn write the same bytes, and order holds whatever
/// else each of them gets in between.
@Suite("Shared lines, joined once for every connection, in process", .timeLimit(.minutes(1)))
struct SharedLinesTests {
    static func address(_ buffer: ByteBuffer) -> UInt {
        buffer.withUnsafeReadableBytes { UInt(bitPattern: $0.baseAddress) }
    }

    @Test("Apps granted full accuracy get one turn's fixes as one write each, of the same bytes, in order")
    func oneCopyForEveryApp() async throws {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        let apps = try await FanOutTests.streamingApps(hub, control: control)
        let sent: [Double] = [10, 11, 12, 13, 14]
        try await TurnWriteTests.ingestFixes(hub, latitudes: sent)
        var addresses: Set<UInt> = []
        for app in apps {
            let write = try await app.channel.waitForOutboundWrite(as: ByteBuffer.self)
            #expect(try TurnWriteTests.latitudes(write) == sent)
            #expect(try await app.channel.readOutbound(as: ByteBuffer.self) == nil, "one write, not one a line")
            addresses.insert(Self.address(write))
        }
        #expect(addresses.count == 1, "every app's write is the same bytes, not a copy each")
    }

    @Test("An event to one app between shared fixes, and an app served reduced, keep every app's lines in order")
    func orderWithOtherLinesBetween() async throws {
        let hub = try InProcessHub()
        let control = try await hub.connect(.control)
        let apps = try await FanOutTests.streamingApps(hub, control: control)
        let reduced = try #require(apps.last)
        _ = try await control.call(
            Method.permissionsSet, ["app": .string("com.example.fan\(FanOutTests.appCount - 1)"), "status": "authorizedAlways", "accuracy": "reduced"])
        // The reduced app's grid is written before its first fix: wait for it.
        try await FanOutTests.ingestFix(hub, latitude: 40)
        while try await reduced.nextMessage()["method"] != "location" {}
        for app in apps { _ = try await app.drainEvents() }

        try await hub.onLoop { hub in
            let first = hub.sessions.ordered[0]
            for (index, latitude) in [41.0, 42.0, 43.0].enumerated() {
                if index == 2 { hub.publish(to: first, LocationUnavailableEvent(reason: "between")) }
                let time = hub.now.wall
                hub.ingest(Sample(time: time, value: .location(LocationFix(latitude: latitude, longitude: 2.29, time: time))), from: .manual)
            }
        }
        let received = try await FanOutTests.advanceUntilEach(hub, of: apps, has: 3)
        #expect(received[0].map { $0["method"] } == ["location", "location", "locationUnavailable", "location"])
        #expect(received[0].compactMap { $0["params"]?["lat"] } == [41, 42, 43])
        for lines in received.dropFirst().dropLast() {
            #expect(lines.map { $0["params"]?["lat"] } == [41, 42, 43])
        }
        // Its own lines (a degree apart: three grid cells, L10), reduced, after the one at 40.
        let reducedLines = try #require(received.last)
        #expect(reducedLines.count == 3 && reducedLines.allSatisfy { $0["params"]?["accuracy"] == "reduced" }, "\(reducedLines)")
    }
}

/// ``SharedLineChunks`` itself: runs, sealing, and what a slice may keep alive.
@Suite("Shared line chunks")
struct SharedLineChunksTests {
    static func line(_ index: Int) -> ByteBuffer {
        ByteBuffer(string: "{\"line\":\(index),\"padding\":\"\(String(repeating: "x", count: 180))\"}\n")
    }

    @Test("A run's slice is the lines as appended; after it, the chunk is never written again")
    func sliceSeals() {
        let chunks = SharedLineChunks()
        var run = chunks.append(Self.line(0))
        for index in 1..<3 {
            let next = chunks.append(Self.line(index))
            #expect(run.isFollowed(by: next))
            run.end = next.end
        }
        let bytes = run.bytes(atFlush: true)
        #expect(String(buffer: bytes) == (0..<3).map { String(buffer: Self.line($0)) }.joined())
        let after = chunks.append(Self.line(3))
        #expect(after.chunk !== run.chunk, "a sliced chunk is sealed: the next line starts another")
        #expect(String(buffer: bytes) == (0..<3).map { String(buffer: Self.line($0)) }.joined(), "the slice is unchanged")
    }

    @Test("Before the flush, or a short run of a large chunk, is copied: the chunk stays open, or is not kept alive")
    func copiesWhenASliceWouldCost() {
        let chunks = SharedLineChunks()
        let first = chunks.append(Self.line(0))
        let early = first.bytes(atFlush: false)
        #expect(String(buffer: early) == String(buffer: Self.line(0)))
        #expect(chunks.append(Self.line(1)).chunk === first.chunk, "a copy does not seal the chunk")

        var last = first
        for index in 2..<150 { last = chunks.append(Self.line(index)) }
        #expect(last.chunk === first.chunk && last.chunk.bytes.capacity > 4096)
        let short = last.bytes(atFlush: true)
        let chunkStart = SharedLinesTests.address(last.chunk.bytes)
        let shortStart = SharedLinesTests.address(short)
        #expect(shortStart < chunkStart || shortStart >= chunkStart + UInt(last.chunk.bytes.capacity), "a copy, not a slice")
        #expect(String(buffer: short) == String(buffer: Self.line(149)))
    }

    @Test("A chunk holds at most a connection's turn limit: the line past it starts another")
    func chunkLimit() {
        let chunks = SharedLineChunks()
        var runs = [chunks.append(Self.line(0))]
        while runs.last!.chunk === runs[0].chunk { runs.append(chunks.append(Self.line(runs.count))) }
        #expect(runs.dropLast().last!.end <= LineWriter.turnLinesLimit)
        #expect(!runs.dropLast().last!.isFollowed(by: runs.last!))
    }
}

/// A session taking a turn's run of shared lines at once (``LineWriter/sendShared(run:)``,
/// a replay at `max`): the run grows by every line that follows it in its chunk, and only
/// by those.
@Suite("A turn's run of shared lines", .timeLimit(.minutes(1)))
struct SharedRunTests {
    @Test("The second connection gets the first one's run of lines whole and in order, without the line placed between them, across chunks")
    func runSkipsWhatIsPlacedBetween() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let loop = group.next()
        let flushes = try loop.submit { NIOLoopBound(FlushBatcher(eventLoop: loop, connectionsPerTurn: 128), eventLoop: loop) }.wait()
        let first = try SocketOutputTests.rig(hubLoop: loop, channelLoop: loop, flushes: flushes)
        let second = try SocketOutputTests.rig(hubLoop: loop, channelLoop: loop, flushes: flushes)
        defer { close(first.peer); close(second.peer) }
        // 1600 lines of ~90 bytes: more than two chunks (``LineWriter/turnLinesLimit``).
        let count = 1600
        try loop.submit {
            let between = SharedEvent(SocketOutputTests.NumberedLine(n: 100_000))
            let events = (0..<count).map { SharedEvent(SocketOutputTests.NumberedLine(n: $0)) }
            // The first connection places the lines in its order, another line after line 100.
            first.writer.value.sendShared(run: events[0...100])
            first.writer.value.sendShared(between)
            first.writer.value.sendShared(run: events[101...])
            second.writer.value.sendShared(run: events[...])
        }.wait()
        let firstLines = SocketOutputTests.numbers(SocketOutputTests.readLines(first.peer, through: count - 1, deadline: Date() + 20))
        #expect(Self.firstDifference(firstLines, Array(0...100) + [100_000] + Array(101..<count)) == nil)
        let secondLines = SocketOutputTests.numbers(SocketOutputTests.readLines(second.peer, through: count - 1, deadline: Date() + 20))
        #expect(Self.firstDifference(secondLines, Array(0..<count)) == nil)
        try? first.channel.close().wait()
        try? second.channel.close().wait()
    }

    /// Where `lines` first differ from `expected` ("line 101 is 100000"), or nil.
    static func firstDifference(_ lines: [Int?], _ expected: [Int]) -> String? {
        guard let index = (0..<max(lines.count, expected.count)).first(where: { $0 >= lines.count || $0 >= expected.count || lines[$0] != expected[$0] }) else { return nil }
        return "line \(index) of \(lines.count) is \(index < lines.count ? lines[index].map(String.init) ?? "cut" : "missing"), not \(index < expected.count ? String(expected[index]) : "there")"
    }
}
