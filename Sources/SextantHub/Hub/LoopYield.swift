#if canImport(Glibc)
import Glibc
#endif
import NIOCore
import NIOPosix

/// Runs work in a later turn of the hub's event loop, once the loop has looked at its
/// sockets: how work split across turns leaves room for requests without sleeping
/// between its slices. A replay at `max` uses it (`ReplayPlayer`).
///
/// NIO runs every task that is due before it polls its sockets again, so a task that
/// queues the next slice at once would never let a request in. A timer a little in the
/// future does (NIO then polls until it is due), but the loop sleeps through the pause:
/// 200 µs after each of the 3,375 batches of a day's replay at `max` is most of a second
/// of nothing. Instead a byte is written to one end of a socket pair whose other end NIO
/// watches: the loop's next poll finds it readable, at once, beside whatever else is
/// ready, and the work waiting runs when that read completes.
///
/// Until the wake-up socket is installed (and on a loop that has no sockets, as in the
/// in-process tests' virtual time), the pause each caller gives is used instead, as a
/// timer: the behaviour from before, which those tests step through.
final class LoopYield {
    let eventLoop: EventLoop
    private var wake: WakeSocket?
    /// Work waiting for the next poll, in the order it was asked for.
    private var waiting: [() -> Void] = []

    init(eventLoop: EventLoop) { self.eventLoop = eventLoop }

    /// Runs `work` once the loop has polled its sockets; without the wake-up socket, after
    /// `pause`.
    func later(orAfter pause: TimeAmount, _ work: @escaping () -> Void) {
        guard let wake else {
            eventLoop.assumeIsolated().scheduleTask(in: pause, work)
            return
        }
        waiting.append(work)
        if waiting.count == 1 { wake.signal() }
    }

    /// The wake-up socket was read: what waited runs now; what it asks for waits for the
    /// next poll.
    fileprivate func runWaiting() {
        let due = waiting
        waiting = []
        for work in due { work() }
    }

    /// Installs the wake-up socket on the loop (a NIOPosix loop: the daemon's).
    func installWakeSocket() -> EventLoopFuture<Void> {
        eventLoop.preconditionInEventLoop()
        var ends: [Int32] = [-1, -1]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0 else {
            return eventLoop.makeFailedFuture(IOError(errnoCode: errno, reason: "socketpair for the loop's wake-up"))
        }
        let writeEnd = ends[1]
        // The bootstrap's closures are Sendable; they run on this same loop.
        let bound = NIOLoopBound(self, eventLoop: eventLoop)
        return ClientBootstrap(group: eventLoop)
            // One read per poll: a byte written while the waiting work runs is read at the
            // next poll, not in the same one.
            .channelOption(.maxMessagesPerRead, value: 1)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(WakeHandler(yield: bound.value))
                }
            }
            .withConnectedSocket(ends[0])
            .map { channel in
                let yield = bound.value
                yield.wake = WakeSocket(writeEnd: writeEnd, channel: channel)
                if !yield.waiting.isEmpty { yield.wake?.signal() }
            }
            .flatMapErrorThrowing { error in
                Glibc.close(writeEnd)
                throw error
            }
    }

    /// Closes the wake-up socket; later work falls back to timers.
    func close() {
        wake?.close()
        wake = nil
        let due = waiting
        waiting = []
        for work in due { eventLoop.assumeIsolated().execute(work) }
    }
}

/// The socket pair's two ends: the one the loop reads (a channel) and the one written to.
private struct WakeSocket {
    let writeEnd: Int32
    let channel: Channel

    func signal() {
        var byte: UInt8 = 1
        // Never full: at most one byte is unread at a time (`later` writes only when
        // nothing waits, and what waits is taken when the byte is read).
        _ = write(writeEnd, &byte, 1)
    }

    func close() {
        channel.close(promise: nil)
        Glibc.close(writeEnd)
    }
}

private final class WakeHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer
    private let yield: LoopYield
    private var readBytes = false

    init(yield: LoopYield) { self.yield = yield }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) { readBytes = true }

    func channelReadComplete(context: ChannelHandlerContext) {
        guard readBytes else { return }
        readBytes = false
        yield.runWaiting()
    }
}
