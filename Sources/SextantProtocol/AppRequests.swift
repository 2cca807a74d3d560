// The app socket's methods (sextant-protocol(7), "App socket").

/// `hello`: opens the app's session.
public struct Hello: RPCRequest, Equatable {
    public typealias Result = HelloResult
    public static let method = Method.hello
    public var app: String
    public var state: AppState?
    /// The interface orientations the app supports, duplicates dropped, in its order.
    public var orientations: [InterfaceOrientation]?
    /// The iOS Info.plist keys that change its authorization (docs/platforms.md I9–I12).
    public var declaration = IOSAppDeclaration()
    /// NSMotionUsageDescription and the Android manifest's permissions (docs/motion.md A14, docs/platforms.md AN41).
    public var motionDeclaration = MotionDeclaration()

    public init(app: String, state: AppState? = nil, orientations: [InterfaceOrientation]? = nil) {
        self.app = app
        self.state = state
        self.orientations = orientations
    }

    public init(_ p: Params) throws(RPCError) {
        app = try p.requiredString("app")
        guard AppID.isValid(app) else { throw .invalidParams("\"app\" must be 1-255 of [A-Za-z0-9._-], e.g. com.example.maps") }
        state = try p.name("state", as: AppState.self)
        orientations = try p.interfaceOrientations("orientations")
        declaration = try IOSAppDeclaration(p)
        motionDeclaration = try MotionDeclaration(p)
    }

    public var params: JSONValue {
        var o = WireObject()
        o.set("app", app)
        o.set("state", state)
        if let orientations { o["orientations"] = .array(orientations.map { .string($0.rawValue) }) }
        for (key, value) in declaration.members { o[key] = value }
        for (key, value) in motionDeclaration.members { o[key] = value }
        return o.json
    }
}

/// What `hello` answers: the session and the state of things at its start.
public struct HelloResult: WireValue, Equatable {
    public var protocolVersion: Int
    public var session: Int
    public var profile: DeviceProfile
    public var servicesEnabled: Bool
    public var authorization: AuthorizationResult
    public var interfaceOrientation: InterfaceOrientation?
    public var deviceOrientation: DeviceOrientation
    /// The last posture (a `posture` event's params), or null before the first.
    public var posture: JSONValue
    /// The phone the daemon plays, whose permission flows the app meets (docs/platforms.md).
    public var platform: DevicePlatform

    public init(
        protocolVersion: Int = sextantProtocolVersion, session: Int, profile: DeviceProfile, servicesEnabled: Bool,
        authorization: AuthorizationResult, interfaceOrientation: InterfaceOrientation?, deviceOrientation: DeviceOrientation,
        posture: JSONValue, platform: DevicePlatform = .ios
    ) {
        self.platform = platform
        self.protocolVersion = protocolVersion
        self.session = session
        self.profile = profile
        self.servicesEnabled = servicesEnabled
        self.authorization = authorization
        self.interfaceOrientation = interfaceOrientation
        self.deviceOrientation = deviceOrientation
        self.posture = posture
    }

    public init(json: JSONValue) throws(RPCError) {
        let p = try Params(result: json)
        guard let version = try p.integer("protocol"), let session = try p.integer("session") else {
            throw .invalidParams("\"protocol\" and \"session\" are required")
        }
        self.init(
            protocolVersion: version, session: session, profile: try p.required("profile", as: DeviceProfile.self),
            servicesEnabled: try p.requiredBool("servicesEnabled"),
            authorization: try AuthorizationResult(json: p.members["authorization"] ?? .null),
            interfaceOrientation: try p.name("interfaceOrientation", as: InterfaceOrientation.self),
            deviceOrientation: try p.required("deviceOrientation", as: DeviceOrientation.self), posture: p.members["posture"] ?? .null,
            platform: try Self.platform(p))
    }

    /// A daemon from before platforms says none: it plays iOS.
    private static func platform(_ p: Params) throws(RPCError) -> DevicePlatform {
        guard let name = try p.string("platform") else { return .ios }
        let api = try p.integer("androidApi")
        switch DevicePlatform.parse(name: name, androidAPI: api) {
        case .success(let platform): return platform
        case .failure: throw .invalidParams("\"platform\" \(name) with androidApi \(api.map(String.init) ?? "none") is not a platform")
        }
    }

    public var json: JSONValue {
        var members: [String: JSONValue] = [
            "protocol": .int(Int64(protocolVersion)), "session": .int(Int64(session)), "profile": .string(profile.rawValue),
            "servicesEnabled": .bool(servicesEnabled), "authorization": authorization.json,
            "interfaceOrientation": JSONValue(interfaceOrientation?.rawValue), "deviceOrientation": .string(deviceOrientation.rawValue),
            "posture": posture, "platform": .string(platform.name),
        ]
        if let api = platform.androidAPI { members["androidApi"] = .int(Int64(api)) }
        return .object(members)
    }
}

