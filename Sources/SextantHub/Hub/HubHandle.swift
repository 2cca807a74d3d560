import Logging
import NIOCore
import NIOPosix
import SextantCore
import SextantProtocol
import SextantStore

/// The hub as other threads hold it: its event loop to hop onto, and the hub itself,
/// which only work run on that loop can read (`NIOLoopBound` checks it), so the compiler
/// sees that nothing reaches the hub's state from another thread.
public struct HubHandle: Sendable {
    public let eventLoop: EventLoop
    /// The hub's logger, for work that does not go onto its loop.
    package let logger: Logger
    let bound: NIOLoopBound<Hub>
    /// Closed by `shutdown` after the loop's part, which may have failed.
    private let fileThread: NIOThreadPool
    private let store: SextantStore

    /// On the hub's loop.
    init(_ hub: Hub) {
        self.eventLoop = hub.eventLoop
        self.logger = hub.logger
        self.fileThread = hub.fileThread
        self.store = hub.store
        self.bound = NIOLoopBound(hub, eventLoop: hub.eventLoop)
    }

    /// Makes the hub on `eventLoop`, where it lives from its first line on.
    package static func make(
        eventLoop: EventLoop, store: SextantStore, snapshot: StoreSnapshot, configuration: HubConfiguration, logger: Logger,
        wallClock: (@Sendable () -> Timestamp)? = nil
    ) -> EventLoopFuture<HubHandle> {
        eventLoop.submit {
            HubHandle(Hub(eventLoop: eventLoop, store: store, snapshot: snapshot, configuration: configuration, logger: logger, wallClock: wallClock))
        }
    }

    /// The hub, for work already on its loop.
    package var hub: Hub { bound.value }

    /// Runs `body` with the hub on its loop, later in this turn if already there.
    package func execute(_ body: @escaping @Sendable (Hub) -> Void) {
        eventLoop.execute { body(bound.value) }
    }

    /// `body`'s result, from the hub's loop.
    package func submit<T: Sendable>(_ body: @escaping @Sendable (Hub) throws -> T) -> EventLoopFuture<T> {
        eventLoop.submit { try body(bound.value) }
    }

    /// The same for work that completes later.
    package func flatSubmit<T: Sendable>(_ body: @escaping @Sendable (Hub) -> EventLoopFuture<T>) -> EventLoopFuture<T> {
        eventLoop.flatSubmit { body(bound.value) }
    }

    /// Stops timers and threads after the sockets are closed; flushes the store.
    package func shutdown() async {
        try? await submit { $0.stopOnLoop() }.get()
        try? await fileThread.shutdownGracefully()
        store.close()
    }
}
