import SextantProtocol

/// Android's timers (docs/platforms.md AN10–AN15): the one-time grant's end after the app
/// leaves the foreground or its last session, the foreground service that keeps it, and the
/// unused-apps reset. Deadlines are on the engine's monotonic time; the owner calls
/// `expireAllowOnce(at:)` at each `scheduleExpiryCheck`.
extension AuthorizationEngine {
    typealias Numbers = AndroidPermissionNumbers

    func androidAppIsVisible(_ app: String) -> Bool {
        sessions.values.contains { $0.app == app && $0.state == .foreground }
    }

    /// After any change to the app's sessions: the one-time timer runs or stops (AN10,
    /// AN11), and the app's last use is stamped when it comes or goes (AN14).
    mutating func androidAppChanged(_ app: String, at now: EngineTime) -> [AuthorizationEffect] {
        var effects: [AuthorizationEffect] = []
        // A grant whose timer ran out is gone before the app can be seen with it again.
        if let deadline = android.oneTime[app]?.deadline, now.monotonic >= deadline {
            effects += changeApp(app) { $0.android.oneTime[app] = nil }
        }
        if let grant = android.oneTime[app] {
            let next = oneTimeTimer(grant, of: app, at: now.monotonic)
            if let deadline = next.deadline, deadline <= now.monotonic {
                effects += changeApp(app) { $0.android.oneTime[app] = nil }  // fell due while held off
            } else if next != grant {
                android.oneTime[app] = next
                if let deadline = next.deadline { effects.append(.scheduleExpiryCheck(at: deadline)) }
            }
        }
        if var entry = android.apps[app], entry.lastUsed != now.wall {
            entry.lastUsed = now.wall
            effects += storeAndroid(app, entry)
        }
        return effects
    }

    /// The one-time grant's timer as OneTimePermissionUserManager runs it: it starts when the
    /// app leaves the foreground (importance above FOREGROUND) and restarts only once the app
    /// is back; the revocation is held off while a location foreground service runs
    /// (importance FOREGROUND_SERVICE) and falls due at start + 60 s, at once if that has
    /// passed (AN10, AN13). With no session left it falls due 5 s later at the latest (AN11).
    private func oneTimeTimer(_ grant: AndroidOneTimeGrant, of app: String, at now: Int64) -> AndroidOneTimeGrant {
        var next = grant
        guard sessions.values.contains(where: { $0.app == app }) else {
            if grant.timer != .oneTimeSessionsClosed {
                next.deadline = min(grant.deadline ?? .max, now + Numbers.oneTimeKilledDelay)
                next.timer = .oneTimeSessionsClosed
            }
            return next
        }
        if androidAppIsVisible(app) {
            (next.leftForeground, next.deadline, next.timer) = (nil, nil, nil)
            return next
        }
        let start = grant.leftForeground ?? now
        next.leftForeground = start
        let held = sessions.contains { id, record in record.app == app && android.foregroundServices.contains(id) }
        (next.deadline, next.timer) = held ? (nil, nil) : (start + Numbers.oneTimeTimeout, .oneTimeBackground)
        return next
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