/// An app's authorization: `authorization.request`'s answer, the `authorization` event's
/// params, and, with `servicesEnabled`, `authorization.get`'s answer.
public struct AuthorizationResult: WireValue, Equatable {
    public var status: AuthorizationStatus
    public var accuracy: LocationAccuracy
    /// Only in `authorization.get`'s answer.
    public var servicesEnabled: Bool?
    /// On an Android phone only: the permissions the app holds (docs/platforms.md AN2).
    public var grants: AndroidGrants?
    /// On an Android phone only: whether the grants are "Only this time" (AN10).
    public var oneTime: Bool?

    public init(
        status: AuthorizationStatus, accuracy: LocationAccuracy, servicesEnabled: Bool? = nil, grants: AndroidGrants? = nil, oneTime: Bool? = nil
    ) {
        self.status = status
        self.accuracy = accuracy
        self.servicesEnabled = servicesEnabled
        self.grants = grants
        self.oneTime = oneTime
    }

    public init(json: JSONValue) throws(RPCError) {
        let p = try Params(result: json)
        var grants: AndroidGrants?
        if let given = p.members["grants"], !given.isNull { grants = try AndroidGrants(json: given) }
        self.init(
            status: try p.required("status", as: AuthorizationStatus.self), accuracy: try p.required("accuracy", as: LocationAccuracy.self),
            servicesEnabled: try p.bool("servicesEnabled"), grants: grants, oneTime: try p.bool("oneTime"))
    }

    public var json: JSONValue {
        var o = WireObject()
        o.set("status", status)
        o.set("accuracy", accuracy)
        o.set("servicesEnabled", servicesEnabled)
        if let grants { o["grants"] = grants.json }
        o.set("oneTime", oneTime)
        return o.json
    }
}

/// `authorization.get`.
public struct AuthorizationGet: ParameterlessRequest, Equatable {
    public typealias Result = AuthorizationResult
    public static let method = Method.authorizationGet
    public init() {}
}

/// `authorization.request`: answered when the person (or the policy) has decided.
public struct AuthorizationRequest: RPCRequest, Equatable {
    public typealias Result = AuthorizationResult
    public static let method = Method.authorizationRequest
    public var level: AuthorizationLevel
    /// On an Android phone: the permissions asked for (docs/platforms.md AN1); `level` is
    /// then what they come to (`always` with background).
    public var permissions: Set<AndroidPermission>?

    public init(level: AuthorizationLevel) { self.level = level }

    public init(permissions: Set<AndroidPermission>) {
        self.permissions = permissions
        self.level = permissions.contains(.background) ? .always : .whenInUse
    }

    public init(_ p: Params) throws(RPCError) {
        permissions = try p.androidPermissions("permissions")
        let level = try p.name("level", as: AuthorizationLevel.self)
        guard let asked = level ?? permissions.map({ $0.contains(.background) ? .always : .whenInUse }) else {
            throw .invalidParams("\"level\" is required: whenInUse or always")
        }
        self.level = asked
    }

    public var params: JSONValue {
        guard let permissions else { return ["level": .string(level.rawValue)] }
        return ["permissions": .array(AndroidPermission.allCases.filter(permissions.contains).map { .string($0.rawValue) })]
    }
}

/// `location.start`: `location` events from the next fix on.
public struct LocationStart: RPCRequest, Equatable {
    public typealias Result = EmptyResult
    public static let method = Method.locationStart
    /// Metres; 0 is the best there is.
    public var desiredAccuracy: Double?
    /// Metres a fix must move from the last one sent; 0 sends every fix.
    public var distanceFilter: Double?
    /// iOS: Core Location's `allowsBackgroundLocationUpdates` and
    /// `showsBackgroundLocationIndicator`: both, from the foreground, keep the app in use
    /// while the stream runs (docs/platforms.md I8).
    public var allowsBackgroundLocationUpdates: Bool?
    public var showsBackgroundLocationIndicator: Bool?

    public init(desiredAccuracy: Double? = nil, distanceFilter: Double? = nil) {
        self.desiredAccuracy = desiredAccuracy
        self.distanceFilter = distanceFilter
    }

    public init(_ p: Params) throws(RPCError) {
        desiredAccuracy = try p.number("desiredAccuracy")
        distanceFilter = try p.number("distanceFilter")
        allowsBackgroundLocationUpdates = try p.bool("allowsBackgroundLocationUpdates")
        showsBackgroundLocationIndicator = try p.bool("showsBackgroundLocationIndicator")
        guard (desiredAccuracy ?? 0) >= 0 else { throw .invalidParams("\"desiredAccuracy\" must not be negative") }
        guard (distanceFilter ?? 0) >= 0 else { throw .invalidParams("\"distanceFilter\" must not be negative") }
    }

    public var params: JSONValue {
        var o = WireObject()
        o.set("desiredAccuracy", desiredAccuracy)
        o.set("distanceFilter", distanceFilter)
        o.set("allowsBackgroundLocationUpdates", allowsBackgroundLocationUpdates)
        o.set("showsBackgroundLocationIndicator", showsBackgroundLocationIndicator)
        return o.json
    }
}

