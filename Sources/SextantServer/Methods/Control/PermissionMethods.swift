import SextantCore
import SextantProtocol

/// `services.set`: the Location Services switch (RULES L1), answered once stored.
struct ServicesSetMethod: RPCMethod {
    static let name = Method.servicesSet
    let enabled: Bool

    init(_ p: Params) throws(RPCError) { enabled = try p.requiredBool("enabled") }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        let enabled = self.enabled
        // Hub+Store: in effect only once committed.
        return .later(try call.hub.commitDecision { engine in (JSONValue.object(["enabled": .bool(enabled)]), engine.setServicesEnabled(enabled)) })
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

    init(_ p: Params) throws(RPCError) {
        app = try p.appID("app")
        guard let status = try p.name("status", as: AuthorizationStatus.self) else { throw .invalidParams("\"status\" is required") }
        self.status = status
        accuracy = try p.name("accuracy", as: LocationAccuracy.self)
    }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        let hub = call.hub
        let (app, status, accuracy, time) = (self.app, self.status, self.accuracy, hub.now)
        hub.logger.info("permission set", metadata: ["app": "\(app)", "status": "\(status.rawValue)", "accuracy": "\(accuracy?.rawValue ?? "kept")"])
        // Hub+Store: in effect only once committed.
        return .later(
            try hub.commitDecision { engine in
                let (entry, effects) = engine.setPermission(app: app, status: status, accuracy: accuracy, at: time)
                return (entry.json(app: app), effects)
            })
    }
}

/// `permissions.reset`: one app, or every app, back to notDetermined.
struct PermissionsResetMethod: RPCMethod {
    static let name = Method.permissionsReset
    let app: String?

    init(_ p: Params) throws(RPCError) { app = p.has("app") ? try p.appID("app") : nil }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        let app = self.app
        // Hub+Store: in effect only once committed, every app in one transaction.
        return .later(
            try call.hub.commitDecision { engine in
                let (count, effects) = engine.resetPermissions(app: app)
                return (JSONValue.object(["count": .int(Int64(count))]), effects)
            })
    }
}

extension Params {
    /// An app id (PROTOCOL "App socket": 1-255 of `[A-Za-z0-9._-]`).
    func appID(_ key: String) throws(RPCError) -> String {
        let app = try requiredString(key)
        guard AppID.isValid(app) else { throw .invalidParams("\"\(key)\" must be 1-255 of [A-Za-z0-9._-]") }
        return app
    }
}
