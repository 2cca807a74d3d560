import NIOCore

/// Bridges a channel to the hub: frames in, lifecycle events, writability.
final class ConnectionHandler: ChannelInboundHandler {
    typealias InboundIn = InboundFrame

    private let face: SocketFace
    private let kind: SocketKind
    /// Who the peer is: SO_PEERCRED on a Unix socket; given by in-process tests.
    private let credentials: (Channel) -> EventLoopFuture<PeerCredentials>
    private var connection: Connection?

    init(face: SocketFace, kind: SocketKind, credentials: @escaping (Channel) -> EventLoopFuture<PeerCredentials> = PeerCredentials.of) {
        self.face = face
        self.kind = kind
        self.credentials = credentials
    }

    func channelActive(context: ChannelHandlerContext) {
        connection = face.connectionOpened(channel: context.channel, socket: kind, credentials: credentials(context.channel))
        context.fireChannelActive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard let connection else { return }
        face.hub.received(unwrapInboundIn(data), on: connection)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        connection?.writer.flushOutbox()
        context.fireChannelWritabilityChanged()
    }

    /// The client shut down its writing side (or closed): the last line, even without its
    /// newline, has been read and dispatched. The connection stays open for the answers;
    /// it closes when the client closes its end (PROTOCOL "Transport", sextant-protocol(7)).
    func userInboundEventTriggered(context: ChannelHandlerContext, event: Any) {
        if let event = event as? ChannelEvent, event == .inputClosed, let connection {
            face.hub.logger.debug("client finished sending", metadata: ["client": "\(connection.label)"])
        }
        context.fireUserInboundEventTriggered(event)
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let connection { face.connectionClosed(connection) }
        connection = nil
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        face.hub.logger.debug("connection error", metadata: ["error": "\(error)"])
        context.close(promise: nil)
    }
}
