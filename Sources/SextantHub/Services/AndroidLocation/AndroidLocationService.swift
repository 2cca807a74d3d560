import SextantCore
import SextantProtocol
import SextantStore

/// Every location a session is handed under the Android profile (docs/platforms.md
/// AN20–AN37), as the phone's ``PlatformLocationProvider``: each stream — app.sock's
/// `location.start` with its fused request, a face's (gpsd, GeoClue) as a foreground app
/// asking for every fix — is a registration on the device's fused provider
/// (``AndroidFusedProvider``), which decides which fixes each app hears and when, coarsened
/// by AOSP's fudger for an approximate grant; several fixes held for a batch leave as one
/// `locations` event, at the latest when the batch's delay runs out on the device's clock.
/// `location.once` is getCurrentLocation and `location.lastKnown` getLastLocation
/// (AndroidLocationService+Current). Under the iOS profile the service is not made
/// (``serves(_:)``): a fix costs it nothing.
final class AndroidLocationService: PlatformLocationProvider {
    /// Its events' topic: what a session that started a fused request hears.
    static let topic = AppTopic("androidLocation")
    static var appMethods: [any RPCMethod.Type] { [LocationLastKnownMethod.self] }

    unowned let hub: Hub
    var provider: AndroidFusedProvider<SessionID>
    private var registered: [SessionID: Registered] = [:]
    /// Sessions whose `location.once` calls wait for the next fix (AN35).
    var waitingForCurrent: [SessionID: AppSession] = [:]
    /// The provider's time is the fixes' (the trace's); between two fixes it runs on with
    /// the device's clock from where the last one arrived.
    private var anchor: (fixTime: Timestamp, device: Int64)?
    /// AN30: the timer for the provider's next deadline (a held batch's delay, a request's
    /// duration), on the device's clock.
    private var timer: (deadline: Timestamp, timer: DeviceTimer)?

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

    var wantsFixes: Bool { !registered.isEmpty || !waitingForCurrent.isEmpty }

    /// `location.start`: replaces the session's request (AN34's checks first).
    func start(_ session: AppSession, _ params: FusedLocationParams) throws(RPCError) {
        let request = try Self.request(params)
        if let type = params.foregroundServiceType, type.isEmpty {
            throw .invalidParams("\"foregroundServiceType\" must name a type (location, or another)")
        }
        add(session, request, foregroundServiceType: params.foregroundServiceType)
    }

    /// AN35: a face's client asks as a foreground app asking for every fix, at high
    /// accuracy unless it asked for less (GeoClue's levels above 100 m: balanced power).
    func startFaceStream(_ session: AppSession, desiredAccuracy: Double) {
        let priority: FusedLocationRequest.Priority = desiredAccuracy >= 100 ? .balanced : .highAccuracy
        // Interval 0: as fast as the receiver gives fixes, as gpsd and GeoClue pass each on.
        add(session, FusedLocationRequest(priority: priority, intervalMillis: 0), foregroundServiceType: nil)
    }

    private func add(_ session: AppSession, _ request: FusedLocationRequest, foregroundServiceType: String?) {
        registered[session.id] = Registered(session: session, request: request, foregroundServiceType: foregroundServiceType, started: false)
        hub.sessions.subscribe(session, to: Self.topic)
        if hub.services.fixes.lastFix != nil { register(session.id) }
    }

    func streams(_ session: AppSession) -> Bool { registered[session.id] != nil }

    func stop(_ session: AppSession) {
        guard registered.removeValue(forKey: session.id) != nil else { return }
        provider.unregister(session.id)
        hub.sessions.unsubscribe(session, from: Self.topic)
        rearm()
    }

    func sessionClosed(_ session: AppSession) {
        registered[session.id] = nil
        waitingForCurrent[session.id] = nil
        provider.unregister(session.id)
        rearm()
    }

    /// A new grant (precise ↔ approximate, While using ↔ all the time) is a new
    /// registration, as Android ties a registration to the permission it was made with.
    func authorizationChanged(_ session: AppSession, _ snapshot: AuthorizationSnapshot) {
        guard registered[session.id]?.started == true, hub.services.fixes.lastFix != nil else { return }
        register(session.id)
    }

