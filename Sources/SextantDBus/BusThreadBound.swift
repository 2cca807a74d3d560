import Glibc
import Synchronization

/// Which thread may use a connection's sd-bus objects. sd-bus is not thread-safe: a bus
/// and its messages belong to one thread — the one that connected it, until
/// ``DBusConnection/start(onPeerLeft:onLost:)`` hands it to the bus thread, which keeps
/// it until it closes the bus.
final class BusThreadOwnership: Sendable {
    /// `pthread_self()` of the owner; 0 while the bus thread is starting, `closed` after it.
    private let owner = Atomic<pthread_t>(pthread_self())
    private static let closed = pthread_t.max

    var isCurrentThread: Bool { owner.load(ordering: .acquiring) == pthread_self() }
    /// The bus thread closed the bus and lets go of everything of it.
    var isClosed: Bool { owner.load(ordering: .acquiring) == Self.closed }

    /// On the owner: nobody owns the bus until the thread it starts claims it.
    func handOver() {
        precondition(isCurrentThread, "sd-bus handed over from a thread that does not own it")
        owner.store(0, ordering: .releasing)
    }

    /// On the bus thread, first thing.
    func claim() {
        let (exchanged, _) = owner.compareExchange(expected: 0, desired: pthread_self(), ordering: .acquiringAndReleasing)
        precondition(exchanged, "sd-bus claimed by a second thread")
    }

    /// On the bus thread, once the bus is closed.
    func close() {
        precondition(isCurrentThread, "sd-bus closed from a thread that does not own it")
        owner.store(Self.closed, ordering: .releasing)
    }
}

/// A value only the thread that owns the bus may use (the bus, a message: sd-bus
/// pointers), as `NIOLoopBound` binds one to an event loop. It may be handed to other
/// threads and back; every read of ``value`` checks that it happens on the owner.
struct BusThreadBound<Value>: @unchecked Sendable {
    // Unchecked: `unchecked` is read through `value` alone, which stops the process when
    // the thread reading is not the one `ownership` names (the sd-bus thread), or through
    // `valueOnceClosed`, only after that thread let go of the bus.
    private let unchecked: Value
    let ownership: BusThreadOwnership

    /// On the owning thread.
    init(_ value: Value, ownership: BusThreadOwnership) {
        precondition(ownership.isCurrentThread, "an sd-bus object made off the thread that owns the bus")
        self.unchecked = value
        self.ownership = ownership
    }

    var value: Value {
        precondition(ownership.isCurrentThread, "an sd-bus object used off the thread that owns the bus")
        return unchecked
    }

    /// The value once no thread owns the bus any more (the bus thread closed it). Only
    /// under ``DBusConnection``'s lock, so that two threads never use sd-bus at once.
    var valueOnceClosed: Value {
        precondition(ownership.isClosed, "an sd-bus object used off its thread while the bus is open")
        return unchecked
    }
}
