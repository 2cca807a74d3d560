#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SextantProtocol
import SextantSocket

/// What can go wrong talking to the daemon.
public enum ClientError: Error, CustomStringConvertible, Equatable {
    case cannotConnect(path: String, reason: String)
    /// The socket is served by a process of another user (not root): refused unheard.
    case untrustedPeer(path: String, uid: UInt32, pid: Int32)
    /// The daemon answered with an error.
    case rpc(RPCError)
    case timedOut(String)
    case closed
    case io(String)

    public var description: String {
        switch self {
        case .cannotConnect(let path, let reason): return "cannot connect to \(path): \(reason) (is sextantd running?)"
        case .untrustedPeer(let path, let uid, let pid):
            return "refusing \(path): it is served by pid \(pid) of uid \(uid), neither you (uid \(getuid())) nor root, on a socket root did not put there; another user may have put it there"
        case .rpc(let error): return "\(error.message) (error \(error.code))"
        case .timedOut(let what): return "timed out waiting for \(what)"
        case .closed: return "the daemon closed the connection"
        case .io(let what): return what
        }
    }
}

/// An event (JSON-RPC notification) from the daemon.
public struct ServerEvent: Sendable, Equatable {
    public var method: String
    public var params: JSONValue

    /// The event decoded (``SextantEvent``); an event whose params do not read is an error.
    public func decoded() throws(ClientError) -> SextantEvent {
        do { return try SextantEvent(method: method, params: params) } catch { throw .io("the daemon's \(method) event does not read: \(error.message)") }
    }
}

/// A blocking connection to one of the daemon's sockets: one JSON object a line, requests
/// with ids, responses in any order, events buffered until asked for.
///
/// Use it from one thread. Every wait takes a time-out, so a test or a script never hangs.
public final class SextantConnection {
    public let path: String
    private let socket: OwnedDescriptor
    private var buffer: [UInt8] = []
    private var responses: [JSONValue: Result<JSONValue, RPCError>] = [:]
    private var events: [ServerEvent] = []
    private var nextID: Int64 = 0

    /// Connects to the socket at `path` and checks who serves it: a daemon of the caller's
    /// uid or root, or one on a socket root put there (a system service's, `RootPlacedSocket`),
    /// never a socket another user planted where ours was expected.
    public init(path: String) throws(ClientError) {
        self.path = path
        socket = try Self.connectTrusted(path: path)
    }

    /// A socket connected to `path` and served by a daemon this client trusts: of the
    /// caller's uid or root, or on a socket root put there. Other clients of the daemon (the
    /// panel, on its own event loop) connect through this one check.
    public static func connectTrusted(path: String) throws(ClientError) -> OwnedDescriptor {
        let address: UnixSocketAddress
        do { address = try UnixSocketAddress(path: path) } catch { throw .cannotConnect(path: path, reason: error.description) }
        let socket: OwnedDescriptor
        do {
            socket = try OwnedDescriptor.unixStreamSocket()
            try socket.connect(to: address)
        } catch {
            throw .cannotConnect(path: path, reason: error.reason)
        }
        let peer: UnixPeerCredentials
        do { peer = try socket.peerCredentials() } catch { throw .cannotConnect(path: path, reason: error.reason) }
        let me = UInt32(getuid())
        // Checked once connected: whatever the path was swapped for before, this is who answers.
        guard peer.uid == me || peer.uid == 0 || RootPlacedSocket.check(path) else {
            throw .untrustedPeer(path: path, uid: peer.uid, pid: peer.pid)
        }
        return socket
    }

    /// The app socket in a runtime directory.
    public static func app(runtimeDirectory: String) throws(ClientError) -> SextantConnection {
        try SextantConnection(path: runtimeDirectory + "/" + DefaultPaths.appSocketName)
    }

    /// The control socket in a runtime directory.
    public static func control(runtimeDirectory: String) throws(ClientError) -> SextantConnection {
        try SextantConnection(path: runtimeDirectory + "/" + DefaultPaths.controlSocketName)
    }

    /// Closes the connection; the descriptor's owner makes sure this happens once.
    public func close() { socket.close() }

    private var fd: Int32 { socket.raw }

    /// Tells the daemon nothing more will be sent (shutdown of the writing side); answers
    /// to what was sent still arrive.
    public func finishSending() throws(ClientError) {
        guard fd >= 0 else { throw .closed }
        guard shutdown(fd, Int32(SHUT_WR)) == 0 else { throw .io("shutdown: \(String(cString: strerror(errno)))") }
    }

    // MARK: - Requests

    /// Sends a request and returns its id without waiting for the answer.
    @discardableResult
    public func send(_ method: String, _ params: JSONValue? = nil) throws(ClientError) -> JSONValue {
        nextID += 1
        let id = JSONValue.int(nextID)
        try writeLine(RPCMessage.request(id: id, method: method, params: params).line)
        return id
    }

    /// Sends raw bytes as they are (tests of malformed input).
    public func writeRaw(_ text: String) throws(ClientError) { try writeLine(text) }

    /// Sends a request and waits for its answer; events that arrive meanwhile are kept.
    public func call(_ method: String, _ params: JSONValue? = nil, timeout: Double = 10) throws(ClientError) -> JSONValue {
        let id = try send(method, params)
        return try response(to: id, timeout: timeout)
    }

    /// Sends a typed request and waits for its answer, decoded as the request's result.
    public func call<Request: RPCRequest>(_ request: Request, timeout: Double = 10) throws(ClientError) -> Request.Result {
        try decode(call(Request.method, request.params, timeout: timeout), answering: request)
    }

