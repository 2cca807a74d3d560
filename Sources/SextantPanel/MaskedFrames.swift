import NIOCore

/// RFC 6455 §5.1: a server closes the connection (1002) on a client frame that is not
/// masked. Neither NIO's frame decoder nor hummingbird-websocket checks it, so this handler,
/// first in the pipeline, reads the frames' headers in the raw bytes as they pass.
///
/// The first request's head ends the HTTP part; what follows it is frames only if the panel
/// answers 101, which this handler sees go out. A verdict on bytes that came before the 101
/// waits for it; any other answer means no WebSocket, and the handler leaves the pipeline.
final class MaskedFramesHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundIn = IOData
    typealias OutboundOut = IOData

    private var scanner = FrameHeaderScanner()
    private var upgraded = false
    private var refused = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !refused else { return }
        let bytes = unwrapInboundIn(data)
        scanner.read(bytes.readableBytesView)
        if upgraded, scanner.sawUnmasked { return refuse(context: context) }
        context.fireChannelRead(data)
    }

    func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
        if !upgraded {
            if case .byteBuffer(let bytes) = unwrapOutboundIn(data), bytes.readableBytesView.starts(with: "HTTP/1.1 101 ".utf8) {
                upgraded = true
                context.write(data, promise: promise)
                if scanner.sawUnmasked { refuse(context: context) }
                return
            }
            context.write(data, promise: promise)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
            return
        }
        context.write(data, promise: promise)
    }

    /// Close 1002 (protocol error), then the connection.
    private func refuse(context: ChannelHandlerContext) {
        refused = true
        let frame = context.channel.allocator.buffer(bytes: [0x88, 0x02, 0x03, 0xEA])
        context.writeAndFlush(wrapOutboundOut(.byteBuffer(frame))).assumeIsolated().whenComplete { _ in context.close(promise: nil) }
    }
}

/// Finds the end of the first request's head, then walks the frame headers after it,
/// noting one without the mask bit. Pure: bytes in, a verdict out.
struct FrameHeaderScanner {
    /// The last bytes of the head read so far (to find `\r\n\r\n` across reads).
    private var headTail: [UInt8] = []
    private var inFrames = false
    /// The header of the frame being read, until it is complete.
    private var header: [UInt8] = []
    /// Payload bytes still to pass over.
    private var skip: UInt64 = 0
    private(set) var sawUnmasked = false

    /// Reads the next bytes of the connection; a payload is passed over whole, not byte by byte.
    mutating func read<Bytes: RandomAccessCollection<UInt8>>(_ bytes: Bytes) {
        var index = bytes.startIndex
        while index < bytes.endIndex, !sawUnmasked {
            if skip > 0 {
                let step = Int(min(skip, UInt64(bytes.distance(from: index, to: bytes.endIndex))))
                skip -= UInt64(step)
                index = bytes.index(index, offsetBy: step)
                continue
            }
            let byte = bytes[index]
            index = bytes.index(after: index)
            if !inFrames {
                headTail.append(byte)
                if headTail.count > 4 { headTail.removeFirst() }
                if headTail == [13, 10, 13, 10] { inFrames = true }
                continue
            }
            header.append(byte)
            guard let length = Self.headerLength(header), header.count == length else { continue }
            sawUnmasked = header[1] & 0x80 == 0
            skip = Self.payloadLength(header)
            header.removeAll(keepingCapacity: true)
        }
    }

    /// The header's full length once its first two bytes are known.
    static func headerLength(_ header: [UInt8]) -> Int? {
        guard header.count >= 2 else { return nil }
        let short = header[1] & 0x7F
        let extended = short == 126 ? 2 : short == 127 ? 8 : 0
        return 2 + extended + (header[1] & 0x80 != 0 ? 4 : 0)
    }

    static func payloadLength(_ header: [UInt8]) -> UInt64 {
        let short = header[1] & 0x7F
        switch short {
        case 126: return UInt64(header[2]) << 8 | UInt64(header[3])
        case 127: return header[2..<10].reduce(0) { $0 << 8 | UInt64($1) }
        default: return UInt64(short)
        }
    }
}
