import NIOCore
import NIOPosix

/// Chromium's `--remote-debugging-pipe`: the bridge writes commands to the browser's
/// descriptor 3 and reads answers and events from its 4, each message a JSON object ended by
/// a NUL byte. No port: only the process holding the pipe's ends can drive the browser.
/// Incoming messages are bounded as the WebSocket's are (64 MiB).
struct DevToolsPipe {
    /// The bridge's ends of the two pipes.
    struct Ends: Sendable {
        var commands: Int32
        var answers: Int32
    }

    private let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>

    /// Takes the descriptors over (closed with the connection).
    static func open(_ ends: Ends, messageLimit: Int) async throws -> DevToolsPipe {
        let channel = try await NIOPipeBootstrap(group: MultiThreadedEventLoopGroup.singleton)
            .takingOwnershipOfDescriptors(input: ends.answers, output: ends.commands) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(ByteToMessageHandler(NULFramedMessages(limit: messageLimit)))
                    return try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel)
                }
            }
        return DevToolsPipe(channel: channel)
    }

    /// Sends each line of `outgoing` NUL-terminated and hands each message that arrives to
    /// `received`, until the browser closes its end; throws when a message broke the limit.
    func exchange(outgoing: AsyncStream<String>, received: (String) -> Void) async throws {
        try await channel.executeThenClose { inbound, outbound in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await line in outgoing {
                        var message = ByteBuffer(string: line)
                        message.writeInteger(UInt8(0))
                        do { try await outbound.write(message) } catch { return }
                    }
                }
                defer { group.cancelAll() }
                for try await message in inbound { received(String(buffer: message)) }
            }
        }
    }
}

/// A message longer than the limit came on the DevTools pipe.
struct PipeMessageTooLarge: Error, CustomStringConvertible {
    var limit: Int
    var description: String { "the browser sent a DevTools message over \(limit) bytes on its pipe" }
}

/// NUL-terminated messages, each at most `limit` bytes: a longer one is an error, never
/// gathered. The search for the NUL goes on from where it stopped, so a message arriving
/// in many reads is scanned once.
struct NULFramedMessages: ByteToMessageDecoder {
    typealias InboundOut = ByteBuffer
    let limit: Int
    /// How many bytes after the reader index hold no NUL.
    private var searched = 0

    init(limit: Int) { self.limit = limit }

    mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        guard let message = try take(from: &buffer) else { return .needMoreData }
        context.fireChannelRead(wrapInboundOut(message))
        return .continue
    }

    mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws -> DecodingState {
        try decode(context: context, buffer: &buffer)
    }

    /// The next whole message, its NUL consumed; nil while it is incomplete.
    mutating func take(from buffer: inout ByteBuffer) throws -> ByteBuffer? {
        let view = buffer.readableBytesView
        guard let end = view[(view.startIndex + searched)...].firstIndex(of: 0) else {
            searched = view.count
            if searched > limit { throw PipeMessageTooLarge(limit: limit) }
            return nil
        }
        let length = end - view.startIndex
        if length > limit { throw PipeMessageTooLarge(limit: limit) }
        searched = 0
        let message = buffer.readSlice(length: length)
        buffer.moveReaderIndex(forwardBy: 1)
        return message
    }
}
