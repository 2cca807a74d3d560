import Logging
import NIOCore
import NIOPosix
import SextantGPSD
import ServiceLifecycle
import SextantHub

/// Where the gpsd face listens: `[HOST:]PORT` as `--gpsd-listen` takes it. A bare port
/// means 127.0.0.1; an address other than a loopback one is refused unless the daemon was
/// told `--gpsd-listen-any`, since a gpsd client from another machine cannot be told apart
/// by /proc and would be one app, `gpsd.unknown`, for every client there.
public struct GPSDListenAddress: Sendable, Equatable, CustomStringConvertible {
    public var host: String
    public var port: Int

    /// Parses `PORT`, `HOST:PORT` or `[IPV6]:PORT`; nil with the reason in `problem(_:)`.
    public init?(parsing text: String) {
        guard Self.problem(text) == nil, let parsed = Self.split(text) else { return nil }
        (host, port) = parsed
    }

    /// Why `text` is not a listen address, or nil.
    public static func problem(_ text: String) -> String? {
        guard let (host, port) = split(text) else { return "expected PORT, HOST:PORT or [IPV6]:PORT, got \"\(text)\"" }
        guard (0...65535).contains(port) else { return "port \(port) is not within 0...65535" }
        guard !host.isEmpty else { return "the host is empty in \"\(text)\"" }
        return nil
    }

