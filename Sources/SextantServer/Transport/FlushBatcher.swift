import NIOCore

/// Flushes, once per turn of the event loop, every connection written to during that turn:
/// the events a turn produces for one client (a replay batch, a fan-out) leave in one
/// `writev`, not one system call each.
///
/// The flush runs as a task queued behind the work that wrote, so it comes after every
/// write of that work and before the loop next polls its sockets.
final class FlushBatcher {
    private let eventLoop: EventLoop
    private var pending: [Connection] = []

    init(eventLoop: EventLoop) { self.eventLoop = eventLoop }

    /// `connection` has unflushed writes; it is flushed at the end of this turn.
    func needsFlush(_ connection: Connection) {
        pending.append(connection)
        guard pending.count == 1 else { return }
        eventLoop.assumeIsolated().execute { [self] in flushAll() }
    }

    private func flushAll() {
        let due = pending
        pending = []
        for connection in due { connection.flushWrites() }
    }
}
