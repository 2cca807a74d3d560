import NIOCore
import SextantCore

/// The fixes on their way to the sessions: the run of fixes not every session has had yet,
/// and where each session is in it.
///
/// The rules for each session (RULES L1, L8, L10, L11) and the hand-over of the shared
/// bytes cost a couple of microseconds a session: at ten thousand sessions, tens of
/// milliseconds in which the loop reads no socket. So a sweep over the sessions reaches
/// `HubConfiguration.locationsPerTurn` of them per turn, the next ones in a later turn
/// (``FlushBatcher/inLaterTurn(_:)``), while requests and samples are handled in between.
/// During a replay's turn at `max` (``Hub/batchingLocations(_:)``) no sweep runs until the
/// turn's end: each session then takes the turn's fixes in one decision, and a session that
/// takes every fix as it is (full accuracy, no distance filter, nothing else waiting) takes
/// them with one look at the rules instead of one per fix.
///
/// Each session still sees what it would have seen had every fix reached every session at
/// once, before whatever came next: a session not reached yet is *owed* the fixes after its
/// cursor, and they are settled (decided and sent) before anything else reaches it —
/// another event (`Hub.publish`), an authorization change (before its queued locations are
/// discarded, so L9's cut-off holds), a request of its own. A settled fix is decided under
/// the rules in force when it is settled: a session revoked meanwhile gets nothing.
final class LocationFanOut {
    struct Entry {
        let fix: LocationFix
        let event: SharedEvent
    }

    /// The run: the fixes from number `base` on.
    private(set) var entries: [Entry] = []
    private(set) var base: UInt64 = 0
    /// The number the next fix takes: a session whose cursor is here is owed nothing.
    var end: UInt64 { base + UInt64(entries.count) }

    /// The sweep in progress: the sessions hearing locations when it began, the next one it reaches, and
    /// the run's end then (fixes added later need another sweep).
    private var sweep: [AppSession] = []
    private var next = 0
    private var sweepEnd: UInt64 = 0
    /// Whether a later turn will go on with the sweep.
    var continues = false
    /// Whether fixes wait for the end of a replay's turn before any sweep.
    var batching = false

    /// The most fixes a run holds: past it, the run is settled for every session first.
    static let runLimit = 4096

    var isFull: Bool { entries.count >= Self.runLimit }

    func append(_ fix: LocationFix, _ event: SharedEvent) {
        entries.append(Entry(fix: fix, event: event))
    }

    /// Whether `session` has not had every fix of the run yet.
    func owes(_ session: AppSession) -> Bool { session.locationCursor < end }

    /// The fixes `session` is owed, leaving it owed none.
    func take(for session: AppSession) -> ArraySlice<Entry> {
        let from = Int(max(session.locationCursor, base) - base)
        session.locationCursor = end
        return entries[from...]
    }

    /// The next session of the sweep that is owed fixes, if any, starting a new sweep when
    /// fixes came after the last one began; nil once every open session had the whole run
    /// (the run is then dropped).
    func nextOwed(in sessions: SessionTable) -> AppSession? {
        while true {
            while next < sweep.count {
                let session = sweep[next]
                next += 1
                if session.isOpen, owes(session) { return session }
            }
            guard sweepEnd < end else {
                base = end
                entries.removeAll(keepingCapacity: entries.count <= 1024)
                sweep = []
                return nil
            }
            // Only the sessions that hear locations: one that says nothing of them costs a
            // fix nothing. It starts hearing from the fix after its start (its cursor is
            // settled then: the request's own settle, or the face's start).
            sweep = sessions.locationHearers()
            next = 0
            sweepEnd = end
        }
    }
}

extension Hub {
    /// A decided fix joins the run; outside a batch, the sweep begins at once.
    func fanOutLocation(_ fix: LocationFix, _ fullFix: SharedEvent) {
        if locationFanOut.isFull { settleLocationFanOut() }
        locationFanOut.append(fix, fullFix)
        guard !locationFanOut.batching else { return }
        continueLocationFanOut(limit: configuration.locationsPerTurn)
    }

    /// While `batching`, fixes wait for the end of the batch (a replay's turn at `max`),
    /// where the sweep begins. A batch begins only while every session takes every fix as
    /// it is or none, so that no fix's delivery has an effect of its own to wait for (a
    /// reduced session's first fix writes its grid, and the replay waits for that: L10), and
    /// it ends at anything that may change that (an effect of the authorization engine, a
    /// control action the replay plays). Watchers see each app's copy of each fix in order:
    /// a batch would put them after the turn's other events, so there is none while anyone
    /// watches.
    func batchingLocations(_ batching: Bool) {
        guard batching else {
            locationFanOut.batching = false
            return continueLocationFanOut(limit: configuration.locationsPerTurn)
        }
        locationFanOut.batching = watchers.isEmpty && sessions.ordered.allSatisfy(takesEveryFixAsItIs)
    }

    /// Whether `session` takes every fix as it is, or none: no `location.once` waits, and
    /// its stream, if any, is at full accuracy without a distance filter (L8, L10, L11).
    private func takesEveryFixAsItIs(_ session: AppSession) -> Bool {
        guard session.onceWaiters.isEmpty else { return false }
        guard let stream = session.stream else { return true }
        return decidedAccuracy(of: session) == .full && stream.deliversEvery(.full)
    }

    /// Serves up to `limit` sessions of the sweep; schedules the rest in a later turn.
    private func continueLocationFanOut(limit: Int) {
        var served = 0
        while served < limit, let session = locationFanOut.nextOwed(in: sessions) {
            served += 1
            deliverOwedLocations(to: session)
        }
        guard served == limit, !locationFanOut.continues else { return }
        // On the flush batcher's chain of turns, after the writes of this one have left.
        locationFanOut.continues = true
        flushes.inLaterTurn { [self] in
            locationFanOut.continues = false
            continueLocationFanOut(limit: configuration.locationsPerTurn)
        }
    }

    /// Every session gets the whole run at once (the run is full, or must not wait).
    func settleLocationFanOut() {
        continueLocationFanOut(limit: .max)
    }

    /// Before anything else reaches `session`: the fixes it is owed, if any, decided now.
    /// Returns whether it was owed any.
    @discardableResult
    func settleOwedLocation(_ session: AppSession) -> Bool {
        guard locationFanOut.owes(session) else { return false }
        deliverOwedLocations(to: session)
        return true
    }

    /// The fixes `session` is owed, in order: with one decision when it takes every fix as
    /// it is (L8, L11: a full-accuracy stream without a distance filter and no
    /// `location.once` waiting), else fix by fix.
    private func deliverOwedLocations(to session: AppSession) {
        let owed = locationFanOut.take(for: session)
        if owed.count > 1, let last = owed.last, session.stream != nil, takesEveryFixAsItIs(session), watchers.isEmpty {
            session.stream?.delivered(last.fix)
            for entry in owed { session.output.deliver(entry.event) }
            return
        }
        for entry in owed { deliverLocation(entry.fix, to: session, fullFix: entry.event) }
    }
}
