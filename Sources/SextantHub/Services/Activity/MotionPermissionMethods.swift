import NIOCore
import SextantCore
import SextantProtocol

extension ActivityService {
    /// A11: an app's Motion & Fitness status (notDetermined when none is stored).
    func motionStatus(of app: String) -> MotionAuthorizationStatus { motionPermissions[app] ?? .notDetermined }

    /// A11: activity and steps only for an app authorized from the control side.
    func checkMotionAccess(_ session: AppSession) throws(RPCError) {
        let status = motionStatus(of: session.app)
        guard status != .authorized else { return }
        throw RPCError(
            .notAuthorized,
            "Motion & Fitness is \(status.rawValue) for \(session.app): the control side grants it "
                + "(motionPermissions.set, sextantctl activity permission \(session.app) authorized)",
            data: ["status": .string(status.rawValue)])
    }

    /// A11: stores an app's status, then applies it: an app no longer authorized hears no
    /// more activity, transition or pedometer event (what its sessions started ends).
    func setMotionPermission(_ status: MotionAuthorizationStatus, for app: String) -> EventLoopFuture<JSONValue> {
        let stored: MotionAuthorizationStatus? = status == .notDetermined ? nil : status
        return hub.write([.motionPermission(app: app, stored)], from: .control).assumeIsolated().map { [self] in
            motionPermissions[app] = stored
            if status != .authorized {
                for session in hub.sessions.ordered where session.app == app { stopAll(session) }
            }
            return ["app": .string(app), "status": .string(status.rawValue)] as JSONValue
        }.nonisolated()
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

/// `motionPermissions.set` (control.sock): answered once on disk (A11).
struct MotionPermissionsSetMethod: RPCMethod {
    static let name = Method.motionPermissionsSet
    let request: MotionPermissionsSet

    init(_ p: Params) throws(RPCError) { request = try MotionPermissionsSet(p) }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        .later(call.hub.activity.setMotionPermission(request.status, for: request.app))
    }
}

/// `motionPermissions.list` (control.sock): every stored status, by app id.
struct MotionPermissionsListMethod: RPCMethod {
    static let name = Method.motionPermissionsList

    init(_ p: Params) throws(RPCError) {}

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        let entries = call.hub.activity.motionPermissions.sorted { $0.key < $1.key }
        return .result(.array(entries.map { ["app": .string($0.key), "status": .string($0.value.rawValue)] }))
    }
}
