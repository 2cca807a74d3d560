import SextantCore
import SextantProtocol
import SextantStore

/// The device's visits (RULES V1–V6): one detector for the device, judging the decided
/// fixes while anyone listens — a session that started `visits.start`, or a watcher of
/// `visit` events — and beginning afresh when the first listener comes, as iOS begins
/// with `startMonitoringVisits`. Each listening session gets its copy under the rules.
final class VisitsService: PhoneService {
    static var appMethods: [any RPCMethod.Type] { [MovementServiceMethod<VisitsStart>.self, MovementServiceMethod<VisitsStop>.self] }

    private unowned let hub: Hub
    private var detector: VisitDetector
    /// Whether the detector saw the previous fix: if not, it starts over at this one.
    private var judging = false

    private let listeners: Listeners

    init(hub: Hub, stored: StoreSnapshot) {
        self.hub = hub
        listeners = hub.listeners
        detector = VisitDetector(settings: hub.configuration.services.visits)
    }

    /// Whether a watcher takes visits, asked on every fix.
    private var watched = WatcherInterest(Event.visit)

    var wantsFixes: Bool {
        let heard = listeners.hear(.visits) || listeners.admit(&watched)
        if !heard { judging = false }
        return heard
    }

    func fixDecided(_ fix: LocationFix) {
        if !judging {
            detector = VisitDetector(settings: hub.configuration.services.visits)
            judging = true
        }
        guard let visit = detector.observe(fix) else { return }
        hub.broadcastToWatchers(Event.visit, visit.wire(.full).json, kind: .sensor)
        for session in hub.sessions.subscribers(of: .visits) {
            hub.services.fixes.settle(session)
            guard let (fudger, accuracy) = hub.movementFudger(for: session) else { continue }
            hub.publish(to: session, VisitEvent(visit: fudger.map { visit.coarsened(by: $0) } ?? visit, accuracy: accuracy))
        }
    }
}

/// An arrival or a departure (RULES V1–V5), its coordinate already reduced when the app's
/// accuracy is. Queued as a location: discarded with them when the app loses the right (L9).
struct VisitEvent: AppEventKind {
    let visit: Visit
    let accuracy: LocationAccuracy
    static var topic: AppTopic { .visits }
    static var isLocationDerived: Bool { true }
    static var needsAlwaysInBackground: Bool { true }
    var outboundKind: OutboundKind { .location }
    var method: String { Event.visit }
    var params: JSONValue { visit.wire(accuracy).json }
}

extension VisitsStart: MovementSwitch {
    static var on: Bool { true }
    static func start(_ session: AppSession, _ hub: Hub) { hub.sessions.subscribe(session, to: .visits) }
}

extension VisitsStop: MovementSwitch {
    static var on: Bool { false }
    static func stop(_ session: AppSession, _ hub: Hub) { hub.sessions.unsubscribe(session, from: .visits) }
}

extension Visit {
    /// The visit at the centre of the app's grid cell (L10): `hAcc` at least the grid's.
    func coarsened(by fudger: LocationFudger) -> Visit {
        let coarse = fudger.coarsen(LocationFix(latitude: latitude, longitude: longitude, horizontalAccuracy: horizontalAccuracy, time: arrival)).fix
        var visit = self
        visit.latitude = coarse.latitude
        visit.longitude = coarse.longitude
        visit.horizontalAccuracy = max(horizontalAccuracy, coarse.horizontalAccuracy)
        return visit
    }

    /// The `visit` event's params.
    func wire(_ accuracy: LocationAccuracy) -> WireVisit {
        WireVisit(
            latitude: latitude, longitude: longitude, horizontalAccuracy: horizontalAccuracy, arrival: arrival, departure: departure,
            accuracy: accuracy)
    }
}
