import SextantProtocol

/// The control side on an Android phone (docs/platforms.md AN7, AN15–AN17): Settings'
/// grants, `permissions reset`, and what `permissions explain` shows.
extension AuthorizationEngine {
    /// `permissions.set {grants}` (AN7, AN15): exactly these permissions granted, as Settings'
    /// buttons would (Allow all the time = coarse, fine and background; Allow only while
    /// using; Don't allow); a one-time grant is replaced. `denials` sets USER_SET/USER_FIXED
    /// (AN5); nil keeps them, except that a grant clears them.
    public mutating func setAndroidGrants(
        app: String, grants: AndroidGrants, denials: Int?, at now: EngineTime
    ) -> (StoredPermission?, [AuthorizationEffect]) {
        var entry = android.apps[app] ?? AndroidAppPermissions(updated: now.wall)
        entry.grants = grants
        entry.denials = denials ?? (grants == .none ? entry.denials : 0)
        entry.updated = now.wall
        var effects = changeApp(app) { $0.android.oneTime[app] = nil }
        let keep = entry.grants != .none || entry.denials > 0
        effects += storeAndroid(app, keep ? entry : nil)
        return (permissions[app], effects)
    }

    /// `permissions.set {grants, oneTime: true}` (AN38): the app holds an "Only this time"
    /// grant, as that button gives it, and nothing stored; AN10–AN12's timers run from now
    /// (with no session open, AN11's 5 s).
    public mutating func setAndroidOneTime(app: String, precise: Bool, at now: EngineTime) -> (StoredPermission?, [AuthorizationEffect]) {
        // The grant first, so that forgetting the stored grants is no change the app hears.
        var effects = changeApp(app) { $0.android.oneTime[app] = AndroidOneTimeGrant(precise: precise) }
        effects += storeAndroid(app, nil)
        effects += androidAppChanged(app, at: now)
        return (permissions[app], effects)
    }

    /// `permissions.set {status, accuracy}` on an Android phone (AN16): iOS's words as
    /// Settings' buttons — authorizedAlways → coarse+fine+background, authorizedWhenInUse →
    /// coarse (+fine at full accuracy), denied → nothing granted and USER_SET, notDetermined →
    /// forgotten. nil for `restricted`, which Android has not.
    public mutating func setAndroidStatus(
        app: String, status: AuthorizationStatus, accuracy: LocationAccuracy?, at now: EngineTime
    ) -> (StoredPermission?, [AuthorizationEffect])? {
        let fine = (accuracy ?? permissions[app]?.accuracy ?? .full) == .full
        switch status {
        case .restricted: return nil
        case .notDetermined: return setAndroidGrants(app: app, grants: .none, denials: 0, at: now)
        case .denied: return setAndroidGrants(app: app, grants: .none, denials: max(1, android.apps[app]?.denials ?? 0), at: now)
        case .authorizedWhenInUse: return setAndroidGrants(app: app, grants: AndroidGrants(coarse: true, fine: fine), denials: 0, at: now)
        case .authorizedAlways:
            return setAndroidGrants(app: app, grants: AndroidGrants(coarse: true, fine: fine, background: true), denials: 0, at: now)
        }
    }

    /// `permissions reset` on an Android phone (AN17): grants, one-time grants and the
    /// USER_SET/USER_FIXED flags forgotten, as `pm clear-permission-flags … user-set
    /// user-fixed` with `pm revoke` would; the apps may show the dialog again.
    mutating func resetAndroid(app: String?) -> (count: Int, effects: [AuthorizationEffect]) {
        let apps = app.map { [$0] } ?? Set(android.apps.keys).union(android.oneTime.keys).sorted()
        var count = 0
        var effects: [AuthorizationEffect] = []
        for name in apps where android.apps[name] != nil || android.oneTime[name] != nil {
            count += 1
            effects += changeApp(name) { $0.android.oneTime[name] = nil }
            effects += storeAndroid(name, nil)
        }
        for id in sessions.keys where apps.contains(sessions[id]!.app) { sessions[id]?.prompted = false }
        return (count, effects)
    }

    /// What `permissions explain` shows of an app on an Android phone (AN18).
    public func androidFacets(of app: String) -> AndroidFacets {
        let entry = android.apps[app]
        let once = android.oneTime[app]
        var timers: [AndroidTimer] = []
        if let once, let deadline = once.deadline, let name = once.timer { timers.append(AndroidTimer(name: name, deadline: deadline)) }
        if let due = android.nextUnusedCheck, entry != nil { timers.append(AndroidTimer(name: .unusedAppsCheck, deadline: due)) }
        return AndroidFacets(
            grants: entry?.grants ?? .none, oneTime: once.map { AndroidGrants(coarse: true, fine: $0.precise) }, userSet: entry?.userSet ?? false,
            userFixed: entry?.userFixed ?? false, denials: entry?.denials ?? 0, lastUsed: entry?.lastUsed,
            foregroundService: sessions.contains { $0.value.app == app && android.foregroundServices.contains($0.key) }, timers: timers)
    }
}

/// An app's Android permission state in full (AN18): what the dialog and Settings decided,
/// the flags, and the timers running with their monotonic deadlines.
public struct AndroidFacets: Sendable, Equatable {
    /// The stored grants (without the one-time grant).
    public var grants: AndroidGrants
    /// The "Only this time" grant, if any: coarse, and fine when precise.
    public var oneTime: AndroidGrants?
    public var userSet: Bool
    public var userFixed: Bool
    public var denials: Int
    public var lastUsed: Timestamp?
    /// Whether a session of the app runs a location foreground service started while visible (AN13).
    public var foregroundService: Bool
    public var timers: [AndroidTimer]

    public var json: JSONValue {
        var o: [String: JSONValue] = [
            "grants": grants.json, "oneTime": oneTime?.json ?? .null, "userSet": .bool(userSet), "userFixed": .bool(userFixed),
            "denials": .int(Int64(denials)), "lastUsed": lastUsed.map { .string($0.rfc3339) } ?? .null, "foregroundService": .bool(foregroundService),
        ]
        o["timers"] = .array(timers.map { ["name": .string($0.name.rawValue), "deadline": .int($0.deadline)] })
        return .object(o)
    }
}

/// A timer of the Android rules and the monotonic time (ns) at which it fires.
public struct AndroidTimer: Sendable, Equatable {
    public var name: AndroidTimerName
    public var deadline: Int64
}