/// `location.once`: the next fix.
public struct LocationOnce: ParameterlessRequest, Equatable {
    public typealias Result = WireLocation
    public static let method = Method.locationOnce
    public init() {}
}

/// The app methods that take nothing and answer `{}`.
public struct LocationStop: ParameterlessRequest, Equatable {
    public typealias Result = EmptyResult
    public static let method = Method.locationStop
    public init() {}
}

public struct OrientationStart: ParameterlessRequest, Equatable {
    public typealias Result = EmptyResult
    public static let method = Method.orientationStart
    public init() {}
}

public struct OrientationStop: ParameterlessRequest, Equatable {
    public typealias Result = EmptyResult
    public static let method = Method.orientationStop
    public init() {}
}

public struct PostureStart: ParameterlessRequest, Equatable {
    public typealias Result = EmptyResult
    public static let method = Method.postureStart
    public init() {}
}

public struct PostureStop: ParameterlessRequest, Equatable {
    public typealias Result = EmptyResult
    public static let method = Method.postureStop
    public init() {}
}

/// `significantChanges.start` / `.stop`: `significantChange` events (RULES S1–S3).
public struct SignificantChangesStart: ParameterlessRequest, Equatable {
    public typealias Result = EmptyResult
    public static let method = Method.significantChangesStart
    public init() {}
}

public struct SignificantChangesStop: ParameterlessRequest, Equatable {
    public typealias Result = EmptyResult
    public static let method = Method.significantChangesStop
    public init() {}
}

/// `visits.start` / `.stop`: `visit` events (RULES V1–V5).
public struct VisitsStart: ParameterlessRequest, Equatable {
    public typealias Result = EmptyResult
    public static let method = Method.visitsStart
    public init() {}
}

public struct VisitsStop: ParameterlessRequest, Equatable {
    public typealias Result = EmptyResult
    public static let method = Method.visitsStop
    public init() {}
}

/// `heading.start`: `heading` and `headingCalibration` events (RULES H1–H8).
public struct HeadingStart: RPCRequest, Equatable {
    public typealias Result = EmptyResult
    public static let method = Method.headingStart
    /// Degrees a heading must turn from the last one sent (iOS `headingFilter`); 0 sends
    /// every sample; 1 when absent, as on iOS.
    public var filter: Double?

    public init(filter: Double? = nil) { self.filter = filter }

    public init(_ p: Params) throws(RPCError) {
        filter = try p.number("filter")
        if let filter, !(0...180).contains(filter) {
            throw .invalidParams("\"filter\" must be within 0...180 degrees, got \(filter)")
        }
    }

    public var params: JSONValue {
        var o = WireObject()
        o.set("filter", filter)
        return o.json
    }
}

public struct HeadingStop: ParameterlessRequest, Equatable {
    public typealias Result = EmptyResult
    public static let method = Method.headingStop
    public init() {}
}

/// `app.update`: the app's state, supported orientations, interface lock.
public struct AppUpdate: RPCRequest, Equatable {
    /// The app's entry, as `apps.list` gives it.
    public typealias Result = JSONValue
    public static let method = Method.appUpdate
    public var state: AppState?
    public var orientations: [InterfaceOrientation]?
    public var interfaceLocked: Bool?
    /// On an Android phone: `"location"` when the app starts a foreground service of type
    /// location, `"none"` when it stops it (docs/platforms.md AN13).
    public var foregroundService: Bool?

    public init(state: AppState? = nil, orientations: [InterfaceOrientation]? = nil, interfaceLocked: Bool? = nil, foregroundService: Bool? = nil) {
        self.state = state
        self.orientations = orientations
        self.interfaceLocked = interfaceLocked
        self.foregroundService = foregroundService
    }

    public init(_ p: Params) throws(RPCError) {
        state = try p.name("state", as: AppState.self)
        orientations = try p.interfaceOrientations("orientations")
        interfaceLocked = try p.bool("interfaceLocked")
        switch try p.string("foregroundService") {
        case nil: foregroundService = nil
        case "location": foregroundService = true
        case "none": foregroundService = false
        case let other?: throw .invalidParams("\"foregroundService\" must be location or none (got \"\(other)\")")
        }
    }

    public var params: JSONValue {
        var o = WireObject()
        o.set("state", state)
        if let orientations { o["orientations"] = .array(orientations.map { .string($0.rawValue) }) }
        o.set("interfaceLocked", interfaceLocked)
        o.set("foregroundService", foregroundService.map { $0 ? "location" : "none" })
        return o.json
    }
}

extension Params {
    /// A list of interface orientation names, duplicates dropped, in the app's order.
    public func interfaceOrientations(_ key: String) throws(RPCError) -> [InterfaceOrientation]? {
        guard let names = try stringList(key) else { return nil }
        var out: [InterfaceOrientation] = []
        for name in names {
            guard let o = InterfaceOrientation(rawValue: name) else {
                throw .invalidParams(
                    "\"\(key)\": \(name) is not an interface orientation (portrait, portraitUpsideDown, landscapeLeft, landscapeRight)")
            }
            if !out.contains(o) { out.append(o) }
        }
        return out
    }
}
