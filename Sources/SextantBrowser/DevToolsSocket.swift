import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// A WebSocket client on plain TCP (RFC 6455; no TLS, no extensions), as much of one as a
/// DevTools connection needs: text messages out, text messages in (fragments reassembled),
/// pings and a close answered, frames and messages bounded. The browser's endpoint is
/// `ws://127.0.0.1:PORT/devtools/…`: nothing here speaks TLS, so none is linked.
struct DevToolsSocket {
    /// The largest incoming frame and message, and the most fragments a message may come in.
    struct Limits: Sendable {
        var frameSize: Int
        var messageSize: Int
        var fragments: Int

        /// A target list or a page's script outgrows a small frame: 16 MiB a frame, 64 MiB a message.
        static let devTools = Limits(frameSize: 16 << 20, messageSize: 64 << 20, fragments: 1 << 14)
    }

    enum Failure: Error, CustomStringConvertible, Equatable {
        case unsupported(String)
        case declined(String)

        var description: String {
            switch self {
            case .unsupported(let url): return "\(url): a DevTools address is ws://HOST:PORT/PATH"
            case .declined(let url): return "\(url): the browser declined the WebSocket upgrade"
            }
        }
    }

    private enum Upgrade: Sendable {
        case upgraded(NIOAsyncChannel<WebSocketFrame, WebSocketFrame>)
        case declined
    }

    private let channel: NIOAsyncChannel<WebSocketFrame, WebSocketFrame>

    /// Connects to `url` (`ws://HOST:PORT/PATH`) and upgrades the connection.
    static func connect(to url: String, limits: Limits) async throws -> DevToolsSocket {
        guard url.hasPrefix("ws://"), let (host, port) = try? DevToolsAddress.hostAndPort(url) else { throw Failure.unsupported(url) }
        let afterScheme = url.dropFirst("ws://".count)
        let path = afterScheme.firstIndex(of: "/").map { String(afterScheme[$0...]) } ?? "/"
        // Before connecting: the listener there must be this user's or root's.
        for ip in host == "localhost" ? ["127.0.0.1", "::1"] : [host] {
            try DevToolsPeer.checkListener(ip: ip, port: Int(port), required: host != "localhost")
        }
        let upgrade: EventLoopFuture<Upgrade> = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .connectTimeout(.seconds(5))
            .connect(host: host, port: Int(port)) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.configureUpgradableHTTPClientPipeline(
                        configuration: .init(upgradeConfiguration: upgradeConfiguration(host: host, port: port, path: path, limits: limits)))
                }
            }
        switch try await upgrade.get() {
        case .upgraded(let channel): return DevToolsSocket(channel: channel)
        case .declined: throw Failure.declined(url)
        }
    }

    /// The upgrade request, and the pipeline behind it: NIO's frame decoder (frames over the
    /// limit refused with 1009 and the connection closed) and its aggregator (fragments joined).
    private static func upgradeConfiguration(host: String, port: UInt16, path: String, limits: Limits) -> NIOTypedHTTPClientUpgradeConfiguration<Upgrade> {
        let upgrader = NIOTypedWebSocketClientUpgrader<Upgrade>(maxFrameSize: limits.frameSize) { channel, _ in
            channel.eventLoop.makeCompletedFuture {
                let aggregator = NIOWebSocketFrameAggregator(
                    minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: limits.fragments, maxAccumulatedFrameSize: limits.messageSize)
                try channel.pipeline.syncOperations.addHandler(aggregator)
                return .upgraded(try NIOAsyncChannel(wrappingChannelSynchronously: channel))
            }
        }
        // Chromium refuses a Host that is not an address or localhost (DNS rebinding), and an Origin it was not told of: none is sent.
        let headers = HTTPHeaders([("Host", DevToolsAddress.authority(host, port)), ("Content-Length", "0")])
        return NIOTypedHTTPClientUpgradeConfiguration(
            upgradeRequestHead: HTTPRequestHead(version: .http1_1, method: .GET, uri: path, headers: headers), upgraders: [upgrader],
            notUpgradingCompletionHandler: { channel in
                channel.close(promise: nil)
                return channel.eventLoop.makeSucceededFuture(.declined)
            })
    }

    /// Sends each line of `outgoing` as a text message and hands each text message that
    /// arrives to `received`, until the socket closes: returns when the browser closed it
    /// (its close answered), throws when a frame or message broke the limits or the protocol
    /// (the socket closed with 1009 or 1002 first).
    func exchange(outgoing: AsyncStream<String>, received: (String) -> Void) async throws {
        try await channel.executeThenClose { inbound, outbound in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await line in outgoing {
                        do { try await outbound.write(Self.frame(.text, ByteBuffer(string: line))) } catch { return }
                    }
                }
                defer { group.cancelAll() }
                do {
                    try await Self.read(inbound, answeringOn: outbound, received: received)
                } catch let error as NIOWebSocketFrameAggregator.Error {
                    let tooLarge = error == .accumulatedFrameSizeIsTooLarge || error == .tooManyFragments
                    try? await outbound.write(Self.closeFrame(tooLarge ? .messageTooLarge : .protocolError))
                    throw error
                }
            }
        }
    }

    private static func read(
        _ inbound: NIOAsyncChannelInboundStream<WebSocketFrame>, answeringOn outbound: NIOAsyncChannelOutboundWriter<WebSocketFrame>,
        received: (String) -> Void
    ) async throws {
        for try await incoming in inbound {
            switch incoming.opcode {
            case .text: received(String(buffer: incoming.unmaskedData))
            case .ping: try await outbound.write(frame(.pong, incoming.unmaskedData))
            case .connectionClose:
                // RFC 6455 5.5.1: a close is answered with a close, its status code echoed.
                var data = incoming.unmaskedData
                try await outbound.write(frame(.connectionClose, data.readSlice(length: 2) ?? ByteBuffer()))
                return
            default: continue
            }
        }
    }

    /// A client's frame: masked (RFC 6455 5.3), whole.
    static func frame(_ opcode: WebSocketOpcode, _ data: ByteBuffer) -> WebSocketFrame {
        WebSocketFrame(fin: true, opcode: opcode, maskKey: .random(), data: data)
    }

    static func closeFrame(_ code: WebSocketErrorCode) -> WebSocketFrame {
        var data = ByteBuffer()
        data.write(webSocketErrorCode: code)
        return frame(.connectionClose, data)
    }
}
