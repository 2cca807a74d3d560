import Logging
import SextantProtocol
import Synchronization

/// Something the browser said without being asked: a CDP event, with the page session it
/// came from (flat mode: `sessionId` beside `method`), or none for the browser's own.
public struct CDPEvent: Sendable, Equatable {
    public var method: String
    public var params: JSONValue
    public var sessionID: String?

    public init(method: String, params: JSONValue, sessionID: String? = nil) {
        (self.method, self.params, self.sessionID) = (method, params, sessionID)
    }
}

/// Why a CDP command failed.
public enum CDPError: Error, CustomStringConvertible, Equatable {
    /// The browser answered with an error.
    case browser(method: String, code: Int, message: String)
    /// The connection closed before the answer came.
    case closed(method: String)
    /// No answer came in time: the connection is closed (a browser that stops answering,
    /// or a peer that is no browser, must not hang the bridge).
    case timedOut(method: String, seconds: Int)

    public var description: String {
        switch self {
        case .browser(let method, let code, let message): return "\(method): the browser answered \(code) \(message)"
        case .closed(let method): return "\(method): the DevTools connection closed before the answer"
        case .timedOut(let method, let seconds): return "\(method): no answer within \(seconds) s; closing the DevTools connection"
        }
    }
}

/// What a CDP connection travels on: a WebSocket to a browser's DevTools port (`--cdp`), or
/// the pipe of a browser the bridge launched (`--launch`). Both bound every message.
enum CDPTransport {
    case socket(DevToolsSocket)
    case pipe(DevToolsPipe)

    func exchange(outgoing: AsyncStream<String>, received: (String) -> Void) async throws {
        switch self {
        case .socket(let socket): try await socket.exchange(outgoing: outgoing, received: received)
        case .pipe(let pipe): try await pipe.exchange(outgoing: outgoing, received: received)
        }
    }
}

/// One DevTools connection (`CDPTransport`): commands numbered and answered in any order,
/// each within `commandTimeout`, events handed to `onEvent`, every page reached through its
/// session id on the same connection (CDP's flat mode).
public final class CDPConnection: Sendable {
    private struct Waiter: Sendable {
        var method: String
        var sent: ContinuousClock.Instant
        var answer: CDPAnswer
    }

    private struct Pending: Sendable {
        var nextID = 0
        var waiting: [Int: Waiter] = [:]
        var closed = false
    }

    /// How long the browser has to answer a command: long enough for a page busy loading.
    public static let commandTimeout: Duration = .seconds(10)

    private let outgoing: AsyncStream<String>.Continuation
    private let outgoingLines: AsyncStream<String>
    private let pending = Mutex(Pending())
    private let timeout: Duration
    /// Why the connection must close now (a command unanswered, an event refused).
    private let abort: AsyncStream<String>.Continuation
    private let aborts: AsyncStream<String>

