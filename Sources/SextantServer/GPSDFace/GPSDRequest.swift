import NIOCore
import SextantGPSD

/// Cuts a gpsd client's bytes into requests (``GPSDRequestScan``). A request longer than
/// `maxLength` is reported once as `.tooLong`.
struct GPSDRequestFramer: ByteToMessageDecoder {
    typealias InboundOut = GPSDFrame

    static let maxLength = GPSDRequestScan.maxLength

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        switch GPSDRequestScan.next(in: buffer.readableBytesView) {
        case .incomplete(let skip):
            buffer.moveReaderIndex(forwardBy: skip)
            return .needMoreData
        case .request(let start, let end):
            buffer.moveReaderIndex(forwardBy: start)
            let request = buffer.readString(length: end - start)!
            buffer.moveReaderIndex(forwardBy: 1)
            context.fireChannelRead(wrapInboundOut(.request(request)))
            return .continue
        case .tooLong:
            buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
            context.fireChannelRead(wrapInboundOut(.tooLong))
            return .needMoreData
        }
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        while try decode(context: context, buffer: &buffer) == .continue {}
        return .needMoreData
    }
}

enum GPSDFrame: Equatable {
    case request(String)
    case tooLong
}
