import SextantProtocol

/// What the daemon sent that no one has taken yet, and who waits for what: the state of a
/// connection's reading side, without I/O (the connection holds its lock around every
/// use). Messages arrive in the daemon's order; an answer goes straight to the task that
/// waits for it, an event to the task that waits for events, and what no one waits for is
/// kept, in order, until taken.
///
/// Bounded: the reader reads on only while fewer than `limit` messages are kept, or while
/// someone waits for an answer (the answer comes behind the daemon's bounded queue, so what
/// piles up meanwhile is bounded by it). A client that stops reading is then, to the
/// daemon, one that does not read, with the protocol's rules for it.
struct Inbox {
    /// A message from the daemon, as kept.
    enum Arrival {
        case answer(id: JSONValue, Result<JSONValue, RPCError>, raw: JSONValue)
        /// An event: its line as it came, and the event once read (nil until someone asks).
        case event(ServerEvent?, line: [UInt8])
        /// An error with a null id: it concerns the connection (a line the daemon could not
        /// read; 1007 forbidden before it closes), so it is the answer of the next request
        /// waited for, unless taken as a message first.
        case connectionError(RPCError, raw: JSONValue)
        /// A request from the daemon, or a line that does not read as JSON-RPC.
        case other(JSONValue)

        var raw: JSONValue {
            switch self {
            case .answer(_, _, let raw), .connectionError(_, let raw), .other(let raw): return raw
            case .event(_, let line): return (try? JSONValue.parse(bytes: line)) ?? .string(String(decoding: line, as: UTF8.self))
            }
        }

        var isEvent: Bool {
            if case .event = self { return true }
            return false
        }

        var connectionError: RPCError? {
            if case .connectionError(let error, _) = self { return error }
            return nil
        }
    }

    /// A resumption to make once the lock is released.
    typealias Wakeup = @Sendable () -> Void

    let limit: Int
    private(set) var arrivals = ArrivalQueue()
    /// How many null-id errors are kept (usually none: then no search for one).
    private var keptConnectionErrors = 0
    private var answerWaiters: [JSONValue: CheckedContinuation<JSONValue, any Error>] = [:]
    private var eventWaiter: EventWaiter?

    /// The task waiting for the next event: read, or its line as it came.
    enum EventWaiter {
        case event(CheckedContinuation<ServerEvent, any Error>)
        case line(CheckedContinuation<[UInt8], any Error>)

        func resume(throwing error: ClientError) {
            switch self {
            case .event(let waiter): waiter.resume(throwing: error)
            case .line(let waiter): waiter.resume(throwing: error)
            }
        }
    }

