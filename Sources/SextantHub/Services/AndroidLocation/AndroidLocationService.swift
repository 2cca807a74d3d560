import SextantCore
import SextantProtocol
import SextantStore

/// `location.start` under the Android profile (docs/platforms.md AN20–AN34): each session's
/// request is a registration on the device's fused provider (``AndroidFusedProvider``),
/// which decides which fixes each app hears and when, coarsened by AOSP's fudger for an
/// approximate grant; several fixes held for a batch leave as one `locations` event.
/// Under the iOS profile the service is not made (``serves(_:)``): a fix costs it nothing.
final class AndroidLocationService: PhoneService {
    /// Its events' topic: what a session that started a fused request hears.
    static let topic = AppTopic("androidLocation")

    private unowned let hub: Hub
    private var provider: AndroidFusedProvider<SessionID>
    private var registered: [SessionID: Registered] = [:]

    /// A session's request as it asked for it, and the foreground service it asked from.
    private struct Registered {
        let session: AppSession
        let request: FusedLocationRequest
        let foregroundServiceType: String?
        /// False until a fix is known: its duration counts from the first fix (the trace's time).
        var started: Bool
    }

    init(hub: Hub, stored: StoreSnapshot) {
        self.hub = hub
        // AN22: the offsets are drawn at start and kept in memory only, as AOSP draws them at boot.
        provider = AndroidFusedProvider(fudgerSeed: UInt64.random(in: .min ... .max))
    }

    static func serves(_ platform: DevicePlatform) -> Bool { platform.androidAPI != nil }

    var wantsFixes: Bool { !registered.isEmpty }

    /// `location.start`: replaces the session's request (AN34's checks first).
    func start(_ session: AppSession, _ params: FusedLocationParams) throws(RPCError) {
        let request = try Self.request(params)
        if let type = params.foregroundServiceType, type.isEmpty {
            throw .invalidParams("\"foregroundServiceType\" must name a type (location, or another)")
        }
        registered[session.id] = Registered(
            session: session, request: request, foregroundServiceType: params.foregroundServiceType, started: false)
        hub.sessions.subscribe(session, to: Self.topic)
        if let now = hub.location.lastFix?.time { register(session.id, now: now) }
    }

    func stop(_ session: AppSession) {
        guard registered.removeValue(forKey: session.id) != nil else { return }
        provider.unregister(session.id)
        hub.sessions.unsubscribe(session, from: Self.topic)
    }

    func sessionClosed(_ session: AppSession) {
        registered[session.id] = nil
        provider.unregister(session.id)
    }

    /// A new grant (precise ↔ approximate, While using ↔ all the time) is a new
    /// registration, as Android ties a registration to the permission it was made with.
    func authorizationChanged(_ session: AppSession, _ snapshot: AuthorizationSnapshot) {
        guard registered[session.id]?.started == true, let now = hub.location.lastFix?.time else { return }
        register(session.id, now: now)
    }

    func fixDecided(_ fix: LocationFix) {
        for (id, entry) in registered where !entry.started { register(id, now: fix.time) }
        let deliveries = provider.receive(fix, now: fix.time, state: appState)
        for (id, delivery) in deliveries { deliver(delivery, to: id) }
    }

    private func register(_ id: SessionID, now: Timestamp) {
        guard let entry = registered[id] else { return }
        provider.register(id, request: entry.request, grant: grant(of: entry.session), now: now)
        registered[id]?.started = true
    }

    private func deliver(_ delivery: FusedDelivery, to id: SessionID) {
        guard let entry = registered[id] else { return }
        let accuracy: LocationAccuracy = grant(of: entry.session).precise ? .full : .reduced
        switch delivery {
        case .location(let fix): hub.publish(to: entry.session, AndroidLocationEvent(fix: fix, accuracy: accuracy))
        case .batch(let fixes): hub.publish(to: entry.session, AndroidLocationsEvent(fixes: fixes, accuracy: accuracy))
        case .ended:
            // AN31: Android tells the app nothing; the request is gone.
            registered[id] = nil
            hub.sessions.unsubscribe(entry.session, from: Self.topic)
        }
    }

    /// What the app was granted, read from the authorization engine: approximate when its
    /// accuracy is reduced, background when it is authorized always.
    private func grant(of session: AppSession) -> AndroidLocationGrant {
        let snapshot = hub.authorization.authorization(of: session.id)
        return AndroidLocationGrant(
            precise: snapshot.accuracy == .full, background: snapshot.status == .authorizedAlways,
            api: hub.configuration.platform.androidAPI ?? DevicePlatform.newestAndroidAPI)
    }

    /// Visible, or else running the foreground service it asked from, or in the background.
    private func appState(_ id: SessionID) -> AndroidAppState {
        guard let entry = registered[id] else { return .background }
        if hub.appState(of: entry.session) == .foreground { return .foreground }
        switch entry.foregroundServiceType {
        case nil: return .background
        case "location": return .locationForegroundService
        default: return .otherForegroundService
        }
    }

    /// AN34: the request Android's builder would make of `params`, or why not.
    static func request(_ params: FusedLocationParams) throws(RPCError) -> FusedLocationRequest {
        var priority = FusedLocationRequest.Priority.balanced
        if let name = params.priority {
            guard let named = FusedLocationRequest.Priority(rawValue: name) else {
                let allowed = FusedLocationRequest.Priority.allCases.map(\.rawValue).joined(separator: ", ")
                throw .invalidParams("\"priority\" must be one of: \(allowed) (got \"\(name)\")")
            }
            priority = named
        }
        let request = FusedLocationRequest(
            priority: priority, intervalMillis: params.intervalMillis ?? FusedLocationParams.defaultIntervalMillis,
            minUpdateIntervalMillis: params.minUpdateIntervalMillis, minUpdateDistanceMeters: params.minUpdateDistanceMeters ?? 0,
            maxUpdateDelayMillis: params.maxUpdateDelayMillis ?? 0, durationMillis: params.durationMillis,
            maxUpdates: params.maxUpdates.map { Int(clamping: $0) })
        if let problem = request.problem { throw .invalidParams(problem) }
        return request
    }
}

/// One fix a fused request delivered (`onLocationChanged(Location)`), coarse when the grant is.
struct AndroidLocationEvent: AppEventKind {
    let fix: LocationFix
    let accuracy: LocationAccuracy
    static var topic: AppTopic { AndroidLocationService.topic }
    static var isLocationDerived: Bool { true }
    var outboundKind: OutboundKind { .location }
    var method: String { Event.location }
    var params: JSONValue { fix.json(accuracy: accuracy) }
}

/// Fixes held for a batch, delivered together oldest first (`onLocationChanged(List)`, AN30).
struct AndroidLocationsEvent: AppEventKind {
    let fixes: [LocationFix]
    let accuracy: LocationAccuracy
    static var topic: AppTopic { AndroidLocationService.topic }
    static var isLocationDerived: Bool { true }
    var outboundKind: OutboundKind { .location }
    var method: String { Event.locations }
    var params: JSONValue { ["locations": .array(fixes.map { $0.json(accuracy: accuracy) })] }
}
