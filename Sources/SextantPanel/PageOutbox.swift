import NIOCore
import Synchronization

/// What waits to be sent to one page: answers, never dropped, and the daemon's events, at
/// most `capacity` of them; past that the oldest go and the next batch says how many.
/// The watch link fills it from NIO's thread; the page's writer empties it.
final class PageOutbox: Sendable {
    static let capacity = 4096

    private let state: Mutex<State>

    init(capacity: Int = PageOutbox.capacity) {
        state = Mutex(State(events: EventRing(capacity: capacity)))
    }

    struct State {
        var answers: [String] = []
        var events: EventRing
        var dropped = 0
        var closed = false
        var waiter: CheckedContinuation<Void, Never>?
    }

    /// What the writer takes in one go.
    struct Work {
        var answers: [String]
        var events: [ByteBuffer]
        var dropped: Int
    }

    func push(event line: ByteBuffer) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.closed else { return nil }
            if state.events.append(line) { state.dropped += 1 }
            return state.takeWaiter()
        }
        waiter?.resume()
    }

    func push(answer text: String) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.closed else { return nil }
            state.answers.append(text)
            return state.takeWaiter()
        }
        waiter?.resume()
    }

    /// Ends the writer's wait for good.
    func close() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.closed = true
            return state.takeWaiter()
        }
        waiter?.resume()
    }

    /// Waits until there is something to send; false once closed.
    func waitForWork() async -> Bool {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Bool in
                if state.closed || !state.answers.isEmpty || !state.events.isEmpty { return true }
                state.waiter = continuation
                return false
            }
            if ready { continuation.resume() }
        }
        return state.withLock { !$0.closed }
    }

    func takeAnswers() -> [String] {
        state.withLock { state in
            defer { state.answers = [] }
            return state.answers
        }
    }

    func takeEvents() -> (events: [ByteBuffer], dropped: Int) {
        state.withLock { state in
            defer { state.dropped = 0 }
            return (state.events.removeAll(), state.dropped)
        }
    }

    var hasEvents: Bool { state.withLock { !$0.events.isEmpty } }
}

extension PageOutbox.State {
    mutating func takeWaiter() -> CheckedContinuation<Void, Never>? {
        defer { waiter = nil }
        return waiter
    }
}

/// A ring of at most `capacity` lines: appending to a full ring drops the oldest.
struct EventRing {
    private var slots: [ByteBuffer?]
    private var head = 0
    private(set) var count = 0

    init(capacity: Int) { slots = Array(repeating: nil, count: capacity) }

    var isEmpty: Bool { count == 0 }

    /// Appends; true when the oldest line was dropped to make room.
    mutating func append(_ line: ByteBuffer) -> Bool {
        let capacity = slots.count
        if count == capacity {
            slots[head] = line
            head = (head + 1) % capacity
            return true
        }
        slots[(head + count) % capacity] = line
        count += 1
        return false
    }

    mutating func removeAll() -> [ByteBuffer] {
        var lines: [ByteBuffer] = []
        lines.reserveCapacity(count)
        for offset in 0..<count {
            let index = (head + offset) % slots.count
            lines.append(slots[index]!)
            slots[index] = nil
        }
        head = 0
        count = 0
        return lines
    }
}
