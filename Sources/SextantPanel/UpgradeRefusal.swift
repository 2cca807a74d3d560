import Hummingbird
import HummingbirdCore
import HummingbirdWebSocket
import Logging
import NIOCore
import NIOHTTP1

/// hummingbird-websocket answers an upgrade its router refuses (`.dontUpgrade`) with a
/// bare 400 written by its channel (`writeFailedUpgrade`): the router and its middlewares
/// never see the request, so it carries no reason and none of the security headers. This
/// handler, placed ahead of NIO's upgrade handler, decides first (and gives the connection
/// `PanelConnections.headTimeout` to send that first head): an upgrade the panel
/// refuses reaches NIO as a plain request (its `Upgrade` header taken off, `Connection:
/// close`), which NIO hands to the HTTP router, which answers as for any request: 401
/// without the token, 403 for a foreign Host, and for a foreign Origin the `/ws` route's
/// 403 with its reason, every one with the headers.
final class UpgradeRefusalHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias InboundOut = HTTPServerRequestPart

    let admission: WebSocketAdmission
    /// Closes a connection that has not sent its first request's head in time.
    private var headDeadline: Scheduled<Void>?

    init(admission: WebSocketAdmission) { self.admission = admission }

    func handlerAdded(context: ChannelHandlerContext) {
        let channel = context.channel
        headDeadline = context.eventLoop.scheduleTask(in: PanelConnections.headTimeout) { channel.close(promise: nil) }
    }

    func handlerRemoved(context: ChannelHandlerContext) { headDeadline?.cancel() }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(var head) = unwrapInboundIn(data) else { return context.fireChannelRead(data) }
        headDeadline?.cancel()
        if head.headers.contains(name: "upgrade"), admission.refusal(head) != nil {
            head.headers.remove(name: "upgrade")
            head.headers.replaceOrAdd(name: "connection", value: "close")
            context.fireChannelRead(wrapInboundOut(.head(head)))
        } else {
            context.fireChannelRead(data)
        }
        // NIO's upgrade handler looks at the first request only (a later `Upgrade` is
        // redirected to a new connection by hummingbird-websocket); after it the pipeline
        // is a WebSocket's or plain HTTP's.
        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
    }
}

/// hummingbird-websocket's HTTP/1 channel with `UpgradeRefusalHandler` ahead of its
/// upgrade handler, and ahead of everything the peer's share and the frames' mask check.
struct RefusingUpgradeChannel: ServerChildChannel {
    let inner: HTTP1WebSocketUpgradeChannel
    let admission: WebSocketAdmission
    let connections: PanelConnections

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<HTTP1WebSocketUpgradeChannel.Value> {
        let admission = self.admission
        let connections = self.connections
        return inner.setup(channel: channel, logger: logger).flatMapThrowing { value in
            let pipeline = channel.pipeline.syncOperations
            let upgrader = try pipeline.handler(type: NIOTypedHTTPServerUpgradeHandler<HTTP1WebSocketUpgradeChannel.UpgradeResult>.self)
            try pipeline.addHandler(UpgradeRefusalHandler(admission: admission), position: .before(upgrader))
            try pipeline.addHandler(MaskedFramesHandler(), position: .first)
            try pipeline.addHandler(PeerShareHandler(connections: connections), position: .first)
            return value
        }
    }

    func handle(value: HTTP1WebSocketUpgradeChannel.Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
