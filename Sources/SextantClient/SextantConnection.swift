#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SextantProtocol
import SextantSocket
import Synchronization

/// A connection to one of the daemon's sockets: one JSON object a line, requests with
/// ids, answers in any order, events kept in order until taken. Sextant's one client of its
/// socket protocol: sextantctl, the panel, the bridge and the sample app use it.
///
/// A thread of its own reads the socket (``ConnectionCore``); tasks wait for an answer or
/// an event with `async` calls (``request(_:)``, ``event()``, ``notification()``), which
/// end when it comes, when the daemon goes away (``ClientError/closed``) or when the task
/// is cancelled. The blocking calls (``call(_:timeout:)``, ``nextEvent(timeout:)``) wait
/// on the same inbox with a time-out, for code that cannot be `async`: shell completion,
/// and tests that script a daemon step by step.
///
/// Bounded: a line from the daemon longer than ``lineLimit`` ends the connection with
/// ``ClientError/lineTooLong(path:limit:)``; at most ``keptLimit`` messages are kept unread
/// before the reader stops reading (see ``Inbox``).
public final class SextantConnection: Sendable {
    public let path: String
    let core: ConnectionCore
    private let ids = Atomic<Int64>(0)

    /// The longest line the client reads from the daemon: 16 MiB. The protocol's 64 KiB is
    /// the limit of a request; an answer may be longer (`regions.list` of a uid's 1000
    /// regions, `permissions.list` of every app), so the client's bound is the size no
    /// answer of this daemon comes near.
    public static let defaultLineLimit = 16 << 20
    /// Messages kept unread before the reader waits for the program to take some.
    public static let defaultKeptLimit = 4096

    public var lineLimit: Int { core.lineLimit }
    public var keptLimit: Int { core.inbox.limit }

    /// Connects to the socket at `path` and checks who serves it: a daemon of the caller's
    /// uid or root, or one on a socket root put there (a system service's, `RootPlacedSocket`),
    /// never a socket another user planted where ours was expected.
    public init(path: String, lineLimit: Int = defaultLineLimit, keptLimit: Int = defaultKeptLimit) throws(ClientError) {
        self.path = path
        core = ConnectionCore(socket: try Self.connectTrusted(path: path), path: path, lineLimit: lineLimit, keptLimit: keptLimit)
        core.startReading()
    }

    deinit { core.close() }

    /// A socket connected to `path` and served by a daemon this client trusts: of the
    /// caller's uid or root, or on a socket root put there.
    static func connectTrusted(path: String) throws(ClientError) -> OwnedDescriptor {
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

    /// Closes the connection: whoever waits hears ``ClientError/closed``. Once; also on deinit.
    public func close() { core.close() }

    /// Tells the daemon nothing more will be sent (shutdown of the writing side); answers
    /// to what was sent still arrive.
    public func finishSending() throws(ClientError) {
        guard shutdown(core.fd, Int32(SHUT_WR)) == 0 else { throw .io("shutdown: \(String(cString: strerror(errno)))") }
    }

    // MARK: - Sending

    /// Sends a request and returns its id without waiting for the answer.
    @discardableResult
    public func send(_ method: String, _ params: JSONValue? = nil) throws(ClientError) -> JSONValue {
        let id = JSONValue.int(ids.add(1, ordering: .relaxed).newValue)
        try core.write(RPCMessage.request(id: id, method: method, params: params).line)
        return id
    }

    /// Sends a typed request without waiting; ``answer(to:answering:)`` or
    /// ``response(to:answering:timeout:)`` reads the answer.
    @discardableResult
    public func send<Request: RPCRequest>(_ request: Request) throws(ClientError) -> JSONValue {
        try send(Request.method, request.params)
    }

    /// Sends raw bytes as they are (tests of malformed input).
    public func writeRaw(_ text: String) throws(ClientError) { try core.write(text) }

    /// A result read as the request's result type; one that does not read is an error.
    public func decode<Request: RPCRequest>(_ result: JSONValue, answering request: Request) throws(ClientError) -> Request.Result {
        do { return try Request.decodeResult(result) } catch { throw .io("the daemon's answer to \(Request.method) does not read: \(error.message)") }
    }

    // MARK: - Waiting in a task

    /// Sends a typed request and waits for its answer, decoded as the request's result.
    public func request<Request: RPCRequest>(_ request: Request) async throws(ClientError) -> Request.Result {
        try decode(await self.request(Request.method, request.params), answering: request)
    }

    /// Sends a request and waits for its answer.
    public func request(_ method: String, _ params: JSONValue? = nil) async throws(ClientError) -> JSONValue {
        try await answer(to: send(method, params))
    }

    /// Waits for the answer to an earlier typed request.
    public func answer<Request: RPCRequest>(to id: JSONValue, answering request: Request) async throws(ClientError) -> Request.Result {
        try decode(await answer(to: id), answering: request)
    }

    /// Waits for the answer to an earlier request.
    public func answer(to id: JSONValue) async throws(ClientError) -> JSONValue {
        try await core.awaitAnswer(id)
    }

    /// The next event, decoded; one this client cannot read is an error naming it.
    public func event() async throws(ClientError) -> SextantEvent {
        try await notification().decoded()
    }

    /// The next event as it came (its method and params).
    public func notification() async throws(ClientError) -> ServerEvent {
        try await core.awaitEvent()
    }

    /// The next event's line as the daemon wrote it (without its newline), not read: for a
    /// program that passes events on whole (the panel, to its pages). A line this daemon
    /// writes as an event is not parsed at all.
    public func notificationLine() async throws(ClientError) -> [UInt8] {
        try await core.awaitEventLine()
    }
}
