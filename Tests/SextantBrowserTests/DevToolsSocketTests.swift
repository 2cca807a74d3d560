import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket
import Synchronization
import Testing

@testable import SextantBrowser

/// The bridge's WebSocket client against a NIO WebSocket server on loopback whose side of
/// the connection each test writes frame by frame. The client speaks first, as a DevTools
/// client does, and the server writes only once it has heard it: frames that reach NIO's
/// client while it is still completing the upgrade can be lost (seen under load: the bytes
/// read from the socket, none handed on, the exchange waiting for ever), and a browser never
/// speaks before it is asked.
@Suite("The DevTools WebSocket client: fragments, pings, close, limits", .timeLimit(.minutes(1)))
struct DevToolsSocketTests {
    static let small = DevToolsSocket.Limits(frameSize: 1024, messageSize: 1500, fragments: 8)

    /// The client's first (and only) message, which the server waits for before it writes.
    static func firstWord() -> AsyncStream<String> {
        AsyncStream { $0.yield(#"{"id":1,"method":"Target.getTargets"}"#) }
    }

    @Test("A fragmented message arrives whole, a ping is answered, sent lines are masked, a close is answered; no Origin is sent")
    func fragmentsPingAndClose() async throws {
        let (outgoing, lines) = AsyncStream.makeStream(of: String.self)
        lines.yield(#"{"id":1,"method":"Browser.getVersion"}"#)
        let outcome = try await ScriptedWebSocketServer.exchange(limits: Self.small, outgoing: outgoing) { frames, outbound in
            var heard = try await frames.take(1)
            try await outbound.write(WebSocketFrame(fin: false, opcode: .text, data: ByteBuffer(string: #"{"id":1,"#)))
            try await outbound.write(WebSocketFrame(fin: false, opcode: .continuation, data: ByteBuffer(string: #""result":"#)))
            try await outbound.write(WebSocketFrame(fin: true, opcode: .continuation, data: ByteBuffer(string: "{}}")))
            try await outbound.write(WebSocketFrame(fin: true, opcode: .ping, data: ByteBuffer(string: "ping-7")))
            try await outbound.write(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(string: "after")))
            heard += try await frames.take(1)
            var code = ByteBuffer()
            code.write(webSocketErrorCode: .normalClosure)
            try await outbound.write(WebSocketFrame(fin: true, opcode: .connectionClose, data: code))
            heard += try await frames.take(1)
            return heard
        }
        #expect(outcome.failure == nil && outcome.received == [#"{"id":1,"result":{}}"#, "after"])
        let heard = outcome.heard
        let text = heard.first { $0.opcode == .text }
        #expect(text.map { String(buffer: $0.unmaskedData) } == #"{"id":1,"method":"Browser.getVersion"}"#)
        #expect(text?.maskKey != nil, "RFC 6455 5.3: a client masks what it sends")
        #expect(heard.first { $0.opcode == .pong }.map { String(buffer: $0.unmaskedData) } == "ping-7")
        #expect(heard.last?.opcode == .connectionClose && heard.last?.closeCode == .normalClosure)
        // Chromium refuses an Origin it was not told of (--remote-allow-origins), and a Host that is not an address.
        let headers = try #require(outcome.upgradeHeaders)
        #expect(headers["Host"] == ["127.0.0.1:\(outcome.port)"] && headers["Origin"].isEmpty)
    }

    @Test("A frame over the limit is refused: closed with 1009, nothing of it handed on")
    func oversizeFrameRefused() async throws {
        let outcome = try await ScriptedWebSocketServer.exchange(limits: Self.small, outgoing: Self.firstWord()) { frames, outbound in
            _ = try await frames.take(1)
            try await outbound.write(WebSocketFrame(fin: true, opcode: .text, data: ByteBuffer(repeating: 0x61, count: 2000)))
            return try await frames.take(1)
        }
        #expect(outcome.received.isEmpty)
        #expect(outcome.heard.map(\.opcode) == [.connectionClose] && outcome.heard.first?.closeCode == .messageTooLarge)
    }

    @Test("A message whose fragments outgrow the limit is refused with 1009, each fragment within the frame limit")
    func oversizeMessageRefused() async throws {
        let outcome = try await ScriptedWebSocketServer.exchange(limits: Self.small, outgoing: Self.firstWord()) { frames, outbound in
            _ = try await frames.take(1)
            try await outbound.write(WebSocketFrame(fin: false, opcode: .text, data: ByteBuffer(repeating: 0x61, count: 1000)))
            try await outbound.write(WebSocketFrame(fin: true, opcode: .continuation, data: ByteBuffer(repeating: 0x61, count: 1000)))
            return try await frames.take(1)
        }
        #expect(outcome.failure != nil && outcome.received.isEmpty)
        #expect(outcome.heard.map(\.opcode) == [.connectionClose] && outcome.heard.first?.closeCode == .messageTooLarge)
    }
}

extension WebSocketFrame {
    var closeCode: WebSocketErrorCode? {
        var data = unmaskedData
        return data.readWebSocketErrorCode()
    }
}

extension NIOAsyncChannelInboundStream<WebSocketFrame>.AsyncIterator {
    /// The next `count` frames; fewer if the connection ends first.
    mutating func take(_ count: Int) async throws -> [WebSocketFrame] {
        var frames: [WebSocketFrame] = []
        while frames.count < count, let frame = try await next() { frames.append(frame) }
        return frames
    }
}

/// A WebSocket server on 127.0.0.1 for one connection: `script` writes the server's frames
/// and reads the client's.
enum ScriptedWebSocketServer {
    typealias Script = @Sendable (
        inout NIOAsyncChannelInboundStream<WebSocketFrame>.AsyncIterator, NIOAsyncChannelOutboundWriter<WebSocketFrame>
    ) async throws -> [WebSocketFrame]

    /// What the client received, what the server heard, and the error the client's exchange
    /// ended with, if any.
    struct Outcome {
        var port: Int
        var upgradeHeaders: HTTPHeaders?
        var received: [String] = []
        var heard: [WebSocketFrame] = []
        var failure: (any Error)?
    }

    /// The headers of the upgrade request the server answered.
    final class UpgradeRequest: Sendable {
        let headers = Mutex<HTTPHeaders?>(nil)
    }

    /// Runs the client's exchange against `script`.
    static func exchange(
        limits: DevToolsSocket.Limits, outgoing: AsyncStream<String> = AsyncStream { $0.finish() }, script: @escaping Script
    ) async throws -> Outcome {
        let request = UpgradeRequest()
        let server = try await listen(request)
        let port = try #require(server.channel.localAddress?.port)
        return try await withThrowingTaskGroup(of: [WebSocketFrame].self) { group in
            group.addTask { try await serveOne(server, script) }
            let socket = try await DevToolsSocket.connect(to: "ws://127.0.0.1:\(port)/devtools/browser/test", limits: limits)
            var outcome = Outcome(port: port)
            do {
                try await socket.exchange(outgoing: outgoing) { outcome.received.append($0) }
            } catch {
                outcome.failure = error
            }
            outcome.heard = try await group.next() ?? []
            outcome.upgradeHeaders = request.headers.withLock { $0 }
            return outcome
        }
    }

    private typealias Listener = NIOAsyncChannel<EventLoopFuture<NIOAsyncChannel<WebSocketFrame, WebSocketFrame>>, Never>

    private static func listen(_ request: UpgradeRequest) async throws -> Listener {
        try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0) { channel in
            channel.eventLoop.makeCompletedFuture {
                let upgrader = NIOTypedWebSocketServerUpgrader<NIOAsyncChannel<WebSocketFrame, WebSocketFrame>>(
                    shouldUpgrade: { channel, head in
                        request.headers.withLock { $0 = head.headers }
                        return channel.eventLoop.makeSucceededFuture(HTTPHeaders())
                    },
                    upgradePipelineHandler: { channel, _ in
                        channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel(wrappingChannelSynchronously: channel) }
                    })
                let configuration = NIOTypedHTTPServerUpgradeConfiguration(
                    upgraders: [upgrader], notUpgradingCompletionHandler: { $0.eventLoop.makeFailedFuture(ChannelError.inappropriateOperationForState) })
                return try channel.pipeline.syncOperations.configureUpgradableHTTPServerPipeline(configuration: .init(upgradeConfiguration: configuration))
            }
        }
    }

    private static func serveOne(_ server: Listener, _ script: Script) async throws -> [WebSocketFrame] {
        try await server.executeThenClose { connections in
            var accepted = connections.makeAsyncIterator()
            guard let upgrade = try await accepted.next() else { return [] }
            return try await upgrade.get().executeThenClose { inbound, outbound in
                var frames = inbound.makeAsyncIterator()
                return try await script(&frames, outbound)
            }
        }
    }
}
