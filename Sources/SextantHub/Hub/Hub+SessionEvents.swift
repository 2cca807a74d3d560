import SextantCore
import SextantProtocol

/// The control side's `session` event: a session as `apps.list` gives it, each time one
/// opens, closes or changes what `apps.list` shows of it (its state, authorization,
/// interface orientation, what it streams). Watchers only: an app never hears of another.
///
/// Every place that may change a session calls `sessionChanged`; the entry is compared
/// with the one the watchers were last told (`AppSession.announced`), so a call that
/// changed nothing sends nothing, and no entry is built while nobody watches sessions.
extension Hub {
    /// What a `session` event says happened.
    enum SessionChange: String {
        case opened, changed, closed
    }

    /// A session opened: logged, and announced to the watchers.
    func sessionOpened(_ session: AppSession, state: AppState) {
        logger.info(
            "app session started",
            metadata: [
                "app": "\(session.app)", "session": "\(session.id)", "face": "\(session.output.face)", "pid": "\(session.output.peer?.pid ?? 0)",
                "state": "\(state.rawValue)",
            ])
        announce(session, .opened)
    }

    /// A session ended (closed in the table already): logged, and announced with what
    /// identifies it; its authorization and streams went with it.
    func sessionClosed(_ session: AppSession) {
        logger.info("app session ended", metadata: ["app": "\(session.app)", "session": "\(session.id)"])
        appSessionEnded(session.app)  // a binding of nothing stored goes with the last session
        guard watchersAdmit(Event.session) else { return }
        session.announced = nil
        broadcastToWatchers(Event.session, closedEntry(session))
    }

    /// Something of `session` may have changed: the watchers hear of it if it did.
    func sessionChanged(_ session: AppSession) {
        guard sessions[session.id] === session else { return }
        services.conditionsChanged()
        announce(session, .changed)
    }

    /// The entries the watchers are told changes against: what `apps.list` gives now, so
    /// that a watcher who just read it hears only what changes after.
    func sessionsWatched() {
        guard watchersAdmit(Event.session) else { return }
        for session in sessions.ordered { session.announced = appEntry(session) }
    }

    private func announce(_ session: AppSession, _ change: SessionChange) {
        guard watchersAdmit(Event.session) else {
            session.announced = nil
            return
        }
        let entry = appEntry(session)
        guard change == .opened || entry != session.announced else { return }
        session.announced = entry
        var members = entry.objectValue ?? [:]
        members["change"] = .string(change.rawValue)
        broadcastToWatchers(Event.session, .object(members))
    }

    private func closedEntry(_ session: AppSession) -> JSONValue {
        var entry = sessionIdentity(session)
        entry["change"] = .string(SessionChange.closed.rawValue)
        return .object(entry)
    }
}
