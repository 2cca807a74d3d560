import Foundation
import NIOCore
import SextantSocket
import Synchronization

/// What the panel holds open, bounded as the daemon bounds its sockets: each connection
/// has `headTimeout` to send its first request's head; each peer (a local user, found by
/// the uid that owns its end of the loopback connection; a remote host by its address) but
/// the panel's own user and root has a share of connections; and all of them stay under the descriptor limit, with a reserve
/// for the daemon's link and the files the panel reads, so that `accept` never meets EMFILE.
final class PanelConnections: Sendable {
    static let headTimeout: TimeAmount = .seconds(10)
    /// A kept-alive HTTP connection with no request this long is closed.
    static let idleTimeout: TimeAmount = .seconds(60)
    /// One peer's connections at once: a browser's six per host, a few tabs' WebSockets.
    static let perPeer = 32
    /// Descriptors kept for everything but connections.
    static let reserve = 64

    /// The connections accepted at most (Hummingbird stops accepting at this many).
    let total: Int
    private let open = Mutex([PeerKey: Int]())

    init(total: Int = PanelConnections.descriptorLimit() - PanelConnections.reserve) {
        self.total = max(total, 1)
    }

    static func descriptorLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        return Int(min(limit.rlim_cur, 1 << 20))
    }

    /// The users without a share: the panel's own (who holds the token, and could stop the
    /// panel anyway) and root, as the daemon's gpsd face exempts them.
    let exempt: Set<uid_t> = [0, getuid()]

    /// Takes a place for a connection of `peer`; false when its share is used up.
    func take(_ peer: PeerKey) -> Bool {
        open.withLock { open in
            let held = open[peer, default: 0]
            if case .user(let uid) = peer, exempt.contains(uid) {
                open[peer] = held + 1
                return true
            }
            guard held < Self.perPeer else { return false }
            open[peer] = held + 1
            return true
        }
    }

    func give(_ peer: PeerKey) {
        open.withLock { open in
            let held = open[peer, default: 1] - 1
            open[peer] = held > 0 ? held : nil
        }
    }
}

/// Whose connection it is.
enum PeerKey: Hashable, CustomStringConvertible {
    case user(uid_t)
    case host(String)

    var description: String {
        switch self {
        case .user(let uid): return "uid \(uid)"
        case .host(let address): return address
        }
    }

    /// The uid owning the peer's socket when it is on this machine, else its address.
    static func of(remote: SocketAddress?, local: SocketAddress?) -> PeerKey {
        if let remote, let local, let uid = owner(remote: remote, local: local) { return .user(uid) }
        return .host(remote?.ipAddress ?? "unknown")
    }

    /// The uid owning a loopback connection's other end, asked of the kernel for that one
    /// socket (sock_diag): nil for a peer on another machine.
    static func owner(remote: SocketAddress, local: SocketAddress) -> uid_t? {
        guard let from = remote.ipAddress, let fromPort = remote.port, let to = local.ipAddress, let toPort = local.port else { return nil }
        return SocketDiag()?.tcpSocket(source: (from, fromPort), destination: (to, toPort))?.uid
    }
}

/// The first handler of every connection: over its peer's share, a 503 and the connection
/// closed unread; else its place given back when it closes.
final class PeerShareHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer

    let connections: PanelConnections

    init(connections: PanelConnections) { self.connections = connections }

    private var peer: PeerKey?
    private var refused = false

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { admit(context: context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        if peer == nil && !refused { admit(context: context) }
        if !refused { context.fireChannelActive() }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if !refused { context.fireChannelRead(data) }
    }

    private func admit(context: ChannelHandlerContext) {
        let peer = PeerKey.of(remote: context.channel.remoteAddress, local: context.channel.localAddress)
        guard connections.take(peer) else {
            refused = true
            let text = "The panel serves at most \(PanelConnections.perPeer) connections of one peer (\(peer)) at once.\n"
            let reply = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(text.utf8.count)\r\nConnection: close\r\n\r\n" + text
            context.writeAndFlush(NIOAny(context.channel.allocator.buffer(string: reply))).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
            return
        }
        self.peer = peer
        let connections = self.connections
        context.channel.closeFuture.whenComplete { _ in connections.give(peer) }
    }
}
