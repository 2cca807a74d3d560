// The control socket's methods (sextant-protocol(7), "Control socket"). Lists and
// `status` answer with `JSONValue`s: clients print them whole or pick a member.

/// `status`: the daemon, its sources, sessions and faces.
public struct StatusRequest: ParameterlessRequest, Equatable {
    public typealias Result = JSONValue
    public static let method = Method.status
    public init() {}
}

/// `{"enabled": Bool}`: `services.set`'s and `device.rotationLock`'s params and answers.
public struct EnabledResult: WireValue, Equatable {
    public var enabled: Bool
    public init(enabled: Bool) { self.enabled = enabled }
    public init(json: JSONValue) throws(RPCError) { enabled = try Params(result: json).requiredBool("enabled") }
    public var json: JSONValue { ["enabled": .bool(enabled)] }
}

/// `services.set`: Location Services on or off (RULES L7).
public struct ServicesSet: RPCRequest, Equatable {
    public typealias Result = EnabledResult
    public static let method = Method.servicesSet
    public var enabled: Bool
    public init(enabled: Bool) { self.enabled = enabled }
    public init(_ p: Params) throws(RPCError) { enabled = try p.requiredBool("enabled") }
    public var params: JSONValue { EnabledResult(enabled: enabled).json }
}

/// `device.rotationLock`: the system rotation lock (O9, O9a).
public struct DeviceRotationLock: RPCRequest, Equatable {
    public typealias Result = EnabledResult
    public static let method = Method.deviceRotationLock
    public var enabled: Bool
    public init(enabled: Bool) { self.enabled = enabled }
    public init(_ p: Params) throws(RPCError) { enabled = try p.requiredBool("enabled") }
    public var params: JSONValue { EnabledResult(enabled: enabled).json }
}

/// `permissions.list`: every stored permission and live allowOnce grant.
public struct PermissionsList: ParameterlessRequest, Equatable {
    public typealias Result = JSONValue
    public static let method = Method.permissionsList
    public init() {}
}

/// `permissions.set`: answers with the stored entry.
public struct PermissionsSet: RPCRequest, Equatable {
    public typealias Result = JSONValue
    public static let method = Method.permissionsSet
    public var app: String
    public var status: AuthorizationStatus
    /// Kept as it is when nil.
    public var accuracy: LocationAccuracy?
    /// On an Android phone: exactly the permissions granted, as Settings sets them
    /// (docs/platforms.md AN15); `status` is then not read and may be left out.
    public var grants: Set<AndroidPermission>?
    /// On an Android phone: the dialog's denials in a row, 0–2 (AN5: 2 is don't ask again).
    public var denials: Int?
    /// iOS: `authorizedAlways` given provisionally, as While Using answered to an Always
    /// request gives it (docs/platforms.md I2); only with `authorizedAlways`.
    public var provisional: Bool?
    /// iOS: an Allow Once grant in the app's live sessions instead of a stored decision
    /// (docs/platforms.md L5, I8); only with `authorizedWhenInUse`.
    public var once: Bool?
    /// iOS: a temporary full-accuracy grant for this purpose key in the app's live sessions
    /// (I9), beside the status set; only with an authorized status.
    public var temporaryFullAccuracy: String?
    /// Android: `grants` (coarse, and fine for precise) given "Only this time", as that button
    /// of the dialog gives them (docs/platforms.md AN38): AN10–AN12's timers then end them.
    public var oneTime: Bool?

    public init(app: String, status: AuthorizationStatus, accuracy: LocationAccuracy? = nil, provisional: Bool? = nil) {
        self.app = app
        self.status = status
        self.accuracy = accuracy
        self.provisional = provisional
    }

    public init(app: String, grants: Set<AndroidPermission>, denials: Int? = nil) {
        self.app = app
        self.status = grants.isEmpty ? .denied : grants.contains(.background) ? .authorizedAlways : .authorizedWhenInUse
        self.grants = grants
        self.denials = denials
    }

    public init(_ p: Params) throws(RPCError) {
        app = try p.appID("app")
        grants = try p.has("grants") ? p.androidGrantList("grants") : nil
        if let count = try p.number("denials") {
            guard [0, 1, 2].contains(count) else { throw .invalidParams("\"denials\" must be 0, 1 (user-set) or 2 (don't ask again)") }
            denials = Int(count)
        }
        if grants != nil || denials != nil, !p.has("status") {
            status = grants.map { $0.contains(.background) ? .authorizedAlways : $0.isEmpty ? .denied : .authorizedWhenInUse } ?? .denied
        } else {
            status = try p.required("status", as: AuthorizationStatus.self)
        }
        accuracy = try p.name("accuracy", as: LocationAccuracy.self)
        provisional = try p.bool("provisional")
        if provisional == true, status != .authorizedAlways {
            throw .invalidParams("\"provisional\" applies only to authorizedAlways (While Using given to an Always request)")
        }
        oneTime = try p.bool("oneTime")
        if oneTime == true, grants.map({ !$0.contains(.coarse) || $0.contains(.background) }) ?? true {
            throw .invalidParams("\"oneTime\" needs \"grants\" with coarse (and fine for precise), without background: Only this time grants no background")
        }
        try parseSessionGrants(p)
    }

