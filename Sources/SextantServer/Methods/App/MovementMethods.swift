import SextantCore
import SextantProtocol

/// `significantChanges.start` / `.stop` (RULES S1–S3) and `visits.start` / `.stop`
/// (V1–V5): each turns one of the session's movement services on or off. Starting asks
/// what `location.start` asks (L1, L7: 1002 while the switch is off), and a session
/// served reduced has its grid made now, so that its first event need not wait for it.
struct MovementServiceMethod<Service: MovementService>: RPCMethod {
    static var name: String { Service.method }
    static var requiresSession: Bool { true }

    init(_ p: Params) throws(RPCError) {}

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        let hub = call.hub
        let session = call.session!
        guard Service.on else {
            Service.stop(session)
            return .result([:])
        }
        try hub.checkLocationAccess(session)
        Service.start(session, hub.configuration)
        hub.movement.listen(session)
        if hub.decidedAccuracy(of: session) == .reduced { _ = hub.committedFudger(for: session.app) }
        return .result([:])
    }
}

/// One row of the movement services' table: a method and what it does to a session.
protocol MovementService {
    static var method: String { get }
    static var on: Bool { get }
    static func start(_ session: AppSession, _ configuration: HubConfiguration)
    static func stop(_ session: AppSession)
}

extension MovementService {
    static func start(_ session: AppSession, _ configuration: HubConfiguration) {}
    static func stop(_ session: AppSession) {}
}

extension SignificantChangesStart: MovementService {
    static var on: Bool { true }
    /// A restart begins afresh: its next fix is a change (S1).
    static func start(_ session: AppSession, _ configuration: HubConfiguration) {
        session.significantChanges = SignificantChangeMonitor(settings: configuration.significantChanges)
    }
}

extension SignificantChangesStop: MovementService {
    static var on: Bool { false }
    static func stop(_ session: AppSession) { session.significantChanges = nil }
}

extension VisitsStart: MovementService {
    static var on: Bool { true }
    static func start(_ session: AppSession, _ configuration: HubConfiguration) { session.topics.insert(.visits) }
}

extension VisitsStop: MovementService {
    static var on: Bool { false }
    static func stop(_ session: AppSession) { session.topics.remove(.visits) }
}
