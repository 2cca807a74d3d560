import Foundation
import Logging
import NIOCore
import SextantHub
import SextantProtocol
import SextantSocket
import Synchronization

/// One descriptor held back for the moment the process runs out.
///
/// At the descriptor limit `accept` fails with EMFILE and the connection stays queued, so
/// the listening socket stays readable and the loop would wake at once, fail again, and
/// spin (NIO keeps asking to read after such an error). With the reserve given up for an
/// instant, each queued connection can be accepted, told why, and closed: the queue
/// empties and the loop sleeps until the next client comes.
///
/// Both listeners share it; the lock keeps one from refusing while the other has the
/// reserve given up.
package final class DescriptorReserve: Sendable {
    private let descriptor = Mutex(DescriptorReserve.spare())

    package init() {}

    /// A descriptor to hold; without one to spare, the next shortage tries again.
    private static func spare() -> OwnedDescriptor? {
        let fd = open("/dev/null", O_RDONLY | O_CLOEXEC)
        return fd >= 0 ? OwnedDescriptor(adopting: fd) : nil
    }

    /// Accepts every connection queued on `listener` and closes it after one error line;
    /// the number refused.
    func refusePending(on listener: Int32, line: String) -> Int {
        descriptor.withLock { descriptor in
            descriptor = nil  // closed: one descriptor free for the accepts below
            defer { descriptor = Self.spare() }
            return Self.acceptAndRefuse(on: listener, line: line)
        }
    }

    private static func acceptAndRefuse(on listener: Int32, line: String) -> Int {
        var refused = 0
        while true {
            // The listener is non-blocking (NIO made it so): this stops at EAGAIN. The client
            // lives for two calls, and the daemon never forks, so close-on-exec is moot.
            let client = accept(listener, nil, nil)
            guard client >= 0 else { break }
            _ = line.withCString { send(client, $0, strlen($0), Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT)) }
            close(client)
            refused += 1
        }
        return refused
    }
}

/// On a listening channel: when accepting fails for want of descriptors, refuses what is
/// queued through the reserve (with error -32000) instead of letting the loop spin.
final class OutOfDescriptorsHandler: ChannelInboundHandler {
    typealias InboundIn = Channel

    private let listener: Int32
    private let reserve: DescriptorReserve
    private let kind: SocketKind
    private let logger: Logger

    init(listener: Int32, reserve: DescriptorReserve, kind: SocketKind, logger: Logger) {
        self.listener = listener
        self.reserve = reserve
        self.kind = kind
        self.logger = logger
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        guard let ioError = error as? IOError, [EMFILE, ENFILE].contains(ioError.errnoCode) else {
            context.fireErrorCaught(error)
            return
        }
        let message = RPCError(.serverBusy, "sextantd is out of file descriptors; try again later")
        let refused = reserve.refusePending(on: listener, line: RPCMessage.errorResponse(id: .null, error: message).line)
        logger.warning("out of descriptors: refused the clients waiting", metadata: ["socket": "\(kind.rawValue)", "refused": "\(refused)"])
    }
}
