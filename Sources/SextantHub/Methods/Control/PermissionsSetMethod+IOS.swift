import SextantCore
import SextantProtocol

/// `permissions.set {once, temporaryFullAccuracy}` on an iPhone: the grants a prompt gives
/// to the app's live sessions (docs/platforms.md L5, I8, I9), set without the prompt so that
/// a test starts mid-flow. They lapse by the same rules as the prompt's.
extension PermissionsSetMethod {
    /// Nil when neither is asked: the status is set as L2 says.
    func setSessionGrants(_ hub: Hub) throws(RPCError) -> Reply? {
        let (once, key, app) = (sessionGrants.once, sessionGrants.temporaryFullAccuracy, self.app)
        guard once || key != nil else { return nil }
        guard hub.sessions.ordered.contains(where: { $0.app == app }) else {
            throw RPCError(.unknownApp, "\(app) has no live session: an Allow Once or temporary full-accuracy grant lives in a session (L5, I9)")
        }
        if let refusal = hub.authorization.refusalOfSessionGrants(app: app, once: once, purposeKey: key) { throw .invalidParams(refusal) }
        let (status, accuracy, provisional, time) = (self.status, self.accuracy, self.provisional, hub.now)
        hub.logger.info("permission set in sessions", metadata: ["app": "\(app)", "once": "\(once)", "temporaryFullAccuracy": "\(key ?? "")"])
        return .later(
            try hub.commitDecision(from: .control) { engine in
                var effects: [AuthorizationEffect]
                if once {
                    effects = engine.setAllowOnce(app: app, accuracy: accuracy ?? .full, at: time)
                } else {
                    effects = engine.setPermission(app: app, status: status, accuracy: accuracy, at: time).1
                    effects += engine.setProvisional(app: app, provisional)
                }
                if let key { effects += engine.grantTemporaryFullAccuracy(app: app, purposeKey: key, at: time) }
                return (Self.sessionGrantEntry(app, engine, at: time), effects)
            })
    }

    /// The app's `permissions.list` entry after the change: its Allow Once grant, or its
    /// stored decision, with the purpose keys granted.
    static func sessionGrantEntry(_ app: String, _ engine: AuthorizationEngine, at time: EngineTime) -> JSONValue {
        var entry: JSONValue
        if let grant = engine.allowOnceGrants[app] {
            entry = [
                "app": .string(app), "status": .string(AuthorizationStatus.authorizedWhenInUse.rawValue),
                "accuracy": .string(grant.rawValue), "allowOnce": true, "updated": .string(time.wall.rfc3339),
            ]
        } else {
            let stored = engine.permissions[app] ?? StoredPermission(status: .notDetermined, accuracy: .full, updated: time.wall)
            entry = stored.json(app: app, ios: engine.iosFacets(of: app))
        }
        return entry.adding(engine.temporaryFullAccuracyMember(of: app))
    }
}

extension AuthorizationEngine {
    /// `temporaryFullAccuracy`: the purpose keys granted in some live session of `app`
    /// (I9), for `permissions.list`; nil (no member) when none is.
    func temporaryFullAccuracyMember(of app: String) -> [String: JSONValue]? {
        let keys = iosReport(app: app).temporaryFullAccuracyKeys
        guard !keys.isEmpty else { return nil }
        return ["temporaryFullAccuracy": .array(Array(Set(keys)).sorted().map { .string($0) })]
    }
}