    /// `once` and `temporaryFullAccuracy` (I8, I9), each checked against the status.
    private mutating func parseSessionGrants(_ p: Params) throws(RPCError) {
        once = try p.bool("once")
        if once == true, status != .authorizedWhenInUse {
            throw .invalidParams("\"once\" applies only to authorizedWhenInUse (Allow Once is a one-time While Using)")
        }
        temporaryFullAccuracy = try p.string("temporaryFullAccuracy")
        if let key = temporaryFullAccuracy {
            guard !key.isEmpty, key.utf8.count <= 255 else { throw .invalidParams("\"temporaryFullAccuracy\" must be a purpose key of 1 to 255 bytes") }
            guard status.isAuthorized else {
                throw .invalidParams("\"temporaryFullAccuracy\" needs an authorized status (authorizedWhenInUse or authorizedAlways), not \(status.rawValue)")
            }
        }
    }

    public var params: JSONValue {
        var o = WireObject()
        o.set("app", app)
        if grants == nil && denials == nil { o.set("status", status) }
        o.set("accuracy", accuracy)
        if let grants { o["grants"] = .array(AndroidPermission.allCases.filter(grants.contains).map { .string($0.rawValue) }) }
        if let denials { o["denials"] = .int(Int64(denials)) }
        o.set("provisional", provisional)
        o.set("once", once)
        o.set("temporaryFullAccuracy", temporaryFullAccuracy)
        o.set("oneTime", oneTime)
        return o.json
    }
}

/// `{"count": Int}`: how many entries `permissions.reset` removed.
public struct CountResult: WireValue, Equatable {
    public var count: Int
    public init(count: Int) { self.count = count }
    public init(json: JSONValue) throws(RPCError) {
        guard let count = try Params(result: json).integer("count") else { throw .invalidParams("\"count\" is required") }
        self.count = count
    }
    public var json: JSONValue { ["count": .int(Int64(count))] }
}

/// `permissions.reset`: one app's permission, or every app's when `app` is nil.
public struct PermissionsReset: RPCRequest, Equatable {
    public typealias Result = CountResult
    public static let method = Method.permissionsReset
    public var app: String?
    public init(app: String? = nil) { self.app = app }
    public init(_ p: Params) throws(RPCError) { app = p.has("app") ? try p.appID("app") : nil }
    public var params: JSONValue {
        var o = WireObject()
        o.set("app", app)
        return o.json
    }
}

/// `permissions.owners`: every app id bound to a uid.
public struct PermissionsOwners: ParameterlessRequest, Equatable {
    public typealias Result = JSONValue
    public static let method = Method.permissionsOwners
    public init() {}
}

/// `{"app", "uid"}`: an app id and the uid it was bound to (null if none).
public struct OwnerEntry: WireValue, Equatable {
    public var app: String
    public var uid: Int?
    public init(app: String, uid: Int?) {
        self.app = app
        self.uid = uid
    }
    public init(json: JSONValue) throws(RPCError) {
        let p = try Params(result: json)
        self.init(app: try p.requiredString("app"), uid: try p.integer("uid"))
    }
    public var json: JSONValue { ["app": .string(app), "uid": uid.map { .int(Int64($0)) } ?? .null] }
}

/// `permissions.unbind`: frees an app id for the next uid that says it.
public struct PermissionsUnbind: RPCRequest, Equatable {
    public typealias Result = OwnerEntry
    public static let method = Method.permissionsUnbind
    public var app: String
    public init(app: String) { self.app = app }
    public init(_ p: Params) throws(RPCError) { app = try p.appID("app") }
    public var params: JSONValue { ["app": .string(app)] }
}

/// `prompts.list`: the pending prompts, oldest first.
public struct PromptsList: ParameterlessRequest, Equatable {
    public typealias Result = JSONValue
    public static let method = Method.promptsList
    public init() {}
}

/// `prompts.answer`: what the person picked.
public struct PromptsAnswer: RPCRequest, Equatable {
    public typealias Result = PromptAnswerResult
    public static let method = Method.promptsAnswer
    /// The prompt's id; or, with `app`, nil.
    public var id: String?
    /// Instead of `id`: the oldest open prompt of this app (of `kind`, when given), as a
    /// scenario or a recording names it (ids hold only in one daemon's run).
    public var app: String?
    public var kind: PromptKind?
    public var choice: PromptChoice
    /// Precise location (true) or approximate; true when nil.
    public var precise: Bool?

    public init(id: String, choice: PromptChoice, precise: Bool? = nil) {
        self.id = id
        self.choice = choice
        self.precise = precise
    }

    public init(app: String, kind: PromptKind? = nil, choice: PromptChoice, precise: Bool? = nil) {
        self.app = app
        self.kind = kind
        self.choice = choice
        self.precise = precise
    }

