import NIOCore
import SextantCore

/// A fix on its way to more sessions than one turn of the loop should serve.
///
/// The rules for each session (RULES L1, L8, L10, L11) and the hand-over of the shared
/// bytes cost a couple of microseconds a session: at ten thousand sessions, tens of
/// milliseconds in which the loop reads no socket. So a fix reaches
/// `HubConfiguration.locationsPerTurn` sessions per turn, the next ones in a later turn
/// (``FlushBatcher/inLaterTurn(_:)``), while requests and samples are handled in between.
///
/// Each session still sees what it would have seen had the whole fan-out run at once,
/// before whatever came next: a session not reached yet is *owed* the fix, and the owed fix
/// is settled (decided and sent) before anything else reaches that session — another
/// event (`Hub.publish`), an authorization change (before its queued locations are
/// discarded, so L9's cut-off holds), a request of its own, the next fix. A settled fix is
/// decided under the rules in force when it is settled: a session revoked meanwhile gets
/// nothing.
///
/// A class: the loop over its sessions and every session's "is it owed?" read it in place;
/// as a struct in an optional, each of those reads copied it (the fix with it), a tenth of
/// a replay's time.
final class LocationFanOut {
    let fix: LocationFix
    let fullFix: SharedEvent
    /// The sessions open when the fix came, in id order.
    let sessions: [AppSession]
    /// The next one the fan-out itself reaches.
    var next = 0
    /// Sessions further on that were settled early (they skip their turn).
    var settledEarly: Set<SessionID> = []

    init(fix: LocationFix, fullFix: SharedEvent, sessions: [AppSession]) {
        self.fix = fix
        self.fullFix = fullFix
        self.sessions = sessions
    }

    var isDone: Bool { next >= sessions.count }

    /// The hub's fan-out in progress, if any.
    final class State {
        private(set) var current: LocationFanOut?

        /// `fanOut` is the fix on its way from now on.
        func begin(_ fanOut: LocationFanOut) { current = fanOut }

        /// `fanOut` is done, if it is still the one on its way.
        func end(_ fanOut: LocationFanOut) { if current === fanOut { current = nil } }
    }

    /// Whether `session` has not had this fix yet. Sessions are in id order and a session
    /// opened after the fix has a larger id than any here, so a range check finds them.
    func owes(_ session: AppSession) -> Bool {
        guard next < sessions.count, let last = sessions.last else { return false }
        return session.id >= sessions[next].id && session.id <= last.id && !settledEarly.contains(session.id)
    }
}

extension Hub {
    /// Sends `fix` to every session, `configuration.locationsPerTurn` per turn of the loop.
    func fanOutLocation(_ fix: LocationFix, _ fullFix: SharedEvent) {
        settleLocationFanOut()
        let targets = sessions.ordered
        locationFanOut.begin(LocationFanOut(fix: fix, fullFix: fullFix, sessions: targets))
        continueLocationFanOut(limit: configuration.locationsPerTurn)
    }

    /// Serves up to `limit` sessions of the fan-out in progress; schedules the rest.
    private func continueLocationFanOut(limit: Int) {
        guard let fanOut = locationFanOut.current else { return }
        let targets = fanOut.sessions
        var served = 0
        // Its identity tells this fan-out from any other begun meanwhile.
        while served < limit, locationFanOut.current === fanOut, fanOut.next < targets.count {
            let session = targets[fanOut.next]
            fanOut.next += 1
            let early = !fanOut.settledEarly.isEmpty && fanOut.settledEarly.remove(session.id) != nil
            served += 1
            // A session that ended meanwhile gets nothing.
            guard !early, session.isOpen else { continue }
            deliverLocation(fanOut.fix, to: session, fullFix: fanOut.fullFix)
        }
        guard locationFanOut.current === fanOut, !fanOut.isDone else {
            locationFanOut.end(fanOut)
            return
        }
        // On the flush batcher's chain of turns, after the writes of this one have left.
        flushes.inLaterTurn { [self] in continueLocationFanOut(limit: configuration.locationsPerTurn) }
    }

    /// Finishes the fan-out in progress at once (the next fix must not overtake it).
    func settleLocationFanOut() {
        continueLocationFanOut(limit: .max)
    }

    /// Before anything else reaches `session`: the fix it is owed, if any, decided now.
    /// Returns whether it was owed one.
    @discardableResult
    func settleOwedLocation(_ session: AppSession) -> Bool {
        guard let fanOut = locationFanOut.current, fanOut.owes(session) else { return false }
        fanOut.settledEarly.insert(session.id)
        deliverLocation(fanOut.fix, to: session, fullFix: fanOut.fullFix)
        return true
    }
}
