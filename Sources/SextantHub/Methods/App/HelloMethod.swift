import SextantCore
import SextantProtocol

/// `hello`: opens the app session (PROTOCOL "App socket"). A failed `hello` opens none.
struct HelloMethod: RPCMethod {
    static let name = Method.hello
    let app: String
    let state: AppState
    let declared: [InterfaceOrientation]?
    /// The iOS Info.plist keys that change its authorization (docs/platforms.md I9–I12).
    let declaration: IOSAppDeclaration
    /// NSMotionUsageDescription and the Android manifest (docs/motion.md A14, docs/platforms.md AN41).
    let motionDeclaration: MotionDeclaration

    init(_ p: Params) throws(RPCError) {
        let request = try Hello(p)
        app = request.app
        state = request.state ?? .foreground
        declared = request.orientations
        declaration = request.declaration
        motionDeclaration = request.motionDeclaration
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
        let (app, state, peer, declaration, motionDeclaration) = (self.app, self.state, call.peer, self.declaration, self.motionDeclaration)
        // docs/security.md: the app id must be this uid's; a first claim is stored first (Hub+Store).
        let reply = try hub.claimAppID(app, by: peer) { () throws(RPCError) -> JSONValue in
            guard peer.session == nil else { throw RPCError(.invalidRequest, "hello was already said on this connection") }
            // The claim's write may outlast the connection: a session opened for a peer
            // already gone would never be closed (issue 28.5).
            guard !peer.isClosed else { throw RPCError.internalError("the connection closed before its hello was answered") }
            let session = hub.openSession(app: app, state: state, interface: interface, peer: peer)
            hub.declare(session, declaration)
            session.motionDeclaration = motionDeclaration
            return HelloResult(
                session: Int(session.id), profile: hub.configuration.profile, servicesEnabled: hub.authorization.servicesEnabled,
                authorization: hub.authorization.authorization(of: session.id).result, interfaceOrientation: session.interface.orientation,
                deviceOrientation: hub.motion.judge.orientation, posture: hub.services(PostureService.self).postureJSON,
                platform: hub.configuration.platform
            ).json
        }
        // The app's next requests may already be on their way: they wait for this answer.
        if case .later(let answer) = reply { hub.holdRequests(of: peer, until: answer) }
        return reply
    }
}
