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

    public var description: String {
        switch self {
        case .browser(let method, let code, let message): return "\(method): the browser answered \(code) \(message)"
        case .closed(let method): return "\(method): the DevTools connection closed before the answer"
        }
    }
}

/// One DevTools connection (a WebSocket to the browser's endpoint, `DevToolsSocket`): commands numbered and
/// answered in any order, events handed to `onEvent`, every page reached through its
/// session id on the same socket (CDP's flat mode).
public final class CDPConnection: Sendable {
    private struct Pending: Sendable {
        var nextID = 0
        var waiting: [Int: (method: String, continuation: CheckedContinuation<JSONValue, any Error>)] = [:]
        var closed = false
    }

    private let outgoing: AsyncStream<String>.Continuation
    private let outgoingLines: AsyncStream<String>
    private let pending = Mutex(Pending())

    private init() {
        (outgoingLines, outgoing) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .unbounded)
    }

    /// Connects to `url` (a `ws://…/devtools/browser/…` address), runs `body` with the
    /// connection and returns when the socket closes; events go to `onEvent` in order.
    public static func run(
        url: String, logger: Logger, onEvent: @escaping @Sendable (CDPEvent) -> Void,
        body: @escaping @Sendable (CDPConnection) async -> Void
    ) async throws {
        let connection = CDPConnection()
        let socket = try await DevToolsSocket.connect(to: url, limits: .devTools)
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await body(connection) }
            do {
                try await socket.exchange(outgoing: connection.outgoingLines) { connection.received($0, onEvent: onEvent) }
            } catch {
                logger.debug("DevTools connection: \(error)")
            }
            connection.closeAll()
            group.cancelAll()
        }
    }

    /// Sends a command (to the page `sessionID`, or to the browser) and waits for its answer.
    @discardableResult
    public func send(_ method: String, _ params: JSONValue = [:], session sessionID: String? = nil) async throws -> JSONValue {
        try await withCheckedThrowingContinuation { continuation in
            let id: Int? = pending.withLock { state in
                guard !state.closed else { return nil }
                state.nextID += 1
                state.waiting[state.nextID] = (method, continuation)
                return state.nextID
            }
            guard let id else { return continuation.resume(throwing: CDPError.closed(method: method)) }
            outgoing.yield(CDPMessage.command(id: id, method: method, params: params, sessionID: sessionID))
        }
    }

    /// Whether the socket has closed.
    public var isClosed: Bool { pending.withLock { $0.closed } }

    private func received(_ text: String, onEvent: (CDPEvent) -> Void) {
        switch CDPMessage.read(text) {
        case .answer(let id, let result):
            let waiter = pending.withLock { $0.waiting.removeValue(forKey: id) }
            switch result {
            case .success(let value): waiter?.continuation.resume(returning: value)
            case .failure(let failure):
                waiter?.continuation.resume(throwing: CDPError.browser(method: waiter?.method ?? "?", code: failure.code, message: failure.message))
            }
        case .event(let event): onEvent(event)
        case nil: break
        }
    }

    private func closeAll() {
        let waiters = pending.withLock { state in
            state.closed = true
            defer { state.waiting = [:] }
            return state.waiting.values
        }
        for waiter in waiters { waiter.continuation.resume(throwing: CDPError.closed(method: waiter.method)) }
        outgoing.finish()
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
