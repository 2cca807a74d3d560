import NIOCore
import SextantCore
import SextantProtocol

/// `apps.list`: the live app sessions.
struct AppsListMethod: RPCMethod {
    static let name = Method.appsList
    init(_ p: Params) throws(RPCError) {}

    func run(_ call: MethodCall) throws(RPCError) -> Reply { .result(.array(call.hub.sessions.ordered.map(call.hub.appEntry))) }
}

/// `apps.update`: the control side moves apps between foreground and background, and its
/// word holds against the app's own `app.update` (RULES L8a).
struct AppsUpdateMethod: RPCMethod {
    static let name = Method.appsUpdate
    let state: AppState
    let target: AppsUpdate.Target

    init(_ p: Params) throws(RPCError) {
        let request = try AppsUpdate(p)
        (state, target) = (request.state, request.target)
    }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        let hub = call.hub
        let targets: [AppSession]
        switch target {
        case .session(let number):
            guard let session = hub.sessions[SessionID(clamping: number)] else { throw RPCError(.unknownApp, "no live session \(number)") }
            targets = [session]
        case .app(let app):
            targets = hub.sessions.ordered.filter { $0.app == app }
            guard !targets.isEmpty else { throw RPCError(.unknownApp, "no live session of app \"\(app)\"") }
        }
        let moves = targets.map { hub.setAppState($0, state, by: .control) }
        // On the hub's loop: the hub and the sessions are read there, never sent across.
        let moved = EventLoopFuture.andAllSucceed(moves, on: hub.eventLoop).assumeIsolated()
        return .later(moved.map { .array(targets.map(hub.appEntry)) }.nonisolated())
    }
}