    public init(_ p: Params) throws(RPCError) {
        id = try p.string("id")
        app = try p.string("app")
        kind = try p.name("kind", as: PromptKind.self)
        guard (id == nil) != (app == nil) else { throw .invalidParams("give \"id\", or \"app\" (its oldest open prompt), not both") }
        if kind != nil, app == nil { throw .invalidParams("\"kind\" goes with \"app\"") }
        choice = try p.required("choice", as: PromptChoice.self)
        precise = try p.bool("precise")
    }

    public var params: JSONValue {
        var o = WireObject()
        o.set("id", id)
        o.set("app", app)
        o.set("kind", kind)
        o.set("choice", choice)
        o.set("precise", precise)
        return o.json
    }
}

/// What `prompts.answer` answers: the prompt, the choice, and for an authorization prompt
/// the status and accuracy it gave.
public struct PromptAnswerResult: WireValue, Equatable {
    public var id: String
    public var app: String
    public var kind: PromptKind
    public var choice: PromptChoice
    public var authorization: AuthorizationResult?

    public init(id: String, app: String, kind: PromptKind, choice: PromptChoice, authorization: AuthorizationResult? = nil) {
        self.id = id
        self.app = app
        self.kind = kind
        self.choice = choice
        self.authorization = authorization
    }

    public init(json: JSONValue) throws(RPCError) {
        let p = try Params(result: json)
        self.init(
            id: try p.requiredString("id"), app: try p.requiredString("app"), kind: try p.required("kind", as: PromptKind.self),
            choice: try p.required("choice", as: PromptChoice.self),
            authorization: p.has("status") ? try AuthorizationResult(json: json) : nil)
    }

    public var json: JSONValue {
        var o = WireObject()
        o.set("id", id)
        o.set("app", app)
        o.set("kind", kind)
        o.set("choice", choice)
        o.set("status", authorization?.status)
        o.set("accuracy", authorization?.accuracy)
        return o.json
    }
}

/// `prompts.policy`: how prompts are answered, its params and its answer.
public struct PromptsPolicy: RPCRequest, Equatable {
    public typealias Result = PromptsPolicy
    public static let method = Method.promptsPolicy
    /// `ask`, or the choice every prompt gets (`allowOnce`, `allowWhileUsing`, `allowAlways`, `dontAllow`).
    public var mode: String
    public var precise: Bool?

    public init(mode: String, precise: Bool? = nil) {
        self.mode = mode
        self.precise = precise
    }

    public init(_ p: Params) throws(RPCError) {
        mode = try p.requiredString("mode")
        precise = try p.bool("precise")
    }

    public var params: JSONValue {
        var o = WireObject()
        o.set("mode", mode)
        o.set("precise", precise)
        return o.json
    }
}

extension PromptsPolicy: WireValue {
    public init(json: JSONValue) throws(RPCError) { try self.init(Params(result: json)) }
    public var json: JSONValue { params }
}

/// `apps.list`: the live app sessions.
public struct AppsList: ParameterlessRequest, Equatable {
    public typealias Result = JSONValue
    public static let method = Method.appsList
    public init() {}
}

/// `apps.update`: moves an app's sessions (or one session) to the foreground or background.
public struct AppsUpdate: RPCRequest, Equatable {
    public typealias Result = JSONValue
    public static let method = Method.appsUpdate
    public enum Target: Sendable, Equatable {
        case session(Int)
        case app(String)
    }
    public var state: AppState
    public var target: Target

    public init(state: AppState, target: Target) {
        self.state = state
        self.target = target
    }

    public init(_ p: Params) throws(RPCError) {
        guard let state = try p.name("state", as: AppState.self) else { throw .invalidParams("\"state\" is required: foreground or background") }
        self.state = state
        if let value = p.members["session"], !value.isNull {
            guard let number = value.intValue ?? value.stringValue.flatMap({ Int($0) }) else {
                throw .invalidParams("\"session\" must be a session number")
            }
            target = .session(number)
        } else {
            target = .app(try p.requiredString("app"))
        }
    }

    public var params: JSONValue {
        switch target {
        case .session(let number): return ["state": .string(state.rawValue), "session": .int(Int64(number))]
        case .app(let app): return ["state": .string(state.rawValue), "app": .string(app)]
        }
    }
}

/// `watch`: events of the control side from now on (all topics when empty).
public struct WatchRequest: RPCRequest, Equatable {
    public typealias Result = EmptyResult
    public static let method = Method.watch
    /// Every event when nil or empty.
    public var topics: [String]?
    /// Only the events that went to this app.
    public var app: String?

    public init(topics: [String]? = nil, app: String? = nil) {
        self.topics = topics
        self.app = app
    }

    public init(_ p: Params) throws(RPCError) {
        topics = try p.stringList("topics")
        if let unknown = Set(topics ?? []).subtracting(Event.all).sorted().first {
            throw .invalidParams("\"topics\": no event \"\(unknown)\" (one of: \(Event.all.sorted().joined(separator: ", ")))")
        }
        app = p.has("app") ? try p.appID("app") : nil
    }

    public var params: JSONValue {
        var o = WireObject()
        if let topics { o["topics"] = .array(topics.map(JSONValue.string)) }
        o.set("app", app)
        return o.json
    }
}