    /// How this daemon begins an event's line (its objects' keys sorted): such a line is
    /// kept as it came, and read only when a task asks for the event, not for its line.
    static let eventPrefix = Array(#"{"jsonrpc":"2.0","method":"#.utf8)
    /// Threads blocked in a wait (the blocking API): the reader reads on for them.
    var blockedWaiters = 0
    /// Why the connection ended, once it has: every later wait fails with it.
    private(set) var ending: ClientError?

    init(limit: Int) { self.limit = limit }

    /// Whether the reader should read on.
    var wantsMore: Bool {
        ending == nil && (arrivals.count < limit || !answerWaiters.isEmpty || blockedWaiters > 0 || eventWaiter != nil)
    }

    // MARK: - Arriving

    /// One line from the daemon.
    mutating func receive(_ line: [UInt8]) -> Wakeup? {
        if line.starts(with: Self.eventPrefix) { return receiveEvent(nil, line: line) }
        guard let value = try? JSONValue.parse(bytes: line) else {
            arrivals.append(.other(.string(String(decoding: line, as: UTF8.self))))
            return nil
        }
        guard case .success(let message) = RPCMessage.decode(value) else {
            arrivals.append(.other(value))
            return nil
        }
        switch message {
        case .response(let id, let result): return answer(id, .success(result), raw: value)
        case .errorResponse(.null, let error): return failConnection(error, raw: value)
        case .errorResponse(let id, let error): return answer(id, .failure(error), raw: value)
        case .notification(let method, let params): return receiveEvent(ServerEvent(method: method, params: params ?? .null), line: line)
        case .request: arrivals.append(.other(value))
        }
        return nil
    }

    private mutating func receiveEvent(_ event: ServerEvent?, line: [UInt8]) -> Wakeup? {
        switch eventWaiter {
        case .none:
            arrivals.append(.event(event, line: line))
        case .line(let waiter):
            eventWaiter = nil
            return { waiter.resume(returning: line) }
        case .event(let waiter):
            guard let event = event ?? Self.event(line) else {
                arrivals.append(.other(.string(String(decoding: line, as: UTF8.self))))
                return nil
            }
            eventWaiter = nil
            return { waiter.resume(returning: event) }
        }
        return nil
    }

    /// A line read as a notification; nil when it is not one.
    static func event(_ line: [UInt8]) -> ServerEvent? {
        guard let value = try? JSONValue.parse(bytes: line), case .success(.notification(let method, let params)) = RPCMessage.decode(value) else { return nil }
        return ServerEvent(method: method, params: params ?? .null)
    }

    private mutating func answer(_ id: JSONValue, _ result: Result<JSONValue, RPCError>, raw: JSONValue) -> Wakeup? {
        guard let waiter = answerWaiters.removeValue(forKey: id) else {
            arrivals.append(.answer(id: id, result, raw: raw))
            return nil
        }
        return { waiter.resume(with: result.mapError { ClientError.rpc($0) }) }
    }

    /// An error with a null id: the answer of every request waited for now; kept when none is.
    private mutating func failConnection(_ error: RPCError, raw: JSONValue) -> Wakeup? {
        guard !answerWaiters.isEmpty else {
            arrivals.append(.connectionError(error, raw: raw))
            keptConnectionErrors += 1
            return nil
        }
        let waiters = answerWaiters.values
        answerWaiters = [:]
        return { for waiter in waiters { waiter.resume(throwing: ClientError.rpc(error)) } }
    }

    /// The first null-id error not yet taken.
    private var keptConnectionError: RPCError? { keptConnectionErrors == 0 ? nil : arrivals.first(\.connectionError) }

    /// Why a wait fails once the connection is over: the daemon's null-id error when it said
    /// one before it closed and no one has taken it, else the ending.
    var endingError: ClientError? {
        guard ending == .closed, let error = keptConnectionError else { return ending }
        return .rpc(error)
    }

    /// The connection ended: every waiter hears why. What arrived before stays to be taken.
    mutating func end(_ ending: ClientError) -> Wakeup {
        guard self.ending == nil else { return {} }
        self.ending = ending
        let reason = endingError ?? ending
        let waiters = Array(answerWaiters.values)
        let eventWaiter = self.eventWaiter
        answerWaiters = [:]
        self.eventWaiter = nil
        return {
            for waiter in waiters { waiter.resume(throwing: reason) }
            eventWaiter?.resume(throwing: reason)
        }
    }

    // MARK: - Taking

    /// The answer to `id` if it has come; the ending once the connection is over.
    mutating func takeAnswer(_ id: JSONValue) throws(ClientError) -> JSONValue? {
        if let index = arrivals.firstIndex(where: { if case .answer(id, _, _) = $0 { true } else { false } }),
            case .answer(_, let result, _) = arrivals.remove(at: index)
        {
            return try result.mapError { ClientError.rpc($0) }.get()
        }
        if keptConnectionErrors > 0, let index = arrivals.firstIndex(where: { $0.connectionError != nil }),
            let error = arrivals.remove(at: index).connectionError
        {
            keptConnectionErrors -= 1
            throw .rpc(error)
        }
        if let endingError { throw endingError }
        return nil
    }

    /// Whether the answer to `id` has come, without taking it.
    func hasAnswer(_ id: JSONValue) -> Bool {
        arrivals.contains { if case .answer(id, _, _) = $0 { true } else { false } }
    }

    /// The first kept event that matches; the events before it are dropped.
    mutating func takeEvent(where matches: (ServerEvent) -> Bool) throws(ClientError) -> ServerEvent? {
        while let index = arrivals.firstIndex(where: \.isEvent) {
            guard case .event(let read, let line) = arrivals.remove(at: index), let event = read ?? Self.event(line) else { continue }
            if matches(event) { return event }
        }
        if let endingError { throw endingError }
        return nil
    }

    /// Every kept event, in order.
    mutating func takeEvents() -> [ServerEvent] {
        var events: [ServerEvent] = []
        arrivals.removeAll { arrival in
            guard case .event(let read, let line) = arrival else { return false }
            if let event = read ?? Self.event(line) { events.append(event) }
            return true
        }
        return events
    }

    /// The first kept event's line, as the daemon wrote it.
    mutating func takeEventLine() throws(ClientError) -> [UInt8]? {
        if let index = arrivals.firstIndex(where: \.isEvent), case .event(_, let line) = arrivals.remove(at: index) { return line }
        if let endingError { throw endingError }
        return nil
    }

    /// The first kept message of any kind, as the daemon wrote it.
    mutating func takeMessage() throws(ClientError) -> JSONValue? {
        if !arrivals.isEmpty {
            let first = arrivals.removeFirst()
            if first.connectionError != nil { keptConnectionErrors -= 1 }
            return first.raw
        }
        if let endingError { throw endingError }
        return nil
    }

    // MARK: - Waiting tasks

    /// Waits for the answer to `id` in a task; false when there is nothing to wait for (it
    /// has come, or the connection is over): then ``takeAnswer(_:)`` says which.
    mutating func await(_ id: JSONValue, _ waiter: CheckedContinuation<JSONValue, any Error>) -> Bool {
        guard !hasAnswer(id), keptConnectionError == nil, ending == nil else { return false }
        answerWaiters[id] = waiter
        return true
    }

    /// Waits for the next event in a task; false when one is kept or the connection is over.
    /// One task at a time waits for events.
    mutating func awaitEvent(_ waiter: EventWaiter) throws(ClientError) -> Bool {
        guard ending == nil, !arrivals.contains(where: \.isEvent) else { return false }
        guard eventWaiter == nil else { throw .io("two tasks wait for events on one connection") }
        eventWaiter = waiter
        return true
    }

    /// A waiting task was cancelled: it hears so, if it still waits.
    mutating func cancelAnswer(_ id: JSONValue) -> Wakeup? {
        guard let waiter = answerWaiters.removeValue(forKey: id) else { return nil }
        return { waiter.resume(throwing: ClientError.cancelled) }
    }

    mutating func cancelEvent() -> Wakeup? {
        guard let waiter = eventWaiter else { return nil }
        eventWaiter = nil
        return { waiter.resume(throwing: .cancelled) }
    }
}
