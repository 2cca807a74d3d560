import NIOCore
import SextantCore
import SextantProtocol

/// App lifecycle: foreground and background, whoever asks (RULES L5, L6, L8, L8a, O6, O11).
extension Hub {
    /// Moves an app between foreground and background. The authorization engine owns the
    /// state and decides whether the change holds (L8a: the control side's word outranks
    /// the app's); the interface follows only a change that happened.
    ///
    /// Coming forward can answer a waiting request by the prompt policy (L4, L12): that is a
    /// decision to store, so the move goes through `commitDecision` like any other, and
    /// takes effect (and is answered) once it is on disk; a failed write moves nothing.
    @discardableResult
    func setAppState(_ session: AppSession, _ state: AppState, by changer: AppStateChanger) -> EventLoopFuture<Void> {
        let time = now
        let id = session.id
        var before: AppState?
        do {
            return try commitDecision(from: changer == .control ? .control : .app) { engine in
                // Runs on a staged copy, then on the live engine: `before` ends as the live one's.
                before = engine.appState(of: id)
                return ((), engine.setAppState(id, state, by: changer, at: time))
            }.assumeIsolated().map { [self] in followStateChange(of: session, from: before) }.nonisolated()
        } catch {
            return eventLoop.makeFailedFuture(error)
        }
    }

    /// What follows a move that happened: the interface (O6, O11), and locations stopped (L8).
    private func followStateChange(of session: AppSession, from before: AppState?) {
        guard sessions[session.id] != nil, let after = authorization.appState(of: session.id), after != before else { return }
        publishInterface(session.interface.stateChanged(to: after, interfaceConditions), to: session)
        if !authorization.mayReceiveLocations(session.id) {
            // L8: a when-in-use stream pauses in the background; nothing queued leaks out.
            session.output.discardQueuedLocations()
            services.fixes.refuse(session, RPCError(.notAuthorized, "authorizedWhenInUse delivers locations only in the foreground"))
        }
        logger.info("app state changed", metadata: ["app": "\(session.app)", "session": "\(session.id)", "state": "\(after.rawValue)"])
        sessionChanged(session)
    }

    /// Foreground or background, as the authorization engine (its one owner) has it.
    func appState(of session: AppSession) -> AppState { authorization.appState(of: session.id) ?? .foreground }

    /// `app.update`'s result: the state in force (which may be the control side's, L8a).
    func appStateJSON(_ session: AppSession) -> JSONValue {
        [
            "state": .string(appState(of: session).rawValue),
            "interfaceOrientation": JSONValue(session.interface.orientation?.rawValue),
        ]
    }
}
