import Foundation
import Logging
import NIOCore
import NIOEmbedded
import SextantCore
import SextantProtocol
import SextantStore
import SextantTestSupport
import Testing

@testable import SextantDBusFaces
@testable import SextantGPSDFace
@testable import SextantHub
@testable import SextantServer
@testable import SextantSocketFace

/// A hub on NIO's testing event loop, in this process: its sockets (app.sock,
/// control.sock and the gpsd face) are testing channels with the real pipelines (framing,
/// connection handlers), its faces registered as the daemon registers them, its store a
/// real SQLite file, its time the loop's virtual time (`advance(by:)`). What
/// HummingbirdTesting's router tests are to Hummingbird: the hub's dispatch, effects,
/// timers and every face's encoding of an event without spawning `sextantd`.
final class InProcessHub {
    let loop = NIOAsyncTestingEventLoop()
    let hub: HubHandle
    /// The store and any file a test writes (`directory`), removed with the hub.
    private let temporary: TemporaryDirectory
    var directory: String { temporary.path }
    private static let wallStart = Timestamp(nanoseconds: 1_772_352_000_000_000_000)  // 2026-03-01T08:00:00Z

    init(configure: (inout HubConfiguration) -> Void = { _ in }) throws {
        temporary = try TemporaryDirectory("hub")
        let store = try SextantStore(directory: temporary.file("store"))
        var configuration = HubConfiguration()
        configure(&configuration)
        let loop = self.loop
        // Wall time moves with the loop's virtual time, so `time` fields are predictable.
        let start = loop.now
        hub = try HubHandle.make(
            eventLoop: loop, store: store, snapshot: try store.load(), configuration: configuration,
            logger: Logger(label: "test-hub", factory: { _ in SwiftLogNoOpLogHandler() }),
            wallClock: { Self.wallStart.adding(nanoseconds: Int64(loop.now.uptimeNanoseconds - start.uptimeNanoseconds)) }
        ).wait()
    }

    /// The faces, registered on the hub's loop on first use, as the daemon registers them.
    private var faces: NIOLoopBound<(sockets: SocketFace, gpsd: GPSDFace)>?

    private func registeredFaces() async throws -> NIOLoopBound<(sockets: SocketFace, gpsd: GPSDFace)> {
        if let faces { return faces }
        let made = try await hub.submit { hub in
            let sockets = SocketFace(hub: hub)
            let gpsd = GPSDFace(hub: hub)
            hub.register(sockets)
            hub.register(gpsd)
            hub.register(DBusStatusFace())
            return NIOLoopBound((sockets: sockets, gpsd: gpsd), eventLoop: hub.eventLoop)
        }.get()
        faces = made
        return made
    }

    /// A client on one of the two sockets, seen by the hub as `uid`.
    func connect(_ kind: SocketKind, uid: UInt32 = UInt32(getuid())) async throws -> TestClient {
        let channel = NIOAsyncTestingChannel(loop: loop)
        let faces = try await registeredFaces()
        try await loop.submit {
            try channel.pipeline.syncOperations.addHandlers([
                ByteToMessageHandler(LineFrameDecoder(maxLength: SocketListener.maxLineLength)),
                ConnectionHandler(face: faces.value.sockets, kind: kind) { channel in
                    channel.eventLoop.makeSucceededFuture(PeerCredentials(pid: 4242, uid: uid, gid: uid))
                },
            ])
        }.get()
        try await channel.connect(to: SocketAddress(unixDomainSocketPath: "/sextant-test")).get()
        return TestClient(channel: channel)
    }

