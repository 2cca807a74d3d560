import NIOCore
import SextantCore

/// The fixes on their way to the sessions: the run of fixes not every session has had yet,
/// and where each session is in it.
///
/// The rules for each session (RULES L1, L8, L10, L11) and the hand-over of the shared
/// bytes cost a couple of microseconds a session: at ten thousand sessions, tens of
/// milliseconds in which the loop reads no socket. So a sweep over the sessions reaches
/// `LocationSettings.sessionsPerTurn` of them per turn, the next ones in a later turn
/// (``FlushBatcher/inLaterTurn(_:)``), while requests and samples are handled in between.
/// During a replay's turn at `max` (``LocationDelivery/batching(_:)``) no sweep runs until the
/// turn's end: each session then takes the turn's fixes in one decision, and a session that
/// takes every fix as it is (full accuracy, no distance filter, nothing else waiting) takes
/// them with one look at the rules instead of one per fix.
///
/// Each session still sees what it would have seen had every fix reached every session at
/// once, before whatever came next: a session not reached yet is *owed* the fixes after its
/// cursor, and they are settled (decided and sent) before anything else reaches it —
/// another event (`Hub.publish`, through ``LocationDelivery/settle(_:)``), an authorization change (before its queued locations are
/// discarded, so L9's cut-off holds), a request of its own. A settled fix is decided under
/// the rules in force when it is settled: a session revoked meanwhile gets nothing.
///
/// `@exclusivity(unchecked)` on its state: it is used on the hub's loop only, and no method
/// that changes a property calls anything that reaches the same property (the sweep's
/// `stillHears` changes the session's flag, not the list it is asked from); the run-time
/// check cost about 60 instructions an access, several a delivery.
final class LocationFanOut {
    /// The run: the fixes from number `base` on.
    @exclusivity(unchecked) private(set) var fixes: [LocationFix] = []
    /// Their shared events, in the same order (two arrays, not one of pairs: a session that
    /// takes the run as it is gets a slice of these in one call, ``SessionOutput/deliver(run:)``).
    @exclusivity(unchecked) private(set) var events: [SharedEvent] = []
    @exclusivity(unchecked) private(set) var base: UInt64 = 0
    /// The number the next fix takes: a session whose cursor is here is owed nothing.
    var end: UInt64 { base + UInt64(fixes.count) }

    /// The sweep in progress: the sessions hearing locations when it began, the next one it reaches, and
    /// the run's end then (fixes added later need another sweep).
    @exclusivity(unchecked) private var sweep: [AppSession] = []
    @exclusivity(unchecked) private var next = 0
    @exclusivity(unchecked) private var sweepEnd: UInt64 = 0
    /// Whether a later turn will go on with the sweep.
    @exclusivity(unchecked) var continues = false
    /// Whether fixes wait for the end of a replay's turn before any sweep.
    @exclusivity(unchecked) var batching = false
    /// The sessions that started hearing locations (a stream, a `location.once` waiting), in
    /// id order, and perhaps some that stopped since: a sweep takes these only, so that a
    /// session that asks for no location costs a fix nothing.
    @exclusivity(unchecked) private var listed = SessionList()

    /// The most fixes a run holds: past it, the run is settled for every session first.
    static let runLimit = 4096

    var isFull: Bool { fixes.count >= Self.runLimit }

    func append(_ fix: LocationFix, _ event: SharedEvent) {
        fixes.append(fix)
        events.append(event)
    }

    /// Whether `session` has not had every fix of the run yet.
    func owes(_ session: AppSession) -> Bool { session.fixes.cursor < end }

    /// Where the fixes `session` is owed are in ``fixes`` and ``events``, leaving it owed none.
    func take(for session: AppSession) -> Range<Int> {
        let from = Int(max(session.fixes.cursor, base) - base)
        session.fixes.cursor = end
        return from..<fixes.count
    }

    /// The next session of the sweep that is owed fixes, if any, starting a new sweep when
    /// fixes came after the last one began; nil once every open session had the whole run
    /// (the run is then dropped).
    func nextOwed() -> AppSession? {
        while true {
            while next < sweep.count {
                let session = sweep[next]
                next += 1
                if session.isOpen, owes(session) { return session }
            }
            guard sweepEnd < end else {
                base = end
                fixes.removeAll(keepingCapacity: fixes.count <= 1024)
                events.removeAll(keepingCapacity: events.count <= 1024)
                sweep = []
                return nil
            }
            // Only the sessions that hear locations: one that says nothing of them costs a
            // fix nothing. It starts hearing from the fix after its start (its cursor is
            // settled then: the request's own settle, or the face's start).
            sweep = hearers()
            next = 0
            sweepEnd = end
        }
    }

    // MARK: - The hearers

    /// `session` has started hearing locations (its stream began, or a `location.once`
    /// waits): the next sweep takes it.
    func startsHearing(_ session: AppSession) {
        guard session.isOpen, !session.fixes.listed else { return }
        session.fixes.listed = true
        listed.insert(session)
    }

    /// The session ended: it leaves the list (at once or with others, ``SessionList``).
    func closed(_ session: AppSession) {
        if session.fixes.listed { listed.leave(Self.stillHears) }
    }

    /// The open sessions that hear locations now, in id order; those that stopped or ended
    /// leave the list here, where the cost is the hearers', not every session's.
    func hearers() -> [AppSession] {
        listed.compact(Self.stillHears)
        return listed.listed
    }

    /// How many sessions the list holds, those that left and are not dropped yet among them
    /// (what the churn tests bound).
    var listedCount: Int { listed.listed.count }

    /// Whether a listed session stays in the list; one that does not is unlisted.
    private static func stillHears(_ session: AppSession) -> Bool {
        let stays = session.isOpen && session.fixes.hears
        if !stays { session.fixes.listed = false }
        return stays
    }
}
