import NIOCore
import SextantCore
import SextantProtocol

/// Which socket a client came in on: which method table answers it.
package enum SocketKind: String, Sendable {
    case app, control
}

/// One inbound frame: a line (without its newline), or the news that a line grew past the limit.
package enum InboundFrame: Sendable {
    case line(ByteBuffer)
    case tooLong
}

/// A client that calls one of the daemon's method tables and hears answers and
/// notifications, whatever carries its lines: app.sock's and control.sock's `Connection`;
/// a WebSocket peer would be another conformer, and would get methods, `watch`,
/// `location.once` waiters and authorization requests as they are. Method calls,
/// watchers, waiters and pending requests hold this, never a concrete connection.
package protocol RPCPeer: SessionOutput {
    /// Which method table answers it.
    var socket: SocketKind { get }
    /// Who it is, for the log.
    var label: String { get }
    var credentials: PeerCredentials? { get }
    /// The app session it opened with `hello`, if any.
    var session: SessionID? { get set }
    var isClosed: Bool { get }
    /// Lines read while a request that opens the session waits (``Hub/holdRequests(of:until:)``); nil when not holding.
    var heldFrames: [InboundFrame]? { get set }
    func respond(_ id: JSONValue, _ result: Result<JSONValue, RPCError>)
    func notify(_ method: String, _ params: JSONValue, kind: OutboundKind)
    func close()
    /// Writes a last message, then closes.
    func sendAndClose(_ message: RPCMessage)
    /// Stops reading the peer (false) or reads again (true).
    func setReading(_ reading: Bool)
}

/// What waits for an authorization request's answer, by its token: a peer's request id
/// (`authorization.request`), or a face that answers in its own protocol (GeoClue's `Start`).
enum AuthorizationWaiter {
    case request(peer: any RPCPeer, id: JSONValue)
    case face((Result<AuthorizationSnapshot, RPCError>) -> Void)

    func answer(_ result: Result<AuthorizationSnapshot, RPCError>) {
        switch self {
        case .request(let peer, let id): peer.respond(id, result.map(\.json))
        case .face(let answer): answer(result)
        }
    }

    /// Whether it is `peer`'s (forgotten when the peer goes).
    func belongs(to peer: any RPCPeer) -> Bool {
        if case .request(let owner, _) = self { return owner === peer }
        return false
    }
}
