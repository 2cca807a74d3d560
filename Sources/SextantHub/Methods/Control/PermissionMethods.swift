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
    let provisional: Bool

    init(_ p: Params) throws(RPCError) {
        let request = try PermissionsSet(p)
        (app, status, accuracy, provisional) = (request.app, request.status, request.accuracy, request.provisional ?? false)
    }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        let hub = call.hub
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
