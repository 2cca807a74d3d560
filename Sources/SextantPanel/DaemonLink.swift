import NIOCore
import NIOPosix
import SextantClient
import SextantProtocol
import Synchronization

/// One connection to the daemon's control.sock, on NIO: requests under the panel's own ids,
/// their answers matched back, and (on a watching link) each later line handed on as the
/// daemon's bytes, unparsed, to be passed to the pages as they are.
final class DaemonLink: Sendable {
    let path: String
    private let channel: NIOAsyncChannel<ByteBuffer, ByteBuffer>
    private let calls = Mutex(PendingCalls())
    private let outgoing: AsyncStream<ByteBuffer>.Continuation
    private let outgoingLines: AsyncStream<ByteBuffer>

    struct PendingCalls {
        var nextID: Int64 = 0
        var waiting: [Int64: CheckedContinuation<Result<JSONValue, RPCError>, Never>] = [:]
        /// Set once the daemon closed the connection: later calls fail at once.
        var closed = false
        /// After `watch` is answered, every line is an event.
        var watching = false
    }

    /// Connects to `path`, trusting only the daemon a `sextantctl` of this user would.
    init(path: String) async throws {
        self.path = path
        let descriptor = try SextantConnection.connectTrusted(path: path)
        let fd = descriptor.release()
        channel = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).withConnectedSocket(fd) { channel in
            channel.eventLoop.makeCompletedFuture { try NIOAsyncChannel<ByteBuffer, ByteBuffer>(wrappingChannelSynchronously: channel) }
        }
        let (lines, continuation) = AsyncStream.makeStream(of: ByteBuffer.self)
        outgoingLines = lines
        outgoing = continuation
    }

    static let gone = RPCError(code: -32000, message: "the daemon closed the control connection")

    /// A request, forwarded as the browser wrote it, and the daemon's own answer.
    func call(_ method: String, _ params: JSONValue?) async -> Result<JSONValue, RPCError> {
        await withCheckedContinuation { continuation in
            let id: Int64? = calls.withLock { calls in
                guard !calls.closed else { return nil }
                calls.nextID += 1
                calls.waiting[calls.nextID] = continuation
                return calls.nextID
            }
            guard let id else { return continuation.resume(returning: .failure(Self.gone)) }
            outgoing.yield(ByteBuffer(string: RPCMessage.request(id: .int(id), method: method, params: params).line))
        }
    }

    /// Asks for every event; from its answer on, `onEvent` gets each line.
    func watch() async -> Result<JSONValue, RPCError> {
        calls.withLock { $0.watching = true }
        return await call("watch", nil)
    }

    /// Reads and writes until the daemon closes the connection; then every call waiting is
    /// answered with an error.
    func run(onEvent: @escaping @Sendable (ByteBuffer) -> Void) async {
        defer { closeCalls() }
        try? await channel.executeThenClose { inbound, outbound in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    for await line in self.outgoingLines { try await outbound.write(line) }
                }
                var reader = LineSplitter()
                for try await chunk in inbound {
                    reader.append(chunk)
                    while let line = reader.next() { take(line, onEvent: onEvent) }
                }
                group.cancelAll()
            }
        }
    }

    private func take(_ line: ByteBuffer, onEvent: @Sendable (ByteBuffer) -> Void) {
        // The daemon sends nothing on a watching link but events once `watch` is answered:
        // they pass unparsed (the pages parse them).
        let answered = calls.withLock { $0.watching && $0.waiting.isEmpty }
        if answered {
            onEvent(line)
            return
        }
        guard let value = try? JSONValue.parse(bytes: line.readableBytesView), case .success(let message) = RPCMessage.decode(value) else { return }
        let (id, result): (JSONValue, Result<JSONValue, RPCError>)
        switch message {
        case .response(let answered, let value): (id, result) = (answered, .success(value))
        case .errorResponse(let answered, let error): (id, result) = (answered, .failure(error))
        case .notification: return onEvent(line)
        case .request: return
        }
        guard case .int(let number) = id, let waiter = calls.withLock({ $0.waiting.removeValue(forKey: number) }) else { return }
        waiter.resume(returning: result)
    }

    private func closeCalls() {
        outgoing.finish()
        let waiting = calls.withLock { calls in
            calls.closed = true
            defer { calls.waiting = [:] }
            return Array(calls.waiting.values)
        }
        for waiter in waiting { waiter.resume(returning: .failure(Self.gone)) }
    }
}

/// Newline-delimited lines out of the chunks a socket delivers, each a slice of the chunk
/// it ended in (no copy when a line lies in one chunk).
struct LineSplitter {
    private var pending = ByteBuffer()

    mutating func append(_ chunk: ByteBuffer) {
        if pending.readableBytes == 0 {
            pending = chunk
        } else {
            var chunk = chunk
            pending.writeBuffer(&chunk)
        }
    }

    mutating func next() -> ByteBuffer? {
        guard let newline = pending.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        let length = newline - pending.readerIndex
        let line = pending.readSlice(length: length)
        pending.moveReaderIndex(forwardBy: 1)
        return line
    }
}
