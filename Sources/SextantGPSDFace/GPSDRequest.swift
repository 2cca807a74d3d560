import NIOCore
import SextantGPSD

/// Reads a gpsd client's requests as gpsd does: each read on its own
/// (``GPSDRequestReader``), nothing kept from one read to the next, so a client can make
/// nothing grow. The channel reads at most ``GPSDRequestReader/readSize`` bytes at once
/// (the listener's receive allocator), as gpsd.
final class GPSDReadHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = GPSDFrame

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let read = unwrapInboundIn(data)
        for frame in GPSDRequestReader.requests(in: read.readableBytesView) {
            context.fireChannelRead(wrapInboundOut(frame))
        }
    }
}

/// One request a client sent, or the `ERROR` gpsd answers in its place.
typealias GPSDFrame = Result<GPSDRequest, GPSDRequestError>
