import NIOCore

/// What a queued message is, for the drop rules (PROTOCOL "Transport").
enum OutboundKind: Equatable {
    /// Responses and the events a client must never lose (authorization, servicesEnabled,
    /// interfaceOrientation, prompts...).
    case essential
    /// Sensor events: the oldest go first when a client does not read.
    case sensor
    /// A location: a sensor event that is also discarded when delivery stops being allowed.
    case location
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
        if kind != .essential {
            if sensorCount >= sensorLimit, let oldest = entries.firstIndex(where: { $0.kind != .essential }) {
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
        if entry.kind != .essential { sensorCount -= 1 }
        return entry
    }

    /// Discards queued locations (delivery is no longer allowed); returns how many.
    @discardableResult
    mutating func discardLocations() -> Int {
        let before = entries.count
        var kept = CircularBuffer<Entry>(initialCapacity: entries.count)
        for entry in entries where entry.kind != .location { kept.append(entry) }
        entries = kept
        let removed = before - entries.count
        sensorCount -= removed
        return removed
    }
}
