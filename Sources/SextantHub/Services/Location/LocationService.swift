import SextantCore
import SextantProtocol
import SextantStore

/// Where the device is, as app.sock serves it: `location.start`, `location.stop` and
/// `location.once` (RULES L1, L7–L11), the faces' streams (Location+Host), the latest fix
/// and the GPS source's loss in `status`, whether a session streams in `apps.list`.
///
/// It is the default ``LocationProvider``, the iOS stream: a session's stream is a
/// ``LocationStream`` (desired accuracy, distance filter: L8, L11) held on the session
/// (``LocationSubscription``), where the fan-out (``LocationDelivery``) decides each fix
/// for it under the authorization engine and hands it the shared bytes — a fix reaches it
/// without a look-up or a call through this service. A `location.once` waits among the session's waiters for the next
/// fix, which the fan-out answers. Under a platform provider (Android's), that provider
/// decides instead (``Services/locationProvider``).
final class LocationService: PhoneService, LocationProvider {
    static var appMethods: [any RPCMethod.Type] { [LocationStartMethod.self, LocationStopMethod.self, LocationOnceMethod.self] }

    unowned let hub: Hub

    init(hub: Hub, stored: StoreSnapshot) { self.hub = hub }

    // MARK: - The iOS stream

    /// A stream replaces the session's own (a second `start`), with the indicator the
    /// request asks for (I8); a background session needs the background mode (L8a).
    func startStream(_ session: AppSession, _ request: LocationStartMethod) throws(RPCError) -> Bool {
        try hub.checkBackgroundMode(session)
        let wasStreaming = session.fixes.stream != nil
        session.fixes.stream = LocationStream(desiredAccuracy: request.desiredAccuracy, distanceFilter: request.distanceFilter)
        hub.services.fixes.startsHearing(session)
        hub.setIndicatorSession(session, running: request.withIndicator)
        return !wasStreaming
    }

    func startFaceStream(_ session: AppSession, desiredAccuracy: Double) {
        session.fixes.stream = LocationStream(desiredAccuracy: desiredAccuracy)
        hub.services.fixes.startsHearing(session)
    }

    /// The latest fix, unless the source is lost.
    func handLatestFix(to session: AppSession) {
        hub.services.fixes.handLatestFix(to: session)
    }

    func streams(_ session: AppSession) -> Bool { session.fixes.stream != nil }

    func stop(_ session: AppSession) { session.fixes.stream = nil }

    /// iOS's `requestLocation`: the next fix, or 1006 once the configured time is up.
    func current(_ session: AppSession, id: JSONValue, peer: any RPCPeer) throws(RPCError) -> JSONValue? {
        try LocationOnceMethod.wait(session, id: id, peer: peer, hub: hub)
        return nil
    }

    // MARK: - What the control side reads

    /// The latest fix before the rules, and why none comes while the GPS source is lost.
    var statusMembers: [String: JSONValue] {
        [
            "location": hub.services.fixes.lastFix.map { $0.json(accuracy: nil) } ?? .null,
            "locationUnavailable": hub.services.fixes.loss.map { .string($0) } ?? .null,
        ]
    }

    /// Whether the session streams, by whichever provider decides.
    func appEntryMembers(_ session: AppSession) -> [String: JSONValue] {
        ["locationStreaming": .bool(hub.services.locationProvider.streams(session))]
    }
}
