import SextantCore
import SextantProtocol

/// Where each fix goes once the GNSS profile reported it: the latest fix and the GPS
/// source's loss (``LocationState``), the sessions' streams and `location.once` calls
/// (RULES L1, L8–L11) through the fan-out (``LocationFanOut``), and the watchers' copy.
///
/// The hub reaches it as `services.fixes`, a concrete type: every fix, every delivery and
/// every event published (``settle(_:)``) pass here, so no call is made through a protocol
/// and no session's state is looked up (each holds its ``LocationSubscription``). The hub
/// names none of this: it hands over the fixes, and calls the hooks below when a session
/// opens, ends, or may no longer have locations.
final class LocationDelivery {
    /// The hub owns its services and outlives them. Each use of this reference retains the
    /// hub, so the hot path takes it once a sweep that serves someone, or a settle, and hands
    /// it down as an argument.
    unowned(unsafe) let hub: Hub
    /// The hub's watchers (the same table for the hub's life), read on every fix.
    let watchers: WatcherTable
    /// The fixes on their way to the sessions, across turns of the loop.
    let fanOut = LocationFanOut()
    /// The latest fix, its source, the GPS source's loss.
    let state = LocationState()
    /// Whether the fan-out answers a session's `location.once`s with the next fix (the iOS
    /// stream's); a platform provider answers its own. A stored flag: a delivery reads it.
    let answersOnce: Bool
    let settings: LocationSettings
    /// Whether a watcher takes `location` events, asked on every fix.
    private var watched = WatcherInterest(Event.location)

    init(hub: Hub, answersOnce: Bool) {
        self.hub = hub
        self.watchers = hub.watchers
        self.answersOnce = answersOnce
        self.settings = hub.configuration.services.location
    }

    var lastFix: LocationFix? { state.lastFix }
    var loss: String? { state.loss }
    var lastFixSource: SourceName? { state.lastFixSource }

    // MARK: - Fixes in

    /// A fix from `source` is being ingested (before the GNSS profile: the sky made up
    /// beside it reads its source).
    func coming(from source: SourceName) { state.fixComing(from: source) }

    /// A new fix: each streaming session gets what its authorization and stream allow
    /// (RULES L1, L8, L10, L11); `location.once` waiters get one; watchers see the fix
    /// before the rules, with the `truth` beside it when a GNSS profile moved it (N6).
    func decided(_ fix: LocationFix, truth: LocationFix) {
        // The previous fix reaches every session before anything of this one, but in a
        // replay's batch (``LocationFanOut``), where each session takes the turn's fixes at once.
        if !fanOut.batching { settleAll() }
        let lossEnds = state.loss != nil
        state.fixArrived(fix)
        if lossEnds { hub.services.conditionsChanged() }
        if watched.isHeard(by: watchers) { hub.broadcastToWatchers(Event.location, fix.watchedJSON(truth: truth), kind: .sensor) }
        // A full fix is the same for every app: encoded once for all of them; it reaches
        // a bounded number of sessions per turn of the loop.
        join(fix, SharedEvent(LocationEvent(fix, .full)))
    }

    /// What one session gets of a fix, if anything. A session served reduced whose grid is
    /// still being written gets nothing now: it gets the newest fix once the grid is on disk
    /// (``gridCommitted(for:)``).
    func deliver(_ fix: LocationFix, to session: AppSession) { deliver(fix, to: session, fullFix: nil, on: hub) }