    /// Sends a typed request without waiting; ``response(to:answering:timeout:)`` reads the answer.
    @discardableResult
    public func send<Request: RPCRequest>(_ request: Request) throws(ClientError) -> JSONValue {
        try send(Request.method, request.params)
    }

    /// Waits for the answer to an earlier typed request.
    public func response<Request: RPCRequest>(to id: JSONValue, answering request: Request, timeout: Double = 10) throws(ClientError) -> Request.Result {
        try decode(response(to: id, timeout: timeout), answering: request)
    }

    /// A result read as the request's result type; one that does not read is an error.
    public func decode<Request: RPCRequest>(_ result: JSONValue, answering request: Request) throws(ClientError) -> Request.Result {
        do { return try Request.decodeResult(result) } catch { throw .io("the daemon's answer to \(Request.method) does not read: \(error.message)") }
    }

    /// Waits for the answer to an earlier request.
    public func response(to id: JSONValue, timeout: Double = 10) throws(ClientError) -> JSONValue {
        let deadline = Self.now() + timeout
        while true {
            if let result = responses.removeValue(forKey: id) {
                switch result {
                case .success(let value): return value
                case .failure(let error): throw .rpc(error)
                }
            }
            // An error with a null id concerns the connection itself (e.g. 1007 forbidden).
            if case .failure(let error) = responses.removeValue(forKey: .null) { throw .rpc(error) }
            try readMore(until: deadline, waitingFor: "the answer to request \(id)")
        }
    }

    /// Whether the answer to an earlier request has arrived (without waiting).
    public func hasResponse(to id: JSONValue) throws(ClientError) -> Bool {
        try readMore(until: Self.now(), waitingFor: "", failOnTimeout: false)
        return responses[id] != nil
    }

    /// The next event, waiting up to `timeout` seconds.
    public func nextEvent(timeout: Double = 10) throws(ClientError) -> ServerEvent {
        try nextEvent(timeout: timeout, description: "an event") { _ in true }
    }

    /// The next event that matches, waiting up to `timeout` seconds; events passed over
    /// on the way are dropped.
    public func nextEvent(timeout: Double = 10, description: String, where matches: (ServerEvent) -> Bool) throws(ClientError) -> ServerEvent {
        let deadline = Self.now() + timeout
        while true {
            while !events.isEmpty {
                let event = events.removeFirst()
                if matches(event) { return event }
            }
            try readMore(until: deadline, waitingFor: description)
        }
    }

    /// Events that have arrived so far, without waiting.
    public func takeEvents() throws(ClientError) -> [ServerEvent] {
        try readMore(until: Self.now(), waitingFor: "", failOnTimeout: false)
        defer { events = [] }
        return events
    }

    /// The raw next message of any kind (tests of error responses with null ids).
    public func nextMessage(timeout: Double = 10) throws(ClientError) -> JSONValue {
        let deadline = Self.now() + timeout
        while true {
            if let line = takeLine() {
                return (try? JSONValue.parse(bytes: line)) ?? .string(String(decoding: line, as: UTF8.self))
            }
            try fill(until: deadline, waitingFor: "a message")
        }
    }

    // MARK: - Reading

    private func readMore(until deadline: Double, waitingFor what: String, failOnTimeout: Bool = true) throws(ClientError) {
        if let line = takeLine() {
            absorb(line)
            return
        }
        do {
            try fill(until: deadline, waitingFor: what)
        } catch .timedOut(let message) {
            if failOnTimeout { throw .timedOut(message) }
            return
        }
        while let line = takeLine() { absorb(line) }
    }

    private func absorb(_ line: [UInt8]) {
        guard let value = try? JSONValue.parse(bytes: line), case .success(let message) = RPCMessage.decode(value) else { return }
        switch message {
        case .response(let id, let result): responses[id] = .success(result)
        case .errorResponse(let id, let error): responses[id] = .failure(error)
        case .notification(let method, let params): events.append(ServerEvent(method: method, params: params ?? .null))
        case .request: break
        }
    }

    private func takeLine() -> [UInt8]? {
        guard let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) else { return nil }
        let line = Array(buffer[..<newline])
        buffer.removeSubrange(...newline)
        return line
    }

    /// Reads what is available, waiting until `deadline` for something to arrive.
    private func fill(until deadline: Double, waitingFor what: String) throws(ClientError) {
        guard fd >= 0 else { throw .closed }
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        let remaining = max(0, deadline - Self.now())
        let ready = poll(&descriptor, 1, Int32((remaining * 1000).rounded(.up)))
        if ready < 0 {
            if errno == EINTR { return }
            throw .io("poll: \(String(cString: strerror(errno)))")
        }
        if ready == 0 { throw .timedOut(what) }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if count < 0 {
            if errno == EINTR || errno == EAGAIN { return }
            throw .io("read: \(String(cString: strerror(errno)))")
        }
        if count == 0 { throw .closed }
        buffer.append(contentsOf: chunk[..<count])
    }

    private func writeLine(_ text: String) throws(ClientError) {
        guard fd >= 0 else { throw .closed }
        var bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeMutableBytes { Glibc.send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
            if written < 0 {
                if errno == EINTR { continue }
                throw errno == EPIPE || errno == ECONNRESET ? closedWithReason() : .io("write: \(String(cString: strerror(errno)))")
            }
            offset += written
        }
    }

    /// The daemon closed the connection before our request went out. It may have said why
    /// first (an error with a null id, such as 1007 to a foreign uid): that is the error then.
    private func closedWithReason() -> ClientError {
        while (try? fill(until: Self.now(), waitingFor: "")) != nil {}
        while let line = takeLine() { absorb(line) }
        if case .failure(let error) = responses.removeValue(forKey: .null) { return .rpc(error) }
        return .closed
    }

    static func now() -> Double { SextantClock.system.monotonicSeconds }
}
