import SextantCore
import SextantProtocol

/// Android's one-shot location calls (docs/platforms.md AN33, AN35–AN37):
/// `location.once` is `getCurrentLocation`, `location.lastKnown` is `getLastLocation`.
extension AndroidLocationService {
    /// AN35: the last location the app may see when it is at most 10 s old, at once;
    /// else the call waits for the next fix (the provider runs for it), at most the
    /// configured time (30 s by default, AOSP's `GET_CURRENT_LOCATION_MAX_TIMEOUT_MS`), after
    /// which it answers null.
    func current(_ session: AppSession, id: JSONValue, peer: any RPCPeer) throws(RPCError) -> JSONValue? {
        let grant = grant(of: session)
        if let now = providerNow(), let fix = provider.currentLocation(grant: grant, state: appState(session.id), now: now) {
            return fix.json(accuracy: Self.accuracy(grant))
        }
        try LocationOnceMethod.wait(session, id: id, peer: peer, hub: hub, nullOnTimeout: true)
        waitingForCurrent[session.id] = session
        return nil
    }

    /// AN35: a fix came: each waiting call whose app may hear it now (AN32) gets it, fudged
    /// for an approximate grant; the others wait on (until their time is up, or the hub
    /// fails them on a revoke or the background).
    func answerCurrent(with fix: LocationFix) {
        guard !waitingForCurrent.isEmpty else { return }
        let produced = provider.produceForCurrent(fix, now: fix.time)
        for (id, session) in waitingForCurrent {
            guard !session.fixes.onceWaiters.isEmpty, session.isOpen else {
                waitingForCurrent[id] = nil
                continue
            }
            let grant = grant(of: session)
            guard grant.mayReceive(in: appState(id)), hub.mayReceiveLocations(session) else { continue }
            let answer = grant.precise ? produced.fine.json(accuracy: .full) : produced.coarse.json(accuracy: .reduced)
            for waiter in session.fixes.onceWaiters.removeAll() {
                waiter.timeout.cancel()
                waiter.peer.respond(waiter.id, .success(answer))
            }
            waitingForCurrent[id] = nil
        }
    }

    /// AN33, AN36: `getLastLocation`: the provider's last fix the app may see now, coarse
    /// (AN37) for an approximate grant, null when there is none or it may see none.
    func lastKnown(_ session: AppSession) -> JSONValue {
        let grant = grant(of: session)
        guard let now = providerNow(), let fix = provider.lastLocation(grant: grant, state: appState(session.id), now: now) else { return .null }
        return fix.json(accuracy: Self.accuracy(grant))
    }
}

/// `location.lastKnown` (Android only: the method exists where the service does, AN36).
struct LocationLastKnownMethod: RPCMethod {
    static let name = Method.locationLastKnown
    static let requiresSession = true

    init(_ p: Params) throws(RPCError) {}

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        try call.hub.checkLocationAccess(call.session)
        return .result(call.hub.services(AndroidLocationService.self).lastKnown(call.session))
    }
}
