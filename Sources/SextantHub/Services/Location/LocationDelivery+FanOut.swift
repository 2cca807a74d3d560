import SextantCore

/// The sweeps of the fan-out (``LocationFanOut``): a bounded number of sessions a turn, the
/// owed ones settled before anything else reaches them, a replay's turn at `max` in one
/// decision per session.
extension LocationDelivery {
    /// A decided fix joins the run; outside a batch, the sweep begins at once.
    func join(_ fix: LocationFix, _ fullFix: SharedEvent) {
        if fanOut.isFull { settleAll() }
        fanOut.append(fix, fullFix)
        guard !fanOut.batching else { return }
        continueSweep(limit: settings.sessionsPerTurn)
    }

    /// While `batching`, fixes wait for the end of the batch (a replay's turn at `max`),
    /// where the sweep begins. A batch begins only while every session takes every fix as
    /// it is or none, so that no fix's delivery has an effect of its own to wait for (a
    /// reduced session's first fix writes its grid, and the replay waits for that: L10), and
    /// it ends at anything that may change that (an effect of the authorization engine, a
    /// control action the replay plays). Watchers see each app's copy of each fix in order:
    /// a batch would put them after the turn's other events, so there is none while anyone
    /// watches.
    func batching(_ batching: Bool) {
        guard batching else {
            fanOut.batching = false
            return continueSweep(limit: settings.sessionsPerTurn)
        }
        let hub = hub
        fanOut.batching = watchers.isEmpty && hub.sessions.ordered.allSatisfy { takesEveryFixAsItIs($0, on: hub) }
    }

    /// The authorization engine is about to act: a batch ends, so that the fixes before
    /// are decided under the rules in force until now.
    func effectsComing() {
        if fanOut.batching { batching(false) }
    }

    /// Whether `session` takes every fix as it is, or none: no `location.once` waits, and
    /// its stream, if any, is at full accuracy without a distance filter (L8, L10, L11).
    private func takesEveryFixAsItIs(_ session: AppSession, on hub: Hub) -> Bool {
        guard session.fixes.onceWaiters.isEmpty else { return false }
        guard let stream = session.fixes.stream else { return true }
        return hub.decidedAccuracy(of: session) == .full && stream.deliversEvery(.full)
    }

    /// Serves up to `limit` sessions of the sweep; schedules the rest in a later turn.
    private func continueSweep(limit: Int) {
        // Most calls find no session owed anything (the replay's turns, a fix nobody hears).
        guard let first = fanOut.nextOwed() else { return }
        let hub = hub
        deliverOwed(to: first, on: hub)
        var served = 1
        while served < limit, let session = fanOut.nextOwed() {
            served += 1
            deliverOwed(to: session, on: hub)
        }
        guard served == limit, !fanOut.continues else { return }
        // On the flush batcher's chain of turns, after the writes of this one have left.
        fanOut.continues = true
        hub.flushes.inLaterTurn { [self] in
            fanOut.continues = false
            continueSweep(limit: settings.sessionsPerTurn)
        }
    }

    /// Every session gets the whole run at once (the run is full, or must not wait).
    func settleAll() {
        continueSweep(limit: .max)
    }

    /// Before anything else reaches `session`: the fixes it is owed, if any, decided now.
    /// Returns whether it was owed any.
    @discardableResult
    func settle(_ session: AppSession) -> Bool {
        guard fanOut.owes(session) else { return false }
        deliverOwed(to: session, on: hub)
        return true
    }

    /// The fixes `session` is owed, in order: with one decision when it takes every fix as
    /// it is (L8, L11: a full-accuracy stream without a distance filter and no
    /// `location.once` waiting), else fix by fix.
    private func deliverOwed(to session: AppSession, on hub: Hub) {
        let owed = fanOut.take(for: session)
        if owed.count > 1, session.fixes.stream != nil, takesEveryFixAsItIs(session, on: hub), watchers.isEmpty {
            session.fixes.stream?.delivered(fanOut.fixes[owed.upperBound - 1])
            session.deliver(run: fanOut.events[owed])
            return
        }
        if owed.count == 1 {
            // The usual case outside a replay at `max`: one fix a turn, read where it is.
            return deliver(fanOut.fixes[owed.lowerBound], to: session, fullFix: fanOut.events[owed.lowerBound], on: hub)
        }
        // Slices of the run as it is now (copied if a delivery reaches code that adds to it).
        for (fix, event) in zip(fanOut.fixes[owed], fanOut.events[owed]) { deliver(fix, to: session, fullFix: event, on: hub) }
    }
}
