import Foundation
import NIOCore

/// Reads one connection to gpsd on the event loop and hands what it reads to the source:
/// the bytes as they come (so that the source hears gpsd even mid-line), then each line,
/// and the end of the connection with its reason.
///
/// The lines are split by a ``GPSDLineBuffer``, so the connection holds at most 16 KiB of
/// an unfinished line whatever gpsd sends; NIO's own receive buffer is bounded too.
final class GPSDLineHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let source: GPSDSource
    /// Which connection of the source this is: a late event from an older one is ignored.
    private let connection: Int
    private var lines = GPSDLineBuffer()
    /// Why the connection failed, if it did, for the source's log and the `lost` event.
    private var failure: String?

    init(source: GPSDSource, connection: Int) {
        self.source = source
        self.connection = connection
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let bytes = unwrapInboundIn(data)
        source.heard(on: connection)
        bytes.withUnsafeReadableBytes { raw in
            lines.append(raw) { piece in source.received(piece, on: connection) }
        }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if failure == nil {
            // "Connection reset by peer", not NIO's whole description of the failed call.
            failure = (error as? IOError).map { String(cString: strerror($0.errnoCode)) } ?? "\(error)"
        }
        context.close(promise: nil)
    }

    func channelInactive(context: ChannelHandlerContext) {
        source.ended(connection, reason: failure ?? "gpsd closed the connection")
        context.fireChannelInactive()
    }
}
