/// An app's Motion & Fitness authorization (iOS `CMAuthorizationStatus` less `restricted`;
/// Android's `ACTIVITY_RECOGNITION` runtime permission, from API 29): set from the control
/// side only (RULES A11).
public enum MotionAuthorizationStatus: String, Sendable, CaseIterable, Codable {
    case notDetermined, denied, authorized
}

/// `activity.authorization` (app.sock): the app's Motion & Fitness status, as
/// `CMMotionActivityManager.authorizationStatus()` gives it.
public struct ActivityAuthorization: ParameterlessRequest, Equatable {
    public typealias Result = JSONValue
    public static let method = Method.activityAuthorization
    public init() {}
}

/// `motionPermissions.set` (control.sock): an app's Motion & Fitness status; `notDetermined`
/// forgets it. Answered once on disk.
public struct MotionPermissionsSet: RPCRequest, Equatable {
    public typealias Result = JSONValue
    public static let method = Method.motionPermissionsSet
    public var app: String
    public var status: MotionAuthorizationStatus

    public init(app: String, status: MotionAuthorizationStatus) {
        self.app = app
        self.status = status
    }

    public init(_ p: Params) throws(RPCError) {
        app = try p.appID("app")
        status = try p.required("status", as: MotionAuthorizationStatus.self)
    }

    public var params: JSONValue { ["app": .string(app), "status": .string(status.rawValue)] }
}

/// `motionPermissions.list` (control.sock): every app with a Motion & Fitness status stored,
/// by app id: `[{app, status}]`.
public struct MotionPermissionsList: ParameterlessRequest, Equatable {
    public typealias Result = JSONValue
    public static let method = Method.motionPermissionsList
    public init() {}
}
