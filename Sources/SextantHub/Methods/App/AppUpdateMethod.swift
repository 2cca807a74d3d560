import SextantCore
import SextantProtocol

/// `app.update`: the app's supported orientations (O10), its own interface lock (O8) and
/// its state — unless the control side holds the state (RULES L8a).
struct AppUpdateMethod: RPCMethod {
    static let name = Method.appUpdate
    static let requiresSession = true
    let state: AppState?
    let orientations: [InterfaceOrientation]?
    let interfaceLocked: Bool?

    init(_ p: Params) throws(RPCError) {
        let request = try AppUpdate(p)
        state = request.state
        orientations = request.orientations
        interfaceLocked = request.interfaceLocked
    }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        let hub = call.hub
        let session = call.session!
        if let orientations {
            do {
                let change = try session.interface.setSupported(orientations, hub.interfaceConditions, state: hub.appState(of: session))
                hub.publishInterface(change, to: session)
            } catch {
                throw error.rpcError
            }
        }
        if let interfaceLocked {
            hub.publishInterface(session.interface.setInterfaceLocked(interfaceLocked, hub.interfaceConditions, state: hub.appState(of: session)), to: session)
        }
        guard let state else { return .result(hub.appStateJSON(session)) }
        // On the hub's loop: the hub and the session are read there, never sent across.
        return .later(hub.setAppState(session, state, by: .app).assumeIsolated().map { hub.appStateJSON(session) }.nonisolated())
    }
}
