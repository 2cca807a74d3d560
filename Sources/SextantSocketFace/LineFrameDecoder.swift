import NIOCore
import SextantHub

/// Splits the byte stream into newline-terminated lines of at most `maxLength` bytes
/// (PROTOCOL: 64 KiB). A longer line is reported once; the connection is then closed by
/// the handler, so the decoder stops reading.
struct LineFrameDecoder: ByteToMessageDecoder {
    typealias InboundOut = InboundFrame

    let maxLength: Int
    /// How much of the buffer has been searched for a newline already.
    private var searched = 0
    private var overflowed = false

    init(maxLength: Int) { self.maxLength = maxLength }

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard !overflowed else {
            buffer.moveReaderIndex(forwardBy: buffer.readableBytes)
            return .needMoreData
        }
        let view = buffer.readableBytesView
        if let newline = view[(view.startIndex + searched)...].firstIndex(of: UInt8(ascii: "\n")) {
            let length = newline - view.startIndex
            searched = 0
            if length > maxLength {
                overflowed = true
                context.fireChannelRead(wrapInboundOut(.tooLong))
                return .needMoreData
            }
            let line = buffer.readSlice(length: length)!
            buffer.moveReaderIndex(forwardBy: 1)
            context.fireChannelRead(wrapInboundOut(.line(line)))
            return .continue
        }
        searched = view.count
        if view.count > maxLength {
            overflowed = true
            context.fireChannelRead(wrapInboundOut(.tooLong))
        }
        return .needMoreData
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        // A last line without its newline still counts.
        while try decode(context: context, buffer: &buffer) == .continue {}
        if !overflowed, buffer.readableBytes > 0, let line = buffer.readSlice(length: buffer.readableBytes) {
            context.fireChannelRead(wrapInboundOut(.line(line)))
        }
        return .needMoreData
    }
}
