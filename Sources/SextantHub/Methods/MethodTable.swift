import NIOCore
import SextantProtocol

/// What a method handler gives back.
enum Reply {
    case result(JSONValue)
    case error(RPCError)
    /// The handler answers later (a prompt, a fix, a store write).
    case later(EventLoopFuture<JSONValue>)
    /// The answer is sent by someone else (an `authorization.request` waits for its prompt).
    case deferred
}

/// One request as a handler sees it: where it came from and how to reach the hub.
struct MethodCall {
    let hub: Hub
    /// Who called: its answers and notifications go there.
    let peer: any RPCPeer
    /// nil for a notification: the handler acts, and nobody hears the answer.
    let id: JSONValue?
    /// The caller's app session, for methods that need one (checked before params are read).
    let session: AppSession!
    /// The time a value set by hand is stamped with: the wall clock's for a client, the
    /// replay's for a control action a replay plays (nil: the wall clock's).
    var sampleTime: Timestamp? = nil
}

/// One method of one socket. A handler decodes its own params in `init` (throwing -32602)
/// and acts in `run`; the table checks everything that comes before params.
protocol RPCMethod {
    static var name: String { get }
    /// Whether the caller must have said `hello` first (app socket: 1003 otherwise).
    static var requiresSession: Bool { get }
    init(_ params: Params) throws(RPCError)
    func run(_ call: MethodCall) throws(RPCError) -> Reply
}

extension RPCMethod {
    static var requiresSession: Bool { false }
}

/// An app method without parameters that does one thing to the caller's session and
/// answers `{}` (a service's start or stop): the type names the method and the action.
protocol SessionActionMethod: RPCMethod {
    init()
    static func perform(_ call: MethodCall) throws(RPCError)
}

extension SessionActionMethod {
    static var requiresSession: Bool { true }

    init(_ params: Params) throws(RPCError) { self.init() }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        try Self.perform(call)
        return .result([:])
    }
}

/// A socket's methods by name, in the spirit of Hummingbird's router: adding a method is a
/// new `RPCMethod` type and one line in the socket's list (`MethodTable.app`/`.control`).
///
/// Dispatch applies PROTOCOL's precedence in one place, whatever the socket: an unknown
/// method is -32601 before anything about its params; then 1003 for a method that needs a
/// session; then the handler's own -32602.
struct MethodTable {
    let socket: SocketKind
    private let methods: [String: any RPCMethod.Type]

    init(_ socket: SocketKind, _ list: [any RPCMethod.Type]) {
        self.socket = socket
        var methods: [String: any RPCMethod.Type] = [:]
        for method in list {
            precondition(methods[method.name] == nil, "\(method.name) registered twice on the \(socket) socket")
            methods[method.name] = method
        }
        self.methods = methods
    }

    var names: [String] { methods.keys.sorted() }

    /// Whether `method` is on this socket and takes `params`, as `dispatch` would read them,
    /// without acting.
    func check(_ method: String, params: JSONValue?) throws(RPCError) {
        guard let handler = methods[method] else { throw RPCError(.methodNotFound, "no method \"\(method)\" on the \(socket.rawValue) socket") }
        _ = try handler.init(Params(params))
    }

    func dispatch(_ method: String, params: JSONValue?, id: JSONValue?, on peer: any RPCPeer, hub: Hub, sampleTime: Timestamp? = nil) -> Reply {
        do throws(RPCError) {
            guard let handler = methods[method] else {
                throw RPCError(.methodNotFound, "no method \"\(method)\" on the \(socket.rawValue) socket")
            }
            var session: AppSession?
            if handler.requiresSession {
                guard let id = peer.session, let open = hub.sessions[id] else { throw RPCError(.noSession, "call hello first") }
                session = open
            }
            let decoded = try handler.init(Params(params))
            return try decoded.run(MethodCall(hub: hub, peer: peer, id: id, session: session, sampleTime: sampleTime))
        } catch {
            return .error(error)
        }
    }
}
