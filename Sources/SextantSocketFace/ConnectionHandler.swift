import NIOCore
import SextantHub

/// Bridges a channel to the hub: frames in, lifecycle events, writability.
///
/// The channel may live on another loop than the hub's (`--io-threads`): everything the
/// hub is told is run on the hub's loop, in the order the channel saw it (tasks one loop
/// hands another run in the order handed), and at once when both are the same loop. The
/// ``Connection`` is made, used and forgotten on the hub's loop.
final class ConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = InboundFrame

    private let face: NIOLoopBound<SocketFace>
    private let hubLoop: EventLoop
    private let kind: SocketKind
    /// Who the peer is: SO_PEERCRED on a Unix socket; given by in-process tests.
    private let credentials: (Channel) -> EventLoopFuture<PeerCredentials>
    /// The hub's side of this channel, once opened; confined to the hub's loop.
    private let connection: NIOLoopBoundBox<Connection?>

    init(
        face: NIOLoopBound<SocketFace>, hubLoop: EventLoop, kind: SocketKind,
        credentials: @escaping (Channel) -> EventLoopFuture<PeerCredentials> = PeerCredentials.of
    ) {
        self.face = face
        self.hubLoop = hubLoop
        self.kind = kind
        self.credentials = credentials
        self.connection = .makeEmptyBox(valueType: Connection.self, eventLoop: hubLoop)
    }

    /// A handler made on the hub's loop, for a channel on that loop (the in-process tests).
    convenience init(face: SocketFace, kind: SocketKind, credentials: @escaping (Channel) -> EventLoopFuture<PeerCredentials> = PeerCredentials.of) {
        let loop = face.hub.eventLoop
        self.init(face: NIOLoopBound(face, eventLoop: loop), hubLoop: loop, kind: kind, credentials: credentials)
    }

    /// What the channel told before its peer's credentials were known: handed to the hub
    /// after the connection is opened there. nil once it is.
    private var beforeOpening: [@Sendable () -> Void]? = []

    /// Runs `work` on the hub's loop after what was handed before: at once when this is it.
    /// Until the connection is opened there, kept: a peer that writes and closes at once
    /// has its line read (NIO reads at the end of input) before the credentials arrive.
    private func onHub(_ work: @escaping @Sendable () -> Void) {
        if beforeOpening != nil {
            beforeOpening!.append(work)
        } else if hubLoop.inEventLoop {
            work()
        } else {
            hubLoop.execute(work)
        }
    }

    /// The connection is opened on the hub's loop with its peer's credentials known, so
    /// that the hub has them before anything the peer sent (the control socket's check).
    func channelActive(context: ChannelHandlerContext) {
        let channel = context.channel
        credentials(channel).hop(to: channel.eventLoop).assumeIsolated().whenComplete { [self, face, kind, connection] result in
            let waiting = beforeOpening ?? []
            beforeOpening = nil
            onHub { connection.value = face.value.connectionOpened(channel: channel, socket: kind, credentials: result) }
            for work in waiting { onHub(work) }
        }
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        onHub { [face, connection] in
            guard let connection = connection.value else { return }
            face.value.hub.handle(frame, from: connection)
        }
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        // Read here, on the channel's loop: the writer keeps its own copy (``LineWriter``).
        let writable = context.channel.isWritable
        onHub { [connection] in connection.value?.writer.writabilityChanged(writable) }
        context.fireChannelWritabilityChanged()
    }

    /// The client shut down its writing side (or closed): the last line, even without its
    /// newline, has been read and dispatched. The connection stays open for the answers;
    /// it closes when the client closes its end (PROTOCOL "Transport", sextant-protocol(7)).
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed {
            onHub { [face, connection] in
                guard let connection = connection.value else { return }
                face.value.hub.logger.debug("client finished sending", metadata: ["client": "\(connection.label)"])
            }
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        onHub { [face, connection] in
            if let closed = connection.value { face.value.connectionClosed(closed) }
            connection.value = nil
        }
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        onHub { [face] in face.value.hub.logger.debug("connection error", metadata: ["error": "\(error)"]) }
        context.close(promise: nil)
    }
}
