import Logging
import NIOCore
import SextantProtocol
import Synchronization

/// How many clients one socket serves at once. Each costs a descriptor and up to a 64 KiB
/// line buffer, so the app socket's share is bounded, and bounded below the process's
/// descriptor limit: apps alone can never take the descriptors the control socket, the
/// store and the sources need.
///
/// Taken and given on the loop each connection lives on (`--io-threads`), so behind a lock.
package final class ConnectionBudget: Sendable {
    package let limit: Int
    /// Connections open on the socket.
    private let open = Mutex(0)
    private let trimmer: HeapTrimmer

    package init(limit: Int, trimmer: HeapTrimmer) {
        self.limit = limit
        self.trimmer = trimmer
    }

    /// Takes a place for a new connection; false when the socket is full.
    package func take() -> Bool {
        open.withLock { open in
            guard open < limit else { return false }
            open += 1
            return true
        }
    }

    package func give() {
        open.withLock { $0 -= 1 }
        trimmer.connectionClosed()
    }
}

/// The whole pipeline of a connection over its socket's budget: one JSON-RPC error line
/// with a null id, then the connection is closed, unread.
package final class RefusingHandler: ChannelInboundHandler {
    package typealias InboundIn = ByteBuffer

    private let budget: ConnectionBudget
    private let kind: SocketKind
    private let logger: Logger

    package init(budget: ConnectionBudget, kind: SocketKind, logger: Logger) {
        self.budget = budget
        self.kind = kind
        self.logger = logger
    }

    package func channelActive(context: ChannelHandlerContext) {
        logger.notice("too many clients: refusing a connection", metadata: ["socket": "\(kind.rawValue)", "limit": "\(budget.limit)"])
        let error = RPCError(.serverBusy, "the \(kind.rawValue) socket serves at most \(budget.limit) clients at once; try again later")
        let line = RPCMessage.errorResponse(id: .null, error: error).line
        let channel = context.channel
        channel.writeAndFlush(channel.allocator.buffer(string: line)).whenComplete { _ in channel.close(promise: nil) }
    }
}
