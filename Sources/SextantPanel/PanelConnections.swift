import Foundation
import NIOCore
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
        if let remote, let local, let uid = LoopbackOwner.uid(remote: remote, local: local) { return .user(uid) }
        return .host(remote?.ipAddress ?? "unknown")
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

/// The uid that owns a loopback TCP connection's other end, asked of the kernel through
/// sock_diag (netlink): the one socket whose source is the peer's address and port and
/// whose destination is ours. An exact lookup, where /proc/net/tcp would list every socket.
enum LoopbackOwner {
    static func uid(remote: SocketAddress, local: SocketAddress) -> uid_t? {
        guard let request = request(remote: remote, local: local) else { return nil }
        let fd = socket(AF_NETLINK, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 4 /* NETLINK_SOCK_DIAG */)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var timeout = timeval(tv_sec: 1, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        guard request.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, 0) }) == request.count else { return nil }
        var answer = [UInt8](repeating: 0, count: 8192)
        let count = answer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return uid(inAnswer: Array(answer[..<count]))
    }

    /// An nlmsghdr and an inet_diag_req_v2 asking for the TCP socket `remote` → `local`.
    static func request(remote: SocketAddress, local: SocketAddress) -> [UInt8]? {
        guard var from = addressBytes(remote), var to = addressBytes(local), from.family == to.family,
            let sport = remote.port, let dport = local.port
        else { return nil }
        // An IPv4 client of a dual-stack (`::`) listener: its own socket is an IPv4 one.
        if let v4from = mappedIPv4(from), let v4to = mappedIPv4(to) { (from, to) = (v4from, v4to) }
        var message: [UInt8] = []
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value) { message += $0 } }
        append(UInt32(16 + 56))  // nlmsg_len
        append(UInt16(20))  // SOCK_DIAG_BY_FAMILY
        append(UInt16(1))  // NLM_F_REQUEST: one socket, no dump
        append(UInt32(1))  // seq
        append(UInt32(0))  // pid
        message += [from.family, UInt8(IPPROTO_TCP), 0, 0]
        append(UInt32.max)  // every state
        append(UInt16(sport).bigEndian)
        append(UInt16(dport).bigEndian)
        message += from.bytes + to.bytes
        append(UInt32(0))  // any interface
        append(UInt32.max)  // INET_DIAG_NOCOOKIE
        append(UInt32.max)
        return message
    }

    /// The idiag_uid of the answer's inet_diag_msg; nil for an error (no such socket).
    static func uid(inAnswer answer: [UInt8]) -> uid_t? {
        // nlmsghdr (16), then family, state, timer, retrans (4), the socket id (48),
        // expires, rqueue, wqueue (12), uid.
        guard answer.count >= 16 + 68 else { return nil }
        let type = UInt16(answer[4]) | UInt16(answer[5]) << 8
        guard type == 20 else { return nil }
        return answer[80..<84].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
    }

    /// `::ffff:a.b.c.d` as the IPv4 address it stands for.
    static func mappedIPv4(_ address: (family: UInt8, bytes: [UInt8])) -> (family: UInt8, bytes: [UInt8])? {
        guard address.family == UInt8(AF_INET6), address.bytes.prefix(12) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF] else { return nil }
        return (UInt8(AF_INET), Array(address.bytes[12..<16]) + [UInt8](repeating: 0, count: 12))
    }

    /// The address family and its 16 bytes as the socket id holds them (IPv4 in the first 4).
    static func addressBytes(_ address: SocketAddress) -> (family: UInt8, bytes: [UInt8])? {
        switch address {
        case .v4(let v4):
            var raw = v4.address.sin_addr
            return (UInt8(AF_INET), withUnsafeBytes(of: &raw) { Array($0) } + [UInt8](repeating: 0, count: 12))
        case .v6(let v6):
            var raw = v6.address.sin6_addr
            return (UInt8(AF_INET6), withUnsafeBytes(of: &raw) { Array($0) })
        default:
            return nil
        }
    }
}
