import HummingbirdWebSocket
import NIOCore
import NIOWebSocket
import SextantProtocol
import Synchronization
import CMalloc

/// One page's WebSocket: its requests forwarded to the daemon (or answered by the panel),
/// and the daemon's events pushed to it in batches.
struct PageSession {
    static let maximumInFlight = 32
    /// At most one `events` frame per this many milliseconds: a display frame's worth.
    static let batchInterval: Duration = .milliseconds(16)
    /// Larger messages close the socket; those over `PageRequest.maximumBytes` are answered.
    static let maximumMessage = 1 << 20

    let pages: PanelPages
    let methods: PanelMethods
    let hello: String

    func run(inbound: WebSocketInboundStream, outbound: WebSocketOutboundWriter) async throws {
        let outbox = PageOutbox()
        guard pages.add(outbox) else {
            // Admitted with another page meanwhile: 1013, try again later.
            try await outbound.close(.unknown(1013), reason: "the panel has its most pages open")
            return
        }
        defer {
            pages.remove(outbox)
            outbox.close()
        }
        let inFlight = InFlightCount()
        try await withThrowingDiscardingTaskGroup { group in
            // However reading ends (the page closed, the panel stopping), the writer stops too.
            defer { outbox.close() }
            group.addTask { try await write(outbox, to: outbound) }
            for try await message in inbound.messages(maxSize: Self.maximumMessage) {
                let request: PageRequest
                switch message {
                case .binary:
                    outbox.push(answer: PageAnswer(id: .null, error: RPCError(code: -32600, message: "a binary frame is not a request: send each request as a text frame")).text)
                    continue
                case .text(let text):
                    switch PageRequest.read(ByteBuffer(string: text)) {
                    case .failure(let answer):
                        outbox.push(answer: answer.text)
                        continue
                    case .success(let read): request = read
                    }
                }
                guard inFlight.admit(below: Self.maximumInFlight) else {
                    outbox.push(answer: PageAnswer(id: request.id, error: RPCError(code: -32000, message: "too many requests in flight")).text)
                    continue
                }
                group.addTask {
                    let answer = await methods.answer(request)
                    inFlight.release()
                    outbox.push(answer: answer.text)
                }
            }
        }
    }

    /// Sends the hello, then answers as they come and events at most once a batch interval.
    private func write(_ outbox: PageOutbox, to outbound: WebSocketOutboundWriter) async throws {
        try await outbound.write(.text(hello))
        let clock = ContinuousClock()
        var lastBatch: ContinuousClock.Instant?
        while await outbox.waitForWork() {
            for answer in outbox.takeAnswers() { try await outbound.write(.text(answer)) }
            guard outbox.hasEvents else { continue }
            if let lastBatch, clock.now < lastBatch + Self.batchInterval {
                try await clock.sleep(until: lastBatch + Self.batchInterval)
                for answer in outbox.takeAnswers() { try await outbound.write(.text(answer)) }
            }
            let (events, dropped) = outbox.takeEvents()
            guard !events.isEmpty || dropped > 0 else { continue }
            lastBatch = clock.now
            try await outbound.write(.custom(WebSocketFrame(fin: true, opcode: .text, data: Self.batch(events, dropped: dropped))))
        }
    }

    /// `{"events":[E,…]}` with `"dropped":N` when the page fell behind: the daemon's lines
    /// spliced in as they are.
    static func batch(_ events: [ByteBuffer], dropped: Int) -> ByteBuffer {
        var frame = ByteBuffer()
        frame.reserveCapacity(events.reduce(32) { $0 + $1.readableBytes + 1 })
        frame.writeString("{\"events\":[")
        for (index, var line) in events.enumerated() {
            if index > 0 { frame.writeInteger(UInt8(ascii: ",")) }
            frame.writeBuffer(&line)
        }
        frame.writeString("]")
        if dropped > 0 { frame.writeString(",\"dropped\":\(dropped)") }
        frame.writeString("}")
        return frame
    }
}

/// The pages connected now; each event of the panel's one watch goes to all of them, and
/// each change of the daemon's reachability as a `{"daemon": …}` frame, which a page that
/// opens while the daemon is away gets at once.
final class PanelPages: Sendable {
    private let state = Mutex(State())

    struct State {
        var outboxes: [PageOutbox] = []
        /// The frame that says the daemon is away, while it is.
        var away: String?
    }

    /// At most this many pages at once: each holds a socket, its buffers and an outbox.
    static let maximum = 64

    /// Adds a page unless `maximum` are open.
    func add(_ outbox: PageOutbox) -> Bool {
        state.withLock { state in
            guard state.outboxes.count < Self.maximum else { return false }
            state.outboxes.append(outbox)
            if let away = state.away { outbox.push(answer: away) }
            return true
        }
    }

    /// Removes a page; once none is open, the heap's free pages go back to the system
    /// (a burst of pages leaves hundreds of MB free but held otherwise).
    func remove(_ outbox: PageOutbox) {
        let none = state.withLock { state in
            state.outboxes.removeAll { $0 === outbox }
            return state.outboxes.isEmpty
        }
        if none { malloc_trim(0) }
    }

    func publish(_ line: ByteBuffer) {
        for outbox in state.withLock({ $0.outboxes }) { outbox.push(event: line) }
    }

    /// The daemon went away, or is still away for another reason: the pages show why.
    func daemonUnreachable(socket: String, reason: String) {
        let frame = JSONValue.object(["daemon": ["reachable": false, "socket": .string(socket), "error": .string(reason)]]).serialized()
        // Under the lock, so that a page added meanwhile gets the frames in their order.
        state.withLock { state in
            guard state.away != frame else { return }
            state.away = frame
            for outbox in state.outboxes { outbox.push(answer: frame) }
        }
    }

    /// The daemon is back (watched again): the pages read its state afresh.
    func daemonReachable(socket: String) {
        let frame = JSONValue.object(["daemon": ["reachable": true, "socket": .string(socket)]]).serialized()
        state.withLock { state in
            guard state.away != nil else { return }
            state.away = nil
            for outbox in state.outboxes { outbox.push(answer: frame) }
        }
    }

    var count: Int { state.withLock { $0.outboxes.count } }
}

/// A page's requests sent on and not answered yet.
final class InFlightCount: Sendable {
    private let count = Mutex(0)

    /// Counts one more unless `limit` are in flight already.
    func admit(below limit: Int) -> Bool {
        count.withLock { count in
            guard count < limit else { return false }
            count += 1
            return true
        }
    }

    func release() { count.withLock { $0 -= 1 } }
}