    /// The same, with the fix's shared full-accuracy event, on `hub` (taken once by the caller).
    func deliver(_ fix: LocationFix, to session: AppSession, fullFix: SharedEvent?, on hub: Hub) {
        // A platform's provider answers its `location.once`s itself (AN35).
        guard session.fixes.stream != nil || (!session.fixes.onceWaiters.isEmpty && answersOnce) else { return }
        guard let granted = hub.decidedAccuracy(of: session) else { return }
        let fudger: LocationFudger
        if granted == .reduced || session.fixes.stream?.served(granted) == .reduced {
            guard let committed = hub.committedFudger(for: session.app) else { return }
            fudger = committed
        } else {
            // Full accuracy: the grid is not used (nor looked up: a hash of the app's name
            // for every fix to every app).
            fudger = LocationFudger(offsetEast: 0, offsetNorth: 0)
        }
        if !session.fixes.onceWaiters.isEmpty {
            let served: (LocationFix, LocationAccuracy) = granted == .reduced ? (fudger.coarsen(fix).fix, .reduced) : (fix, .full)
            for waiter in session.fixes.onceWaiters.removeAll() {
                waiter.timeout.cancel()
                waiter.peer.respond(waiter.id, .success(served.0.json(accuracy: served.1)))
            }
        }
        // A stream that takes every fix as it is (full accuracy, no distance filter) is not
        // offered it: `offer` copies the fix in and out, a tenth of a delivery.
        if let fullFix, session.fixes.stream?.deliversEvery(granted) == true {
            session.fixes.stream?.delivered(fix)
            // A shared event comes from the fan-out only, which has settled the session.
            return hub.publish(toSettled: session, fullFix)
        }
        // The stream changed in place, not copied out and back.
        if let (out, accuracy) = session.fixes.stream?.offer(fix, authorized: granted, fudger: fudger) {
            if accuracy == .full {
                hub.publish(to: session, fullFix ?? SharedEvent(LocationEvent(fix, .full)))
            } else {
                hub.publish(to: session, LocationEvent(out, accuracy))
            }
        }
    }

    /// The app's grid is on disk: its sessions get the newest fix, once (L10).
    func gridCommitted(for app: String) {
        guard let fix = state.lastFix else { return }
        for session in hub.sessions.ordered where session.app == app {
            // A session still owed the newest fix gets it now, once.
            if !settle(session) { deliver(fix, to: session) }
        }
    }

    /// The latest fix, unless the source is lost, to a stream that just started.
    func handLatestFix(to session: AppSession) {
        if let fix = state.lastFix, state.loss == nil { deliver(fix, to: session) }
    }

    // MARK: - The GPS source's loss

    /// The GPS source's own state: a loss is told once to every streaming app.
    func gpsSignal(_ signal: GPSSignal, from source: SourceName) {
        switch signal {
        case .lost, .noFix:
            if signal == .lost {
                unavailable(source == .gpsd ? "the GPS source (gpsd) was lost" : "the GPS source was lost (\(source.rawValue))")
            }
        case .ok:
            break
        }
    }

    /// N4a: what apps hear when a GNSS profile's receiver loses its fix.
    static let noFixReason = "no GNSS fix: the receiver sees no satellite (a tunnel or an outage)"

    /// The GNSS profile's receiver lost its fix (N4a).
    func receiverLost() { unavailable(Self.noFixReason) }

    /// No fix comes until the next one, for `reason`: told once to every streaming app, and
    /// to watchers (who see it in `status`'s `locationUnavailable` too) when no app streams.
    func unavailable(_ reason: String) {
        guard state.loss == nil else { return }
        state.lost(reason)
        hub.services.conditionsChanged()
        var told = false
        for session in hub.sessions.ordered where hub.services.locationProvider.streams(session) {
            told = true
            tellUnavailable(session, reason)
        }
        if !told { hub.broadcastToWatchers(Event.locationUnavailable, ["reason": .string(reason)]) }
    }

    func tellUnavailable(_ session: AppSession, _ reason: String) {
        hub.publish(to: session, LocationUnavailableEvent(reason: reason))
    }

    // MARK: - Sessions

    /// A session opened: owed no fix decided before it came.
    func opened(_ session: AppSession) { session.fixes.cursor = fanOut.end }

    /// `session` hears locations from now on (a stream, a `location.once` waiting).
    func startsHearing(_ session: AppSession) { fanOut.startsHearing(session) }

    /// The session ended: its `location.once` calls are answered by no one.
    func closed(_ session: AppSession) {
        for waiter in session.fixes.onceWaiters.removeAll() { waiter.timeout.cancel() }
        fanOut.closed(session)
    }

    /// The session may have no location now (L8, L9): its `location.once` calls fail with `error`.
    func refuse(_ session: AppSession, _ error: RPCError) {
        for waiter in session.fixes.onceWaiters.removeAll() {
            waiter.timeout.cancel()
            waiter.peer.respond(waiter.id, .failure(error))
        }
    }
}