    func fixDecided(_ fix: LocationFix) {
        anchor = (fix.time, hub.now.monotonic)
        for (id, entry) in registered where !entry.started { register(id) }
        deliver(provider.receive(fix, now: fix.time, state: appState))
        answerCurrent(with: fix)
        rearm()
    }

    /// The provider's time now: the last fix's, plus the device time since it arrived.
    func providerNow() -> Timestamp? {
        guard let anchor, anchor.fixTime == hub.services.fixes.lastFix?.time else { return hub.services.fixes.lastFix?.time }
        return Timestamp(nanoseconds: anchor.fixTime.nanoseconds.addingClamped(hub.now.monotonic.subtractingClamped(anchor.device)))
    }

    private func register(_ id: SessionID) {
        guard let entry = registered[id], let now = providerNow() else { return }
        provider.register(id, request: entry.request, grant: grant(of: entry.session), now: now)
        registered[id]?.started = true
        rearm()
    }

    /// AN30, AN31: a timer on the device's clock for the provider's next deadline, so that
    /// a held batch leaves when its delay runs out (and a request ends at its duration)
    /// even when no fix comes. Armed again only when the deadline moves.
    private func rearm() {
        let deadline = provider.nextDeadline(state: appState)
        guard deadline != timer?.deadline else { return }
        timer?.timer.cancel()
        timer = nil
        guard let deadline, let anchor else { return }
        let device = anchor.device.addingClamped(deadline.nanoseconds.subtractingClamped(anchor.fixTime.nanoseconds))
        timer = (deadline, hub.deviceTime.schedule(at: device) { [weak self] in self?.deadlineReached() })
    }

    private func deadlineReached() {
        timer = nil
        if let now = providerNow() { deliver(provider.advance(to: now, state: appState)) }
        rearm()
    }

    private func deliver(_ deliveries: [(SessionID, FusedDelivery)]) {
        for (id, delivery) in deliveries { deliver(delivery, to: id) }
    }

    private func deliver(_ delivery: FusedDelivery, to id: SessionID) {
        guard let entry = registered[id] else { return }
        let accuracy = Self.accuracy(grant(of: entry.session))
        switch delivery {
        case .location(let fix): hub.publish(to: entry.session, AndroidLocationEvent(fix: fix, accuracy: accuracy))
        case .batch(let fixes): hub.publish(to: entry.session, AndroidLocationsEvent(fixes: fixes, accuracy: accuracy))
        case .ended:
            // AN31: Android tells the app nothing; the request is gone.
            registered[id] = nil
            hub.sessions.unsubscribe(entry.session, from: Self.topic)
        }
    }

    static func accuracy(_ grant: AndroidLocationGrant) -> LocationAccuracy { grant.precise ? .full : .reduced }

    /// What the app was granted, read from the authorization engine: approximate when its
    /// accuracy is reduced, background when it is authorized always.
    func grant(of session: AppSession) -> AndroidLocationGrant {
        let snapshot = hub.authorization.authorization(of: session.id)
        return AndroidLocationGrant(
            precise: snapshot.accuracy == .full, background: snapshot.status == .authorizedAlways,
            api: hub.configuration.platform.androidAPI ?? DevicePlatform.newestAndroidAPI)
    }

    /// Visible, or else running the foreground service it asked from, or in the background.
    /// A location foreground service is the one the app told of (`app.update
    /// {foregroundService: "location"}`, AN13: the authorization engine's, which also lets
    /// a While-using grant through, AN32) or the one its request names.
    func appState(_ id: SessionID) -> AndroidAppState {
        guard let session = registered[id]?.session ?? waitingForCurrent[id] ?? hub.sessions[id] else { return .background }
        if hub.appState(of: session) == .foreground { return .foreground }
        if hub.authorization.android.foregroundServices.contains(id) { return .locationForegroundService }
        switch registered[id]?.foregroundServiceType {
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