    private init(timeout: Duration) {
        self.timeout = timeout
        (outgoingLines, outgoing) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .unbounded)
        (aborts, abort) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingOldest(1))
    }

    /// Connects to `url` (a `ws://…/devtools/browser/…` address), checks that the listener
    /// is this user's or root's (``DevToolsPeer``), runs `body` with the connection and
    /// returns when the socket closes; events go to `onEvent` in order, and one it throws
    /// for closes the connection.
    public static func run(
        url: String, logger: Logger, commandTimeout: Duration = commandTimeout, onEvent: @escaping @Sendable (CDPEvent) throws -> Void,
        body: @escaping @Sendable (CDPConnection) async -> Void
    ) async throws {
        let socket = try await DevToolsSocket.connect(to: url, limits: .devTools)
        try await run(.socket(socket), logger: logger, commandTimeout: commandTimeout, onEvent: onEvent, body: body)
    }

    /// The same over the pipe of a browser the bridge launched.
    public static func run(
        pipe launched: ChromiumLauncher, logger: Logger, commandTimeout: Duration = commandTimeout,
        onEvent: @escaping @Sendable (CDPEvent) throws -> Void, body: @escaping @Sendable (CDPConnection) async -> Void
    ) async throws {
        let pipe = try await DevToolsPipe.open(launched.takePipe(), messageLimit: DevToolsSocket.Limits.devTools.messageSize)
        try await run(.pipe(pipe), logger: logger, commandTimeout: commandTimeout, onEvent: onEvent, body: body)
    }

    static func run(
        _ transport: CDPTransport, logger: Logger, commandTimeout: Duration, onEvent: @escaping @Sendable (CDPEvent) throws -> Void,
        body: @escaping @Sendable (CDPConnection) async -> Void
    ) async throws {
        let connection = CDPConnection(timeout: commandTimeout)
        // Each task answers whether its end ends the connection.
        await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                await body(connection)
                return false
            }
            group.addTask {
                do {
                    try await transport.exchange(outgoing: connection.outgoingLines) { connection.received($0, onEvent: onEvent) }
                } catch {
                    logger.debug("DevTools connection: \(error)")
                }
                return true
            }
            group.addTask { await connection.watchAnswers() }
            group.addTask {
                for await reason in connection.aborts {
                    logger.warning("\(reason)")
                    return true
                }
                return true
            }
            while let ends = await group.next(), !ends {}
            connection.closeAll()
            group.cancelAll()
        }
    }

    /// Sends a command (to the page `sessionID`, or to the browser) and waits for its answer.
    @discardableResult
    public func send(_ method: String, _ params: JSONValue = [:], session sessionID: String? = nil) async throws -> JSONValue {
        try await post(method, params, session: sessionID).value
    }

    /// Sends a command at once and returns its answer to come: commands posted one after
    /// another go out in that order without waiting for each other's answers (the browser
    /// runs a session's commands in order).
    public func post(_ method: String, _ params: JSONValue = [:], session sessionID: String? = nil) -> CDPAnswer {
        let answer = CDPAnswer()
        let id: Int? = pending.withLock { state in
            guard !state.closed else { return nil }
            state.nextID += 1
            state.waiting[state.nextID] = Waiter(method: method, sent: .now, answer: answer)
            return state.nextID
        }
        guard let id else {
            answer.resolve(.failure(CDPError.closed(method: method)))
            return answer
        }
        outgoing.yield(CDPMessage.command(id: id, method: method, params: params, sessionID: sessionID))
        return answer
    }

    /// Whether the connection has closed.
    public var isClosed: Bool { pending.withLock { $0.closed } }

    /// Until cancelled, once a second: a command unanswered for longer than the timeout
    /// fails, and the connection closes (its answers can no longer be trusted to come).
    private func watchAnswers() async -> Bool {
        while (try? await Task.sleep(for: .seconds(1))) != nil {
            let now = ContinuousClock.now
            let late = pending.withLock { state in
                state.waiting.filter { now - $0.value.sent > timeout }.map { state.waiting.removeValue(forKey: $0.key)! }
            }
            guard let first = late.first else { continue }
            let seconds = Int(timeout.components.seconds)
            for waiter in late { waiter.answer.resolve(.failure(CDPError.timedOut(method: waiter.method, seconds: seconds))) }
            abort.yield(CDPError.timedOut(method: first.method, seconds: seconds).description)
            return true
        }
        return false
    }

    private func received(_ text: String, onEvent: (CDPEvent) throws -> Void) {
        switch CDPMessage.read(text) {
        case .answer(let id, let result):
            let waiter = pending.withLock { $0.waiting.removeValue(forKey: id) }
            switch result {
            case .success(let value): waiter?.answer.resolve(.success(value))
            case .failure(let failure):
                waiter?.answer.resolve(.failure(CDPError.browser(method: waiter?.method ?? "?", code: failure.code, message: failure.message)))
            }
        case .event(let event):
            do { try onEvent(event) } catch { abort.yield("\(error)") }
        case nil: break
        }
    }

    private func closeAll() {
        let waiters = pending.withLock { state in
            state.closed = true
            defer { state.waiting = [:] }
            return state.waiting.values
        }
        for waiter in waiters { waiter.answer.resolve(.failure(CDPError.closed(method: waiter.method))) }
        outgoing.finish()
        abort.finish()
    }
}

/// The answer to a command posted: it may come before or after someone waits for it.
public final class CDPAnswer: Sendable {
    private struct State {
        var result: Result<JSONValue, any Error>?
        var waiting: CheckedContinuation<JSONValue, any Error>?
    }

    private let state = Mutex(State())

    /// Given once: the first result counts.
    func resolve(_ result: Result<JSONValue, any Error>) {
        let waiting: CheckedContinuation<JSONValue, any Error>? = state.withLock { state in
            guard state.result == nil else { return nil }
            state.result = result
            defer { state.waiting = nil }
            return state.waiting
        }
        waiting?.resume(with: result)
    }

    /// The answer, once it came (one waiter at a time).
    public var value: JSONValue {
        get async throws {
            try await withCheckedThrowingContinuation { continuation in
                let result: Result<JSONValue, any Error>? = state.withLock { state in
                    if state.result == nil { state.waiting = continuation }
                    return state.result
                }
                if let result { continuation.resume(with: result) }
            }
        }
    }
}

/// CDP's JSON messages: a command out; an answer (by id) or an event in.
public enum CDPMessage: Equatable {
    case answer(id: Int, Result<JSONValue, FailureBox>)
    case event(CDPEvent)

    /// `Result` needs an `Error`; a browser's error object is one.
    public struct FailureBox: Error, Equatable, Sendable {
        public var code: Int
        public var message: String
    }

    public static func command(id: Int, method: String, params: JSONValue, sessionID: String?) -> String {
        var message: [String: JSONValue] = ["id": JSONValue(id), "method": .string(method), "params": params]
        if let sessionID { message["sessionId"] = .string(sessionID) }
        return JSONValue.object(message).serialized()
    }

    /// A message from the browser; nil for one that is neither an answer nor an event.
    public static func read(_ text: String) -> CDPMessage? {
        guard let value = try? JSONValue.parse(text), case .object(let members) = value else { return nil }
        if let id = members["id"]?.intValue {
            if let error = members["error"] {
                return .answer(id: id, .failure(FailureBox(code: error["code"]?.intValue ?? 0, message: error["message"]?.stringValue ?? "")))
            }
            return .answer(id: id, .success(members["result"] ?? [:]))
        }
        guard let method = members["method"]?.stringValue else { return nil }
        return .event(CDPEvent(method: method, params: members["params"] ?? [:], sessionID: members["sessionId"]?.stringValue))
    }
}
