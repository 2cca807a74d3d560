#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SextantProtocol

/// What can go wrong talking to the daemon.
public enum ClientError: Error, CustomStringConvertible, Equatable {
    case cannotConnect(path: String, reason: String)
    /// The socket is served by a process of another user (not root): refused unheard.
    case untrustedPeer(path: String, uid: UInt32, pid: Int32)
    /// The daemon answered with an error.
    case rpc(RPCError)
    case timedOut(String)
    /// The daemon closed the connection (it stopped, or dropped us), or this side closed it:
    /// every wait ends with this once what had arrived before is taken.
    case closed
    /// The daemon sent a line longer than the client reads (``SextantConnection/lineLimit``):
    /// the connection is closed rather than the line held in memory.
    case lineTooLong(path: String, limit: Int)
    /// The task waiting was cancelled.
    case cancelled
    case io(String)

    public var description: String {
        switch self {
        case .cannotConnect(let path, let reason): return "cannot connect to \(path): \(reason) (is sextantd running?)"
        case .untrustedPeer(let path, let uid, let pid):
            return "refusing \(path): it is served by pid \(pid) of uid \(uid), neither you (uid \(getuid())) nor root, on a socket root did not put there; another user may have put it there"
        case .rpc(let error): return "\(error.message) (error \(error.code))"
        case .timedOut(let what): return "timed out waiting for \(what)"
        case .closed: return "the daemon closed the connection"
        case .lineTooLong(let path, let limit): return "the daemon sent a line longer than \(limit) bytes on \(path): connection closed"
        case .cancelled: return "cancelled"
        case .io(let what): return what
        }
    }
}

/// An event (JSON-RPC notification) from the daemon, as it came.
public struct ServerEvent: Sendable, Equatable {
    public var method: String
    public var params: JSONValue

    public init(method: String, params: JSONValue) {
        self.method = method
        self.params = params
    }

    /// The event decoded (``SextantEvent``); an event whose params do not read is an error.
    public func decoded() throws(ClientError) -> SextantEvent {
        do { return try SextantEvent(method: method, params: params) } catch { throw .io("the daemon's \(method) event does not read: \(error.message)") }
    }
}
