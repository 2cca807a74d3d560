import NIOCore
import SextantCore
import SextantProtocol

extension ActivityService {
    /// A11: an app's Motion & Fitness status (notDetermined when none is stored).
    func motionStatus(of app: String) -> MotionAuthorizationStatus { hub.authorization.motionStatus(of: app) }

    /// A11: stores an app's status, then applies it (Hub+Store: in effect once committed):
    /// an app no longer authorized hears no more activity, transition or pedometer event.
    func setMotionPermission(_ status: MotionAuthorizationStatus, for app: String) throws(RPCError) -> EventLoopFuture<JSONValue> {
        try hub.commitDecision(from: .control) { (engine: inout AuthorizationEngine) throws(RPCError) in
            (["app": .string(app), "status": .string(status.rawValue)] as JSONValue, engine.setMotionPermission(app: app, status))
        }
    }
}

/// `activity.authorization`: the app's Motion & Fitness status (A11).
struct ActivityAuthorizationMethod: RPCMethod {
    static let name = Method.activityAuthorization
    static let requiresSession = true

    init(_ p: Params) throws(RPCError) {}

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        .result(["status": .string(call.hub.activity.motionStatus(of: call.session.app).rawValue)])
    }
}

/// `activity.requestAuthorization`: Android's `requestPermissions(ACTIVITY_RECOGNITION)` (A15);
/// on iOS what the first start or query does (A13). Answered with the status once decided.
struct ActivityRequestAuthorizationMethod: RPCMethod {
    static let name = Method.activityRequestAuthorization
    static let requiresSession = true

    init(_ p: Params) throws(RPCError) {}

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        let (service, app) = (call.hub.activity, call.session.app)
        let reply = try service.withMotionAccess(call, explicit: true) { ["status": "authorized"] }
        // A refusal is an answer here: the status the app now has.
        guard case .later(let future) = reply else { return reply }
        return .later(
            future.assumeIsolated().flatMapErrorThrowing { error in
                guard let refused = error as? RPCError, refused.code == RPCErrorCode.notAuthorized.rawValue else { throw error }
                return ["status": .string(service.motionStatus(of: app).rawValue)]
            }.nonisolated())
    }
}

/// `motionPermissions.set` (control.sock): answered once on disk (A11).
struct MotionPermissionsSetMethod: RPCMethod {
    static let name = Method.motionPermissionsSet
    let request: MotionPermissionsSet

    init(_ p: Params) throws(RPCError) { request = try MotionPermissionsSet(p) }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        .later(try call.hub.activity.setMotionPermission(request.status, for: request.app))
    }
}

/// `motionPermissions.list` (control.sock): every stored status, by app id.
struct MotionPermissionsListMethod: RPCMethod {
    static let name = Method.motionPermissionsList

    init(_ p: Params) throws(RPCError) {}

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        let entries = call.hub.authorization.motion.statuses.sorted { $0.key < $1.key }
        return .result(.array(entries.map { ["app": .string($0.key), "status": .string($0.value.rawValue)] }))
    }
}
