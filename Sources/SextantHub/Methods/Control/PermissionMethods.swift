import SextantCore
import SextantProtocol

/// `services.set`: the Location Services switch (RULES L1), answered once stored.
struct ServicesSetMethod: RPCMethod {
    static let name = Method.servicesSet
    let enabled: Bool

    init(_ p: Params) throws(RPCError) { enabled = try ServicesSet(p).enabled }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        let enabled = self.enabled
        // Hub+Store: in effect only once committed.
        return .later(try call.hub.commitDecision(from: .control) { engine in (EnabledResult(enabled: enabled).json, engine.setServicesEnabled(enabled)) })
    }
}

/// `permissions.list`: every stored decision and allowOnce grant.
struct PermissionsListMethod: RPCMethod {
    static let name = Method.permissionsList
    init(_ p: Params) throws(RPCError) {}

    func run(_ call: MethodCall) throws(RPCError) -> Reply { .result(.array(call.hub.permissionEntries())) }
}

/// `permissions.set`: an app's decision set by hand (RULES L2, L9), answered once stored.
struct PermissionsSetMethod: RPCMethod {
    static let name = Method.permissionsSet
    let app: String
    let status: AuthorizationStatus
    let accuracy: LocationAccuracy?
    /// Android's grants and denials, as Settings sets them (docs/platforms.md AN15, AN5).
    let android: (grants: Set<AndroidPermission>?, denials: Int?)
    let provisional: Bool
    /// iOS's grants that live in the app's sessions (docs/platforms.md L5, I9): +IOS.
    let sessionGrants: (once: Bool, temporaryFullAccuracy: String?)
    /// Android: the grants given "Only this time" (docs/platforms.md AN38).
    let oneTime: Bool

    init(_ p: Params) throws(RPCError) {
        let request = try PermissionsSet(p)
        (app, status, accuracy, provisional) = (request.app, request.status, request.accuracy, request.provisional ?? false)
        android = (request.grants, request.denials)
        sessionGrants = (request.once ?? false, request.temporaryFullAccuracy)
        oneTime = request.oneTime ?? false
    }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        let hub = call.hub
        if let reply = try setAndroid(hub) { return reply }
        if let reply = try setSessionGrants(hub) { return reply }
        let (app, status, accuracy, provisional, time) = (self.app, self.status, self.accuracy, self.provisional, hub.now)
        hub.logger.info("permission set", metadata: ["app": "\(app)", "status": "\(status.rawValue)", "accuracy": "\(accuracy?.rawValue ?? "kept")"])
        let warning = Self.unseenWarning(app: app, hub: hub)
        // Hub+Store: in effect only once committed.
        return .later(
            try hub.commitDecision(from: .control) { engine in
                var (entry, effects) = engine.setPermission(app: app, status: status, accuracy: accuracy, at: time)
                effects += engine.setProvisional(app: app, provisional)  // docs/platforms.md I2
                let json = entry.json(app: app, ios: engine.iosFacets(of: app))
                guard let warning, case .object(var members) = json else { return (json, effects) }
                members["warning"] = .string(warning)
                return (.object(members), effects)
            })
    }

    /// On an Android phone: the grants set as Settings would (AN15), or the status as its
    /// buttons (AN16); nil on an iPhone, whose status is set as L2 says.
    private func setAndroid(_ hub: Hub) throws(RPCError) -> Reply? {
        let (app, status, accuracy, time) = (self.app, self.status, self.accuracy, hub.now)
        guard hub.configuration.platform.androidAPI != nil else {
            guard android.grants == nil, android.denials == nil else {
                throw .invalidParams("\"grants\" and \"denials\" are Android's: this phone is iOS (sextantd --platform ios)")
            }
            return nil
        }
        let (grants, denials) = android
        let oneTime = self.oneTime
        if grants == nil, status == .restricted { throw .invalidParams("Android has no restricted status: give grants, or another status") }
        hub.logger.info("android permission set", metadata: ["app": "\(app)", "grants": "\(grants.map { $0.map(\.rawValue).sorted() } ?? [])"])
        return .later(
            try hub.commitDecision(from: .control) { engine in
                let (_, effects): (StoredPermission?, [AuthorizationEffect])
                if let grants, oneTime {
                    (_, effects) = engine.setAndroidOneTime(app: app, precise: grants.contains(.fine), at: time)
                } else if let grants {
                    let set = AndroidGrants(coarse: grants.contains(.coarse), fine: grants.contains(.fine), background: grants.contains(.background))
                    (_, effects) = engine.setAndroidGrants(app: app, grants: set, denials: denials, at: time)
                } else {
                    (_, effects) = engine.setAndroidStatus(app: app, status: status, accuracy: accuracy, at: time) ?? (nil, [])
                }
                return (Self.androidEntry(app, engine), effects)
            })
    }

    /// `permissions.set`'s answer on an Android phone: the mapped status with the facets (AN18).
    static func androidEntry(_ app: String, _ engine: AuthorizationEngine) -> JSONValue {
        let snapshot = engine.android.snapshot(of: app)
        var o: [String: JSONValue] = ["app": .string(app), "status": .string(snapshot.status.rawValue), "accuracy": .string(snapshot.accuracy.rawValue)]
        o["android"] = engine.androidFacets(of: app).json
        return .object(o)
    }

    /// A decision for an app id the daemon knows nothing of (no session, no stored decision
    /// or allowOnce grant, no owner) is stored all the same, as iOS lets Settings hold one,
    /// but a mistyped id would then be granted silently: the answer says so.
    private static func unseenWarning(app: String, hub: Hub) -> String? {
        let known =
            hub.authorization.permissions[app] != nil || hub.authorization.allowOnceGrants[app] != nil
            || hub.stored.owners[app] != nil || hub.sessions.ordered.contains { $0.app == app }
        guard !known else { return nil }
        return "\(app) has never been seen (no session, no stored decision, no owner): the decision is stored all the same; check the app id"
    }
}

/// `permissions.reset`: one app, or every app, back to notDetermined.
struct PermissionsResetMethod: RPCMethod {
    static let name = Method.permissionsReset
    let app: String?

    init(_ p: Params) throws(RPCError) { app = try PermissionsReset(p).app }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        let app = self.app
        // Hub+Store: in effect only once committed, every app in one transaction.
        return .later(
            try call.hub.commitDecision(from: .control) { engine in
                let (count, effects) = engine.resetPermissions(app: app)
                return (CountResult(count: count).json, effects)
            })
    }
}
