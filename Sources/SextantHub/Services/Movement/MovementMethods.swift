import SextantCore
import SextantProtocol

/// `significantChanges.start` / `.stop` (RULES S1–S3) and `visits.start` / `.stop`
/// (V1–V5): each turns one of the session's movement services on or off. Starting asks
/// what `location.start` asks (L1, L7: 1002 while the switch is off), and a session
/// served reduced has its grid made now, so that its first event need not wait for it.
struct MovementServiceMethod<Switch: MovementSwitch>: RPCMethod {
    static var name: String { Switch.method }
    static var requiresSession: Bool { true }

    init(_ p: Params) throws(RPCError) {}

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        let hub = call.hub
        let session = call.session!
        guard Switch.on else {
            Switch.stop(session, hub)
            return .result([:])
        }
        try hub.checkLocationAccess(session)
        Switch.start(session, hub)
        if hub.decidedAccuracy(of: session) == .reduced { _ = hub.committedFudger(for: session.app) }
        return .result([:])
    }
}

/// One row of the movement services' table: a method and what it does to a session.
protocol MovementSwitch {
    static var method: String { get }
    static var on: Bool { get }
    static func start(_ session: AppSession, _ hub: Hub)
    static func stop(_ session: AppSession, _ hub: Hub)
}

extension MovementSwitch {
    static func start(_ session: AppSession, _ hub: Hub) {}
    static func stop(_ session: AppSession, _ hub: Hub) {}
}

extension Hub {
    /// The accuracy `session` may have now, with the grid to reduce by (L10) when it is
    /// reduced; nil when nothing may leave for it, or its grid is still being written.
    func movementFudger(for session: AppSession) -> (LocationFudger?, LocationAccuracy)? {
        guard let granted = decidedAccuracy(of: session) else { return nil }
        guard granted == .reduced else { return (nil, .full) }
        guard let fudger = committedFudger(for: session.app) else { return nil }
        return (fudger, .reduced)
    }
}
