import NIOCore
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
    /// Android's location foreground service started (true) or stopped (docs/platforms.md AN13).
    let foregroundService: Bool?

    init(_ p: Params) throws(RPCError) {
        let request = try AppUpdate(p)
        foregroundService = request.foregroundService
        state = request.state
        orientations = request.orientations
        interfaceLocked = request.interfaceLocked
    }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        let hub = call.hub
        let session = call.session!
        var service: EventLoopFuture<Void>?
        if let foregroundService { service = try Self.setForegroundService(foregroundService, of: session, hub: hub) }
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
        guard let state else {
            guard let service else { return .result(hub.appStateJSON(session)) }
            return .later(service.assumeIsolated().map { _ in hub.appStateJSON(session) }.nonisolated())
        }
        // On the hub's loop: the hub and the session are read there, never sent across. A
        // foreground service is started before the app leaves the foreground (AN13).
        let after = service ?? hub.eventLoop.makeSucceededVoidFuture()
        return .later(
            after.assumeIsolated().flatMap { hub.setAppState(session, state, by: .app) }.map { hub.appStateJSON(session) }.nonisolated())
    }

    /// AN13: the foreground service, on an Android phone only; the change is stored (the app's
    /// last use) before it applies.
    private static func setForegroundService(_ running: Bool, of session: AppSession, hub: Hub) throws(RPCError) -> EventLoopFuture<Void> {
        guard hub.configuration.platform.androidAPI != nil else {
            throw .invalidParams("\"foregroundService\" is Android's: this phone is iOS (sextantd --platform ios)")
        }
        let (id, time) = (session.id, hub.now)
        return try hub.commitDecision { engine in ((), engine.setForegroundService(id, running: running, at: time)) }
    }
}