    /// A client of the gpsd face. Its peer is not a TCP one, so /proc does not tell who it
    /// is: its app id is `gpsd.unknown`, its session open once connected. It has read the
    /// face's `VERSION` banner.
    /// `remote`: a TCP peer address of another machine (no socket of this one has it), the
    /// face's end being 127.0.0.1:2947; else a peer the face cannot look up.
    func connectGPSD(remote: String? = nil) async throws -> GPSDTestClient {
        let channel = NIOAsyncTestingChannel(loop: loop)
        let faces = try await registeredFaces()
        try await loop.submit {
            try channel.pipeline.syncOperations.addHandlers([
                GPSDReadHandler(), GPSDConnectionHandler(face: faces.value.gpsd),
            ])
        }.get()
        if let remote {
            // Set before the connect makes the channel active: the face looks its peer up then.
            channel.localAddress = try SocketAddress(ipAddress: "127.0.0.1", port: 2947)
            channel.remoteAddress = try SocketAddress(ipAddress: remote, port: 40_000)
            try await channel.connect(to: try SocketAddress(ipAddress: remote, port: 40_000)).get()
        } else {
            try await channel.connect(to: SocketAddress(unixDomainSocketPath: "/sextant-test-gpsd")).get()
        }
        let client = GPSDTestClient(channel: channel)
        let banner = try await client.nextReport()
        guard banner["class"] == "VERSION" else { throw TestFailure("the gpsd face began with \(banner), not VERSION") }
        return client
    }

    /// A gpsd client whose peer resets the connection as soon as anything is written to it:
    /// the face's first write fails and the channel closes while the face is still opening
    /// the connection (issue 28.6). Returns once the channel is closed.
    func connectGPSDResettingAtOnce() async throws {
        let channel = NIOAsyncTestingChannel(loop: loop)
        let faces = try await registeredFaces()
        try await loop.submit {
            try channel.pipeline.syncOperations.addHandlers([
                ResetByPeer(), GPSDReadHandler(), GPSDConnectionHandler(face: faces.value.gpsd),
            ])
        }.get()
        try await channel.connect(to: SocketAddress(unixDomainSocketPath: "/sextant-test-gpsd")).get()
        try await channel.closeFuture.get()
    }

    /// Moves the loop's (and so the hub's) clock on, running every timer that falls due.
    func advance(by amount: TimeAmount) async { await loop.advanceTime(by: amount) }

    /// Runs `body` on the hub's loop.
    func onLoop<T: Sendable>(_ body: @escaping @Sendable (Hub) -> T) async throws -> T {
        try await hub.submit(body).get()
    }
}

/// One client connection of an ``InProcessHub``: lines in, lines out.
final class TestClient {
    let channel: NIOAsyncTestingChannel
    private var nextID = 0
    /// Notifications read while looking for a response, in order.
    private(set) var events: [(method: String, params: JSONValue)] = []

    init(channel: NIOAsyncTestingChannel) { self.channel = channel }

    func send(_ line: String) async throws {
        try await channel.writeInbound(ByteBuffer(string: line + "\n"))
    }

    /// Lines of a write already read, not yet parsed: one write may carry several lines
    /// (a connection joins the lines of one turn of the loop).
    private var unreadLines: [Substring] = []

    /// The lines of one write, without their newlines.
    static func lines(_ buffer: ByteBuffer) -> [Substring] {
        String(buffer: buffer).split(separator: "\n", omittingEmptySubsequences: true)
    }

    /// The next line the hub wrote, parsed.
    func nextMessage() async throws -> JSONValue {
        while unreadLines.isEmpty { unreadLines = Self.lines(try await channel.waitForOutboundWrite(as: ByteBuffer.self)) }
        return try JSONValue.parse(String(unreadLines.removeFirst()))
    }

    /// Sends a request and returns its whole response (result or error), keeping the
    /// notifications that came before it in `events`.
    func request(_ method: String, _ params: JSONValue? = nil) async throws -> JSONValue {
        nextID += 1
        var message: [String: JSONValue] = ["jsonrpc": "2.0", "id": .int(Int64(nextID)), "method": .string(method)]
        if let params { message["params"] = params }
        try await send(JSONValue.object(message).serialized())
        return try await response(to: .int(Int64(nextID)))
    }

    /// Reads until the response with this id, keeping notifications in `events`.
    func response(to id: JSONValue) async throws -> JSONValue {
        while true {
            let message = try await nextMessage()
            if message["id"] == id { return message }
            if let method = message["method"]?.stringValue { events.append((method, message["params"] ?? .null)) }
        }
    }

