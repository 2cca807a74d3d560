import SextantCore
import SextantProtocol

/// What the device's movement decides beyond each fix: its visits (RULES V1–V5), one
/// detector for the device, and the sessions that listen for visits or significant changes
/// (S1–S3), so that a fix looks at those alone, not at every session.
final class MovementState {
    private(set) var visits: VisitDetector
    /// Sessions that started either service, in id order; those that ended or stopped both
    /// are dropped as the next fix passes.
    private var listeners: [AppSession] = []

    init(visits: VisitDetector) { self.visits = visits }

    /// The visit `fix` begins or ends, if any.
    func observe(_ fix: LocationFix) -> Visit? { visits.observe(fix) }

    func listen(_ session: AppSession) {
        guard !listeners.contains(where: { $0 === session }) else { return }
        let index = listeners.firstIndex { $0.id > session.id } ?? listeners.endIndex
        listeners.insert(session, at: index)
    }

    /// The sessions still listening.
    func currentListeners() -> [AppSession] {
        listeners.removeAll { !$0.isOpen || !($0.hears(.significantChanges) || $0.hears(.visits)) }
        return listeners
    }
}

extension Hub {
    /// A fix the sessions were given: the device's visit detector hears it, whoever
    /// listens; each listening session gets the significant change or visit it may have.
    func publishMovement(_ fix: LocationFix) {
        let visit = movement.observe(fix)
        if let visit { broadcastToWatchers(Event.visit, visit.wire(.full).json, kind: .sensor) }
        for session in movement.currentListeners() {
            if session.significantChanges != nil { offerSignificantChange(fix, to: session) }
            if let visit, session.hears(.visits) { deliverVisit(visit, to: session) }
        }
    }

    /// S1–S3 for one session: offered only while it may have locations (L1, L8, L9), so
    /// the last change delivered is the last one it received.
    private func offerSignificantChange(_ fix: LocationFix, to session: AppSession) {
        settleOwedLocation(session)
        guard let (fudger, accuracy) = movementFudger(for: session) else { return }
        guard session.significantChanges?.offer(fix) == true else { return }
        publish(to: session, SignificantChangeEvent(fix: fudger.map { $0.coarsen(fix).fix } ?? fix, accuracy: accuracy))
    }

    private func deliverVisit(_ visit: Visit, to session: AppSession) {
        settleOwedLocation(session)
        guard let (fudger, accuracy) = movementFudger(for: session) else { return }
        publish(to: session, VisitEvent(visit: fudger.map { visit.coarsened(by: $0) } ?? visit, accuracy: accuracy))
    }

    /// The accuracy `session` may have now, with the grid to reduce by (L10) when it is
    /// reduced; nil when nothing may leave for it, or its grid is still being written.
    private func movementFudger(for session: AppSession) -> (LocationFudger?, LocationAccuracy)? {
        guard let granted = decidedAccuracy(of: session) else { return nil }
        guard granted == .reduced else { return (nil, .full) }
        guard let fudger = committedFudger(for: session.app) else { return nil }
        return (fudger, .reduced)
    }
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
