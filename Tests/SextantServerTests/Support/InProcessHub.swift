import Foundation
import Logging
import NIOCore
import NIOEmbedded
import SextantCore
import SextantProtocol
import SextantStore
import Testing

@testable import SextantServer

/// A hub on NIO's testing event loop, in this process: its sockets are testing channels
/// with the real pipeline (line framing, connection handler), its store a real SQLite
/// file, its time the loop's virtual time (`advance(by:)`). What HummingbirdTesting's
/// router tests are to Hummingbird: the hub's dispatch, effects and timers without
/// spawning `sextantd`.
final class InProcessHub: @unchecked Sendable {
    let loop = NIOAsyncTestingEventLoop()
    let hub: Hub
    let directory: String
    private static let wallStart = Timestamp(nanoseconds: 1_772_352_000_000_000_000)  // 2026-03-01T08:00:00Z

    init(configure: (inout HubConfiguration) -> Void = { _ in }) throws {
        directory = NSTemporaryDirectory() + "sextant-hub-" + UUID().uuidString.prefix(8)
        let store = try SextantStore(directory: directory)
        var configuration = HubConfiguration()
        configure(&configuration)
        let loop = self.loop
        // Wall time moves with the loop's virtual time, so `time` fields are predictable.
        let start = loop.now
        hub = Hub(
            eventLoop: loop, store: store, snapshot: try store.load(), configuration: configuration,
            logger: Logger(label: "test-hub", factory: { _ in SwiftLogNoOpLogHandler() }),
            wallClock: { Self.wallStart.adding(nanoseconds: Int64(loop.now.uptimeNanoseconds - start.uptimeNanoseconds)) })
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    /// A client on one of the two sockets, seen by the hub as `uid`.
    func connect(_ kind: SocketKind, uid: UInt32 = UInt32(getuid())) async throws -> TestClient {
        let channel = NIOAsyncTestingChannel(loop: loop)
        let hub = self.hub
        try await channel.pipeline.addHandlers([
            ByteToMessageHandler(LineFrameDecoder(maxLength: SocketListener.maxLineLength)),
            ConnectionHandler(hub: hub, kind: kind) { channel in
                channel.eventLoop.makeSucceededFuture(PeerCredentials(pid: 4242, uid: uid, gid: uid))
            },
        ]).get()
        try await channel.connect(to: SocketAddress(unixDomainSocketPath: "/sextant-test")).get()
        return TestClient(channel: channel)
    }

    /// Moves the loop's (and so the hub's) clock on, running every timer that falls due.
    func advance(by amount: TimeAmount) async { await loop.advanceTime(by: amount) }

    /// Runs `body` on the hub's loop.
    func onLoop<T: Sendable>(_ body: @escaping @Sendable (Hub) -> T) async throws -> T {
        let hub = self.hub
        return try await loop.submit { body(hub) }.get()
    }
}

/// One client connection of an ``InProcessHub``: lines in, lines out.
final class TestClient: @unchecked Sendable {
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

struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