    private static func split(_ text: String) -> (String, Int)? {
        if let port = Int(text) { return ("127.0.0.1", port) }
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            let host = String(text[text.index(after: text.startIndex)..<close])
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":"), let port = Int(rest.dropFirst()) else { return nil }
            return (host, port)
        }
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]) else { return nil }
        let host = String(text[..<colon])
        guard !host.contains(":") else { return nil }  // a bare IPv6 address needs brackets
        return (host, port)
    }

    /// Whether every address the host names is a loopback one (127.0.0.0/8, ::1).
    public func isLoopback() throws -> Bool {
        let address = try SocketAddress.makeAddressResolvingHost(host, port: port)
        switch address {
        case .v4(let v4): return UInt32(bigEndian: v4.address.sin_addr.s_addr) >> 24 == 127
        case .v6(let v6):
            var loopback = in6addr_loopback
            return withUnsafeBytes(of: v6.address.sin6_addr) { a in withUnsafeBytes(of: &loopback) { a.elementsEqual($0) } }
        case .unixDomainSocket: return false
        }
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// The gpsd face's listeners as one of the daemon's services: bound before the daemon says
/// it is ready, closed on SIGTERM or SIGINT with the sockets.
package final class GPSDFaceService: Service, Sendable {
    private let channels: [Channel]

    private init(channels: [Channel]) { self.channels = channels }

    /// Binds every `--gpsd-listen` address; on a failure, those already bound are closed.
    package static func bind(_ addresses: [GPSDListenAddress], allowAny: Bool, hub: HubHandle) async throws(ListenError) -> GPSDFaceService {
        let face: NIOLoopBound<GPSDFace>
        do {
            face = try await hub.submit { hub in
                let face = GPSDFace(hub: hub)
                hub.register(face)
                return NIOLoopBound(face, eventLoop: hub.eventLoop)
            }.get()
        } catch {
            throw ListenError(description: "--gpsd-listen: \(error)")
        }
        let budget = ConnectionBudget(limit: GPSDListener.maxClients, trimmer: HeapTrimmer(eventLoop: hub.eventLoop))
        var channels: [Channel] = []
        do {
            for address in addresses { channels.append(try await GPSDListener.bind(address, allowAny: allowAny, budget: budget, hub: hub, face: face)) }
        } catch {
            for channel in channels { try? await channel.close() }
            throw (error as? ListenError) ?? ListenError(description: "--gpsd-listen: \(error)")
        }
        return GPSDFaceService(channels: channels)
    }

    package func run() async throws {
        try? await gracefulShutdown()
        for channel in channels { try? await channel.close() }
    }
}

/// Binds the gpsd face's TCP listeners on the hub's event loop, so that its handlers call
/// the hub directly.
enum GPSDListener {
    /// gpsd clients served at once, over all the face's listeners: each costs a descriptor
    /// and a /proc scan when it connects. One more hears gpsd's ERROR and is closed.
    static let maxClients = 64
    /// Of those, what one uid other than root's and the daemon's own may hold.
    static let maxClientsPerUser = 16
    /// Of those, what one address of another machine may hold (`--gpsd-listen-any`).
    static let maxClientsPerRemoteAddress = 4
    /// A client that does not watch is closed after this long without a request.
    static let idleTimeout = TimeAmount.seconds(60)

    static func bind(_ address: GPSDListenAddress, allowAny: Bool, budget: ConnectionBudget, hub: HubHandle, face: NIOLoopBound<GPSDFace>) async throws -> Channel {
        let loopback: Bool
        do {
            loopback = try address.isLoopback()
        } catch {
            throw ListenError(description: "--gpsd-listen \(address): cannot resolve \(address.host): \(error)")
        }
        guard loopback || allowAny else {
            throw ListenError(
                description:
                    "--gpsd-listen \(address) is not a loopback address: clients from other machines cannot be identified, so every one would be the same app (gpsd.unknown); add --gpsd-listen-any to allow it")
        }
        let channel: Channel
        do {
            channel = try await ServerBootstrap(group: hub.eventLoop)
                .serverChannelOption(.backlog, value: 64)
                .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
                .childChannelOption(.autoRead, value: false)  // until the peer is identified
                // gpsd's read size: a request is read as gpsd reads it (GPSDReadHandler).
                .childChannelOption(.recvAllocator, value: FixedSizeRecvByteBufferAllocator(capacity: GPSDRequestReader.readSize))
                .childChannelOption(.writeBufferWaterMark, value: .init(low: 16 * 1024, high: 64 * 1024))
                .childChannelInitializer { channel in
                    channel.eventLoop.makeCompletedFuture {
                        let sync = channel.pipeline.syncOperations
                        guard budget.take() else {
                            try sync.addHandler(GPSDRefusingHandler(limit: budget.limit, logger: hub.logger))
                            return
                        }
                        channel.closeFuture.whenComplete { _ in budget.give() }
                        try sync.addHandler(GPSDReadHandler())
                        try sync.addHandler(GPSDConnectionHandler(face: face.value))
                    }
                }
                .bind(host: address.host, port: address.port)
                .get()
        } catch {
            throw ListenError(description: "--gpsd-listen \(address): cannot listen: \(error)")
        }
        let bound = channel.localAddress.map { GPSDListenAddress.bound($0) } ?? address.description
        try await hub.eventLoop.submit { face.value.listening(on: bound) }.get()
        hub.logger.info("gpsd face listening", metadata: ["address": "\(bound)"])
        return channel
    }
}

/// A gpsd client over the face's budget: gpsd's ERROR, then the connection is closed, unread.
final class GPSDRefusingHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let limit: Int
    private let logger: Logger

    init(limit: Int, logger: Logger) {
        self.limit = limit
        self.logger = logger
    }

    func channelActive(context: ChannelHandlerContext) {
        logger.notice("too many gpsd clients: refusing a connection", metadata: ["limit": "\(limit)"])
        let channel = context.channel
        let line = GPSDReport.error("Sextant serves at most \(limit) gpsd clients at once; try again later")
        channel.writeAndFlush(channel.allocator.buffer(string: line)).whenComplete { _ in channel.close(promise: nil) }
    }
}

extension GPSDListenAddress {
    /// A bound socket's address as `status` shows it (with the port the kernel chose for 0).
    static func bound(_ address: SocketAddress) -> String {
        let host = address.ipAddress ?? "?"
        let port = address.port ?? 0
        return host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
    }
}

/// Bridges a gpsd client's channel to the hub: requests in, lifecycle, writability.
final class GPSDConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = GPSDFrame

    private let face: GPSDFace
    private var connection: GPSDConnection?

    init(face: GPSDFace) { self.face = face }

    func channelActive(context: ChannelHandlerContext) {
        connection = face.connectionOpened(channel: context.channel)
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        connection?.handle(unwrapInboundIn(data))
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        connection?.writer.writabilityChanged(context.channel.isWritable)
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        connection = nil  // the face ends it on the channel's close
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        face.hub.logger.debug("gpsd client error", metadata: ["error": "\(error)"])
        context.close(promise: nil)
    }
}
