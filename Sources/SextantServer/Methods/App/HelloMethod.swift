import SextantCore
import SextantProtocol

/// `hello`: opens the app session (PROTOCOL "App socket"). A failed `hello` opens none.
struct HelloMethod: RPCMethod {
    static let name = Method.hello
    let app: String
    let state: AppState
    let declared: [InterfaceOrientation]?

    init(_ p: Params) throws(RPCError) {
        app = try p.requiredString("app")
        guard AppID.isValid(app) else { throw .invalidParams("\"app\" must be 1-255 of [A-Za-z0-9._-], e.g. com.example.maps") }
        state = try p.name("state", as: AppState.self) ?? .foreground
        declared = try p.interfaceOrientations("orientations")
    }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        let hub = call.hub
        guard call.peer.session == nil else { throw RPCError(.invalidRequest, "hello was already said on this connection") }
        let interface: AppInterfaceOrientation
        do {
            interface = try AppInterfaceOrientation(declared: declared, state: state, conditions: hub.interfaceConditions)
        } catch {
            throw error.rpcError
        }
        let (app, state, peer) = (self.app, self.state, call.peer)
        // docs/security.md: the app id must be this uid's; a first claim is stored first (Hub+Store).
        let reply = try hub.claimAppID(app, by: peer) { () throws(RPCError) -> JSONValue in
            guard peer.session == nil else { throw RPCError(.invalidRequest, "hello was already said on this connection") }
            let session = hub.openSession(app: app, state: state, interface: interface, peer: peer)
            return [
                "protocol": .int(Int64(sextantProtocolVersion)),
                "session": .int(Int64(session.id)),
                "profile": .string(hub.configuration.profile.rawValue),
                "servicesEnabled": .bool(hub.authorization.servicesEnabled),
                "authorization": hub.authorization.authorization(of: session.id).json,
                "interfaceOrientation": JSONValue(session.interface.orientation?.rawValue),
                "deviceOrientation": .string(hub.judge.orientation.rawValue),
                "posture": hub.postureJSON,
            ]
        }
        // The app's next requests may already be on their way: they wait for this answer.
        if case .later(let answer) = reply { hub.holdRequests(of: peer, until: answer) }
        return reply
    }
}

extension Params {
    /// A list of interface orientation names, duplicates dropped, in the app's order.
    func interfaceOrientations(_ key: String) throws(RPCError) -> [InterfaceOrientation]? {
        guard let names = try stringList(key) else { return nil }
        var out: [InterfaceOrientation] = []
        for name in names {
            guard let o = InterfaceOrientation(rawValue: name) else {
                throw .invalidParams(
                    "\"\(key)\": \(name) is not an interface orientation (portrait, portraitUpsideDown, landscapeLeft, landscapeRight)")
            }
            if !out.contains(o) { out.append(o) }
        }
        return out
    }
}