    /// A request's `result`; an error response fails the test with its message.
    func call(_ method: String, _ params: JSONValue? = nil) async throws -> JSONValue {
        let response = try await request(method, params)
        guard let result = response["result"] else {
            throw TestFailure("\(method) failed: \(response["error"].map { "\($0)" } ?? "no result")")
        }
        return result
    }

    /// The error code of a request that must fail.
    func errorCode(_ method: String, _ params: JSONValue? = nil) async throws -> Int? {
        try await request(method, params)["error"]?["code"]?.intValue.map { Int($0) }
    }

    /// Notifications written so far and not yet read, after the ones already kept.
    func drainEvents() async throws -> [(method: String, params: JSONValue)] {
        while let buffer = try await channel.readOutbound(as: ByteBuffer.self) { unreadLines += Self.lines(buffer) }
        for line in unreadLines {
            let message = try JSONValue.parse(String(line))
            if let method = message["method"]?.stringValue { events.append((method, message["params"] ?? .null)) }
        }
        unreadLines = []
        defer { events = [] }
        return events
    }
}

/// One client of the gpsd face of an ``InProcessHub``: requests in, reports out.
final class GPSDTestClient {
    let channel: NIOAsyncTestingChannel
    private var unreadLines: [Substring] = []

    init(channel: NIOAsyncTestingChannel) { self.channel = channel }

    func send(_ request: String) async throws {
        try await channel.writeInbound(ByteBuffer(string: request + "\n"))
    }

    /// The next line the face wrote (a JSON report or an NMEA sentence), without its CR LF.
    func nextLine() async throws -> String {
        while unreadLines.isEmpty {
            let buffer = try await channel.waitForOutboundWrite(as: ByteBuffer.self)
            unreadLines = String(buffer: buffer).split(whereSeparator: { $0 == "\n" || $0 == "\r\n" })
                .map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }.filter { !$0.isEmpty }
        }
        return String(unreadLines.removeFirst())
    }

    /// The next JSON report, skipping NMEA sentences.
    func nextReport() async throws -> JSONValue {
        while true {
            let line = try await nextLine()
            if line.hasPrefix("{") { return try JSONValue.parse(line) }
        }
    }

    /// The next report of class `name`, skipping the others.
    func nextReport(ofClass name: String) async throws -> JSONValue {
        while true {
            let report = try await nextReport()
            if report["class"]?.stringValue == name { return report }
        }
    }

    /// Every report up to the first of class `name` that `matches` (waited for), then those
    /// already written after it: what one decision wrote, whenever it is written.
    func reports(through name: String, where matches: (JSONValue) -> Bool = { _ in true }) async throws -> [JSONValue] {
        var seen: [JSONValue] = []
        while true {
            let report = try await nextReport()
            seen.append(report)
            if report["class"]?.stringValue == name && matches(report) { return seen + (try await drainReports()) }
        }
    }

    /// Reports written so far and not yet read, without waiting.
    func drainReports() async throws -> [JSONValue] {
        while let buffer = try await channel.readOutbound(as: ByteBuffer.self) {
            unreadLines += String(buffer: buffer).split(whereSeparator: { $0 == "\n" || $0 == "\r\n" })
        }
        defer { unreadLines = [] }
        return try unreadLines.map { $0.hasSuffix("\r") ? $0.dropLast() : $0 }.filter { $0.hasPrefix("{") }.map { try JSONValue.parse(String($0)) }
    }
}

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// A peer gone before the first byte reaches it: a write or flush fails with the reset and
/// closes the channel there and then, as a socket's write does on ECONNRESET.
private final class ResetByPeer: ChannelOutboundHandler {
    typealias OutboundIn = NIOAny

    struct ConnectionReset: Error {}

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        promise?.fail(ConnectionReset())
        context.close(promise: nil)
    }

    func flush(context: ChannelHandlerContext) {
        context.close(promise: nil)
    }
}
