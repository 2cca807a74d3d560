import SextantCore
import SextantProtocol

/// What the location service keeps of one session: its stream, its `location.once` calls
/// waiting, and where it is in the fan-out's run of fixes. Held on the session itself
/// (`AppSession.fixes`, through ``Services/SessionSlot``), a value changed in place: every
/// delivery reads it, so it is neither looked up nor reached through a protocol.
struct LocationSubscription {
    /// The topic of the service's events (`location`, `locationUnavailable`).
    static let topic = AppTopic.location

    /// The iOS stream (desired accuracy, distance filter: L8, L11); nil while none runs.
    var stream: LocationStream?
    /// The number of the next fix of the fan-out's run it is owed (``LocationFanOut``).
    var cursor: UInt64 = 0
    /// `location.once` requests waiting for the next fix.
    var onceWaiters = OnceWaiters()
    /// Whether it is in the fan-out's list of hearers (``LocationFanOut/hearers()``).
    var listed = false

    /// Whether it hears locations now: a stream, or a `location.once` waiting.
    @inline(__always) var hears: Bool { stream != nil || !onceWaiters.isEmpty }
    /// Whether an iOS stream runs (`apps.list`'s `streams`).
    var streams: Bool { stream != nil }
}

/// A session's `location.once` requests, each with its time-out: at most `limit`, removed
/// in O(1) when one times out.
struct OnceWaiters {
    struct Waiter {
        var id: JSONValue
        /// Where the answer goes.
        var peer: any RPCPeer
        /// On the device's clock (RULES C6): moving the clock past it fails the call.
        var timeout: DeviceTimer
    }

    /// How many `location.once` calls of one session may wait at once.
    static let limit = 16

    private var waiters: [UInt64: Waiter] = [:]
    private var counter: UInt64 = 0

    var isEmpty: Bool { waiters.isEmpty }
    var count: Int { waiters.count }

    /// The key the next `add` must use (the time-out is scheduled before the waiter is added).
    var nextKey: UInt64 { counter + 1 }

    mutating func add(key: UInt64, id: JSONValue, peer: any RPCPeer, timeout: DeviceTimer) {
        counter = key
        waiters[key] = Waiter(id: id, peer: peer, timeout: timeout)
    }

    mutating func remove(_ key: UInt64) -> Waiter? { waiters.removeValue(forKey: key) }

    /// Every waiter, oldest first, leaving none.
    mutating func removeAll() -> [Waiter] {
        defer { waiters = [:] }
        return waiters.keys.sorted().map { waiters[$0]! }
    }
}

/// What the location service reads of the daemon's settings (`ServiceSettings.location`).
public struct LocationSettings: Sendable {
    /// How long `location.once` waits for a fix before failing with 1006.
    public var onceTimeout: Duration = .seconds(30)
    /// Sessions a fix is decided for per turn of the loop (``LocationFanOut``). Fewer only for tests.
    public var sessionsPerTurn = 256

    public init() {}
}
