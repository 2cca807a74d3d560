import NIOCore
import SextantCore
import SextantProtocol
import SextantTraces

/// What the control side reads of the hub (`status`, `permissions.list`, `apps.list`).
extension Hub {
    func statusJSON() -> JSONValue {
        let uptime = Double(clock.monotonicNanoseconds() - startedAt) / 1e9
        let sources = sourceStates.sorted.map { entry -> JSONValue in
            var fields: [String: JSONValue] = ["name": .string(entry.name.rawValue), "state": .string(entry.state.description)]
            if entry.name == .gpsd, let details = sourceStates.gpsd {
                fields.merge(details.json(monotonicNow: clock.monotonicNanoseconds())) { $1 }
            }
            return .object(fields)
        }
        var status: [String: JSONValue] = [
            "version": .string(configuration.version),
            "uptime": .double((uptime * 1000).rounded() / 1000),
            "profile": .string(configuration.profile.rawValue),
            "platform": configuration.platform.json,
            "sources": .array(sources),
            "replay": replay.statusJSON,
            "servicesEnabled": .bool(authorization.servicesEnabled),
            "rotationLock": .bool(motion.rotationLock),
            "deviceOrientation": .string(motion.judge.orientation.rawValue),
            "held": manualSensors.statusJSON,
            "sessions": .int(Int64(sessions.count)),
            "promptPolicy": promptPolicyJSON,
            "allowOnceTimeout": .double(Double(authorization.allowOnceBackgroundLimit) / 1e9),
            "recording": recorder.map { JSONValue.string($0.path) } ?? .null,
            "gnss": gnss.state.json,
        ]
        status.merge(services.statusMembers) { $1 }
        for face in faces { status.merge(face.statusMembers) { $1 } }
        return .object(status)
    }

    /// The policy in force, and whether it is stored: kept for every later daemon on the
    /// state directory (false with `--ephemeral`).
    private var promptPolicyJSON: JSONValue {
        var policy = authorization.policy.json.objectValue ?? [:]
        policy["stored"] = .bool(!configuration.storeIsEphemeral)
        return .object(policy)
    }

    func permissionEntries() -> [JSONValue] {
        var entries: [String: JSONValue] = [:]
        for (app, entry) in authorization.permissions { entries[app] = entry.json(app: app, ios: authorization.iosFacets(of: app)) }
        for (app, accuracy) in authorization.allowOnceGrants {
            entries[app] = [
                "app": .string(app), "status": .string(AuthorizationStatus.authorizedWhenInUse.rawValue),
                "accuracy": .string(accuracy.rawValue), "allowOnce": true, "updated": .string(now.wall.rfc3339),
            ]
        }
        // An Android phone's one-time grants and flags (docs/platforms.md AN18).
        for app in Set(authorization.android.apps.keys).union(authorization.android.oneTime.keys) where entries[app] == nil {
            entries[app] = PermissionsSetMethod.androidEntry(app, authorization)
        }
        // The uid the app id is bound to (docs/security.md), null if none.
        return entries.keys.sorted().map { app in
            var entry = entries[app]!.objectValue ?? [:]
            if authorization.platform.androidAPI != nil { entry["android"] = authorization.androidFacets(of: app).json }
            entry["uid"] = stored.owners[app].map { .int(Int64($0)) } ?? .null
            entry.merge(authorization.temporaryFullAccuracyMember(of: app) ?? [:]) { $1 }  // I9
            return .object(entry)
        }
    }

    func appEntry(_ session: AppSession) -> JSONValue {
        var entry = sessionIdentity(session)
        entry["state"] = .string((authorization.appState(of: session.id) ?? .foreground).rawValue)
        entry["interfaceOrientation"] = JSONValue(session.interface.orientation?.rawValue)
        entry["orientations"] = .array(session.interface.declared.map { .string($0.rawValue) })
        entry["interfaceLocked"] = .bool(session.interface.interfaceLocked)
        entry["authorization"] = authorization.authorization(of: session.id).json
        entry["streams"] = .array(session.streams.map { .string($0) })
        entry.merge(services.appEntryMembers(session)) { $1 }
        entry.merge(iosFacetMembers(session)) { $1 }
        return .object(entry)
    }

    /// What the app cannot see of its authorization (docs/platforms.md I2, L5, I9), only the
    /// members that are set: `provisional` with `settings` (what Settings shows),
    /// `allowOnce`, `temporaryFullAccuracy` (the purpose keys granted), `purposeKeys`.
    private func iosFacetMembers(_ session: AppSession) -> [String: JSONValue] {
        var members: [String: JSONValue] = [:]
        let facets = authorization.sessionFacets(of: session.id)
        if authorization.iosFacets(of: session.app).provisional, authorization.permissions[session.app]?.status == .authorizedAlways, !facets.allowOnce {
            members["provisional"] = true
            members["settings"] = "While Using"
        }
        if facets.allowOnce { members["allowOnce"] = true }
        if !facets.temporaryFullAccuracy.isEmpty { members["temporaryFullAccuracy"] = .array(facets.temporaryFullAccuracy.map { .string($0) }) }
        // The purpose keys declared at hello (I9): what a temporary grant may name.
        let keys = authorization.declaration(of: session.id)?.temporaryUsageDescriptions.keys.sorted() ?? []
        if !keys.isEmpty { members["purposeKeys"] = .array(keys.map { .string($0) }) }
        return members
    }

    /// What names a session in `apps.list` and in the `session` event, even once closed.
    func sessionIdentity(_ session: AppSession) -> [String: JSONValue] {
        [
            "session": .int(Int64(session.id)),
            "app": .string(session.app),
            "pid": session.output.peer.map { JSONValue.int(Int64($0.pid)) } ?? .null,
            "uid": session.output.peer.map { JSONValue.int(Int64($0.uid)) } ?? .null,
            "kind": .string(session.output.face),
        ]
    }
}
