import SextantCore
import SextantProtocol
import SextantStore

/// iOS's diagnostics (docs/platforms.md I13): to each session that asked
/// (`diagnostics.start`), a `diagnostics` event with Apple's flags at once, then one each time
/// a flag changes. The flags are decided by ``IOSDiagnostics`` from the authorization engine
/// and the GPS source's loss; they are looked at when something they read changes
/// (``conditionsChanged()``), and not at all while nobody asked. `stationary` is judged per
/// fix (I14) only while someone hears: a session that asked, or a watcher of `diagnostics`,
/// who sees the flags of the sessions that did not ask (sent to no app).
/// The Android profile has no such stream: the service is not made there.
final class DiagnosticsService: StreamingService {
    typealias StartRequest = DiagnosticsStart
    typealias StopRequest = DiagnosticsStop
    static let topic = AppTopic("diagnostics")

    unowned let hub: Hub
    var subscribers = Subscribers<DiagnosticsSubscription>()
    private var stillness = IOSStillnessJudge()
    /// Whether a watcher takes `diagnostics` events, asked again only when the watchers change.
    private var watcherInterest = WatcherInterest(Event.diagnostics)
    /// The flags last shown to the watchers, per session that did not ask for them.
    private var watched: [SessionID: WireDiagnostics] = [:]

    private let listeners: Listeners

    init(hub: Hub, stored: StoreSnapshot) {
        self.hub = hub
        listeners = hub.listeners
    }

    static func serves(_ platform: DevicePlatform) -> Bool { platform == .ios }

    /// A session that asked hears its flags at once.
    func started(_ session: AppSession) { conditionsChanged() }

    func sessionClosed(_ session: AppSession) {
        subscribers.remove(session)
        watched[session.id] = nil
    }

    var wantsFixes: Bool {
        let heard = !subscribers.isEmpty || listeners.admit(&watcherInterest)
        if !heard, stillness.isAnchored { stillness.forget() }
        return heard
    }

    /// I14: a fix may make the device still or moving; the flags are looked at only then.
    func fixDecided(_ fix: LocationFix) {
        if stillness.fixArrived(fix, at: hub.now.monotonic) { conditionsChanged() }
    }

    func authorizationChanged(_ session: AppSession, _ snapshot: AuthorizationSnapshot) { conditionsChanged() }

    /// Each subscriber's flags afresh; an event to those whose flags changed (the first
    /// look always sends: its last is nil).
    func conditionsChanged() {
        for (session, subscription) in subscribers.entries {
            guard let flags = flags(of: session), flags != subscription.last else { continue }
            subscription.last = flags
            hub.publish(to: session, DiagnosticsEvent(flags: flags))
        }
        showToWatchers()
    }

    private func flags(of session: AppSession) -> WireDiagnostics? {
        let input = hub.authorization.diagnosticsInput(of: session.id, locationLost: hub.services.fixes.loss != nil, stationary: stillness.stationary)
        return input.map(IOSDiagnostics.flags)
    }

    /// The flags of the sessions that did not ask, to a watcher of `diagnostics`, on change
    /// (those that asked reach the watchers with their own events).
    private func showToWatchers() {
        guard hub.watchersAdmit(&watcherInterest) else {
            watched = [:]
            return
        }
        for session in hub.sessions.ordered where subscribers[session] == nil {
            guard let flags = flags(of: session), flags != watched[session.id] else { continue }
            watched[session.id] = flags
            hub.broadcastToWatchers(Event.diagnostics, flags.json, app: session.app, session: session.id)
        }
    }
}

/// A session's `diagnostics.start`: the flags it was last sent.
final class DiagnosticsSubscription: FreshSubscription {
    var last: WireDiagnostics?
}

/// I13: the session's flags, as `CLServiceSession.Diagnostic` and `CLLocationUpdate` name them.
struct DiagnosticsEvent: AppEventKind {
    let flags: WireDiagnostics
    static var topic: AppTopic { DiagnosticsService.topic }
    /// Sent only on change: one lost would leave the app reading a stale flag.
    var outboundKind: OutboundKind { .essential }
    var method: String { Event.diagnostics }
    var params: JSONValue { flags.json }
}
