import SextantProtocol

/// Android's timers (docs/platforms.md AN10–AN15): the one-time grant's end after the app
/// leaves the foreground or its last session, the foreground service that keeps it, and the
/// unused-apps reset. Deadlines are on the engine's monotonic time; the owner calls
/// `expireAllowOnce(at:)` at each `scheduleExpiryCheck`.
extension AuthorizationEngine {
    typealias Numbers = AndroidPermissionNumbers

    /// Whether one of the app's sessions is in the foreground (Android's importance
    /// FOREGROUND) or runs a foreground service it started while visible (FOREGROUND_SERVICE).
    func androidAppKeepsOneTime(_ app: String) -> Bool {
        sessions.contains { id, record in record.app == app && (record.state == .foreground || android.foregroundServices.contains(id)) }
    }

    func androidAppIsVisible(_ app: String) -> Bool {
        sessions.values.contains { $0.app == app && $0.state == .foreground }
    }

    /// After any change to the app's sessions: the one-time timer runs or stops (AN10,
    /// AN11), and the app's last use is stamped when it comes or goes (AN14).
    mutating func androidAppChanged(_ app: String, at now: EngineTime) -> [AuthorizationEffect] {
        var effects: [AuthorizationEffect] = []
        let live = sessions.values.contains { $0.app == app }
        // A grant whose timer ran out is gone before the app can be seen with it again.
        if let deadline = android.oneTime[app]?.deadline, now.monotonic >= deadline {
            effects += changeApp(app) { $0.android.oneTime[app] = nil }
        }
        if var grant = android.oneTime[app] {
            if !live {
                // AN11: 5 s after the last session closed; a reconnect in time keeps it.
                if grant.timer != .oneTimeSessionsClosed {
                    grant.deadline = min(grant.deadline ?? .max, now.monotonic + Numbers.oneTimeKilledDelay)
                    grant.timer = .oneTimeSessionsClosed
                }
            } else if androidAppKeepsOneTime(app) {
                grant.deadline = nil
                grant.timer = nil
            } else if grant.timer != .oneTimeBackground {
                // AN10: 60 s after the app left the foreground (or reconnected in the background).
                grant.deadline = now.monotonic + Numbers.oneTimeTimeout
                grant.timer = .oneTimeBackground
            }
            if grant != android.oneTime[app] {
                android.oneTime[app] = grant
                if let deadline = grant.deadline { effects.append(.scheduleExpiryCheck(at: deadline)) }
            }
        }
        if var entry = android.apps[app], entry.lastUsed != now.wall {
            entry.lastUsed = now.wall
            effects += storeAndroid(app, entry)
        }
        return effects
    }

    /// AN13: `app.update {foregroundService: "location"}` (nil: stopped). One started while the
    /// app is not visible does not count, as Android 12 refuses to start it from the background.
    public mutating func setForegroundService(_ session: SessionID, running: Bool, at now: EngineTime) -> [AuthorizationEffect] {
        guard platform.androidAPI != nil, let record = sessions[session] else { return [] }
        if running {
            guard record.state == .foreground else { return [] }
            android.foregroundServices.insert(session)
        } else {
            android.foregroundServices.remove(session)
        }
        return androidAppChanged(record.app, at: now)
    }

    /// Ends the one-time grants whose timer has run out (AN10, AN11), and runs the unused-apps
    /// check when due (AN14).
    mutating func expireAndroidTimers(at now: EngineTime) -> [AuthorizationEffect] {
        var effects: [AuthorizationEffect] = []
        for (app, grant) in android.oneTime.sorted(by: { $0.key < $1.key }) {
            guard let deadline = grant.deadline, now.monotonic >= deadline else { continue }
            effects += changeApp(app) { $0.android.oneTime[app] = nil }
        }
        if let due = android.nextUnusedCheck, now.monotonic >= due { effects += reviewUnusedApps(at: now) }
        return effects
    }

    /// AN14: the unused-apps job. Every app whose last use is 90 days or more before the wall
    /// time, with no session now, has its permissions reset (notDetermined, asking again
    /// allowed); then the job runs again 15 days later.
    public mutating func reviewUnusedApps(at now: EngineTime) -> [AuthorizationEffect] {
        guard platform.androidAPI != nil else { return [] }
        var effects: [AuthorizationEffect] = []
        for (app, entry) in android.apps.sorted(by: { $0.key < $1.key }) where !sessions.values.contains(where: { $0.app == app }) {
            let lastUse = entry.lastUsed ?? entry.updated
            if now.wall.nanoseconds - lastUse.nanoseconds >= Numbers.unusedThreshold { effects += storeAndroid(app, nil) }
        }
        android.nextUnusedCheck = now.monotonic + Numbers.unusedCheckInterval
        effects.append(.scheduleExpiryCheck(at: android.nextUnusedCheck!))
        return effects
    }

    /// The first session on an Android phone starts the unused-apps job's period (AN14).
    mutating func startAndroidUnusedChecks(at now: EngineTime) -> [AuthorizationEffect] {
        guard android.nextUnusedCheck == nil else { return [] }
        android.nextUnusedCheck = now.monotonic + Numbers.unusedCheckInterval
        return [.scheduleExpiryCheck(at: android.nextUnusedCheck!)]
    }
}
