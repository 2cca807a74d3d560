import NIOCore

/// What a queued message is, for the drop rules (PROTOCOL "Transport").
package enum OutboundKind: Equatable {
    /// Responses and the events a client must never lose (authorization, servicesEnabled,
    /// interfaceOrientation, prompts...).
    case essential
    /// Sensor events: the oldest go first when a client does not read.
    case sensor
    /// A location: a sensor event that is also discarded when delivery stops being allowed.
    case location
    /// A decision drawn from where the device is (a `region` event): never dropped for a
    /// slow client, as an essential event, but discarded when delivery stops being allowed.
    case locationDecision

    /// Sensor events and locations: the oldest go first when a client does not read.
    var isDroppable: Bool { self == .sensor || self == .location }
    /// Discarded when delivery of locations stops being allowed (L9).
    var isLocationDerived: Bool { self == .location || self == .locationDecision }
}

/// A client's bounded queue of lines not yet handed to the socket.
///
/// At most `sensorLimit` sensor events wait: one more pushes out the oldest. At most
/// `totalLimit` messages wait in all: past that the client is too far behind and is
/// disconnected. So a client that never reads costs a bounded amount of memory.
struct Outbox {
    struct Entry {
        var kind: OutboundKind
        var bytes: ByteBuffer
    }

    let sensorLimit: Int
    let totalLimit: Int
    private(set) var entries = CircularBuffer<Entry>(initialCapacity: 16)
    private(set) var sensorCount = 0
    /// Sensor events dropped so far (for logs and `apps.list`).
    private(set) var dropped = 0

    init(sensorLimit: Int = 512, totalLimit: Int = 2048) {
        self.sensorLimit = sensorLimit
        self.totalLimit = totalLimit
    }

    enum PushResult: Equatable {
        case queued
        case droppedOldest
        case overflow
    }

    var isEmpty: Bool { entries.isEmpty }
    var count: Int { entries.count }

    mutating func push(_ bytes: ByteBuffer, kind: OutboundKind) -> PushResult {
        var result = PushResult.queued
        if kind.isDroppable {
            if sensorCount >= sensorLimit, let oldest = entries.firstIndex(where: { $0.kind.isDroppable }) {
                entries.remove(at: oldest)
                sensorCount -= 1
                dropped += 1
                result = .droppedOldest
            }
            sensorCount += 1
        }
        entries.append(Entry(kind: kind, bytes: bytes))
        return entries.count > totalLimit ? .overflow : result
    }

    mutating func popFirst() -> Entry? {
        guard let entry = entries.popFirst() else { return nil }
        if entry.kind.isDroppable { sensorCount -= 1 }
        return entry
    }

    /// Discards queued locations (delivery is no longer allowed); returns how many.
    @discardableResult
    mutating func discardLocations() -> Int {
        let before = entries.count
        var kept = CircularBuffer<Entry>(initialCapacity: entries.count)
        var droppable = 0
        for entry in entries {
            if !entry.kind.isLocationDerived {
                kept.append(entry)
            } else if entry.kind.isDroppable {
                droppable += 1
            }
        }
        entries = kept
        sensorCount -= droppable
        return before - entries.count
    }
}
