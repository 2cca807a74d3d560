import NIOCore
import SextantCore
import SextantProtocol

/// `location.start`: `location` events from the next fix on (RULES L1, L7–L11).
struct LocationStartMethod: RPCMethod {
    static let name = Method.locationStart
    static let requiresSession = true
    let desiredAccuracy: Double
    let distanceFilter: Double
    /// The Android profile's request (docs/platforms.md AN34), read there only.
    let fused: FusedLocationParams
    /// A background session with the indicator (docs/platforms.md I8).
    let withIndicator: Bool

    init(_ p: Params) throws(RPCError) {
        let request = try LocationStart(p)
        desiredAccuracy = request.desiredAccuracy ?? 0
        distanceFilter = request.distanceFilter ?? 0
        fused = try FusedLocationParams(p)
        withIndicator = request.allowsBackgroundLocationUpdates == true && request.showsBackgroundLocationIndicator == true
    }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        let hub = call.hub
        let session = call.session!
        try hub.checkLocationAccess(session)
        // The iOS stream's rules, or the platform provider's (AN20–AN34).
        let toldOfLoss = try hub.services.locationProvider.startStream(session, self)
        // A stream that starts while the GPS source is lost hears of the loss at once.
        if toldOfLoss, let loss = hub.services.fixes.loss { hub.services.fixes.tellUnavailable(session, loss) }
        hub.replay.locationRequested()
        return .result([:])
    }
}

/// `location.stop`.
struct LocationStopMethod: RPCMethod {
    static let name = Method.locationStop
    static let requiresSession = true

    init(_ p: Params) throws(RPCError) {}

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        call.hub.services.locationProvider.stop(call.session)
        call.hub.setIndicatorSession(call.session, running: false)
        return .result([:])
    }
}

/// `location.once`: the next fix, or 1006 when none comes within the configured time.
struct LocationOnceMethod: RPCMethod {
    static let name = Method.locationOnce
    static let requiresSession = true

    init(_ p: Params) throws(RPCError) {}

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        let hub = call.hub
        let session = call.session!
        try hub.checkLocationAccess(session)
        guard hub.authorization.mayReceiveLocations(session.id) else {
            throw RPCError(.notAuthorized, "authorizedWhenInUse delivers locations only in the foreground")
        }
        guard let id = call.id else { return .result(.null) }
        // iOS's requestLocation, or Android's getCurrentLocation (AN35).
        guard let now = try hub.services.locationProvider.current(session, id: id, peer: call.peer) else { return .deferred }
        return .result(now)
    }

    /// The call waits for the next fix among the session's `location.once`s (at most
    /// `OnceWaiters.limit`), failing with 1006 once the configured time is up.
    /// `nullOnTimeout`: the time-out answers `null` (Android's getCurrentLocation hands its
    /// consumer a null location, AN35) instead of iOS's error 1006.
    static func wait(_ session: AppSession, id: JSONValue, peer: any RPCPeer, hub: Hub, nullOnTimeout: Bool = false) throws(RPCError) {
        guard session.fixes.onceWaiters.count < OnceWaiters.limit else {
            throw RPCError(.tooManyRequests, "at most \(OnceWaiters.limit) location.once calls may wait at once")
        }
        let timeout = hub.configuration.services.location.onceTimeout
        let key = session.fixes.onceWaiters.nextKey
        // A decision of the device (iOS's requestLocation, Android's getCurrentLocation gives up): on its clock (C6).
        // The session is held until the timer fires or is cancelled (an answer, the session's
        // end): a weak reference would give it a side table, and every retain of it in every
        // later delivery would take the runtime's slow path.
        let scheduled = hub.deviceTime.schedule(in: TimeAmount(timeout).nanoseconds) {
            guard let waiter = session.fixes.onceWaiters.remove(key) else { return }
            waiter.peer.respond(waiter.id, nullOnTimeout ? .success(.null) : .failure(RPCError(.sourceUnavailable, "no location fix within \(timeout)")))
        }
        session.fixes.onceWaiters.add(key: key, id: id, peer: peer, timeout: scheduled)
        hub.services.fixes.startsHearing(session)
        hub.replay.locationRequested()
    }
}
