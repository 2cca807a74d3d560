import SextantProtocol

/// Everything that decides what an app gets of location, at one moment (`permissions.explain`):
/// the status it sees, the stored decision, the facets an app cannot see (an Allow Once grant,
/// a prompt already had, requests waiting), the timers running and when each fires. A test
/// that fails on "why does my app get nothing" reads this rather than guessing.
public struct PermissionExplanation: Sendable, Equatable {
    public var app: String
    public var platform: DevicePlatform
    /// What the app's sessions are told now (`denied` while the switch is off, L1).
    public var status: AuthorizationStatus
    public var accuracy: LocationAccuracy
    public var servicesEnabled: Bool
    public var stored: StoredPermission?
    /// The app's live sessions, with what each holds.
    public var sessions: [SessionFacets]
    /// The platform's facets beyond the status, by name (docs/platforms.md names each).
    public var facets: [String: JSONValue]
    public var timers: [RunningTimer]
    public var prompts: [Prompt]
    /// The app's motion permission (Motion & Fitness, ACTIVITY_RECOGNITION; A11–A15).
    public var motion = MotionFacts(status: .notDetermined, denials: nil)

    /// The motion permission as the platform holds it: the status, and on Android the
    /// dialog's denials in a row (A15: two are "don't ask again"); nil on iOS, which asks once.
    public struct MotionFacts: Sendable, Equatable {
        public var status: MotionAuthorizationStatus
        public var denials: Int?
        public var dontAskAgain: Bool { (denials ?? 0) >= MotionPermissions.deniesBeforeFixed }
    }

    /// One live session of the app.
    public struct SessionFacets: Sendable, Equatable {
        public var session: SessionID
        public var state: AppState
        /// Device-monotonic nanoseconds since which the app has been in the background.
        public var backgroundSince: Int64?
        /// The accuracy of an Allow Once grant this session holds (L5), if any.
        public var allowOnce: LocationAccuracy?
        /// Whether the session has had its one prompt (L4).
        public var prompted: Bool
        /// Whether the control side holds its state (L8a).
        public var heldByControl: Bool
        /// `authorization.request`s waiting for the foreground or an open prompt.
        public var waitingRequests: Int
    }

    /// A timer the rules run for the app: what it does when it fires, and when.
    public struct RunningTimer: Sendable, Equatable {
        /// What firing does, e.g. `allowOnceExpiry`.
        public var name: String
        public var session: SessionID?
        /// The device-monotonic time it fires at.
        public var firesAt: Int64

        public init(name: String, session: SessionID?, firesAt: Int64) {
            self.name = name
            self.session = session
            self.firesAt = firesAt
        }
    }
}

extension AuthorizationEngine {
    /// The app's whole authorization state at `now` (`permissions.explain`).
    public func explanation(of app: String, at now: EngineTime) -> PermissionExplanation {
        let own = sessions.filter { $0.value.app == app }.sorted { $0.key < $1.key }
        let seen = own.first.map { effective($0.value) } ?? storedSnapshot(of: app)
        var timers: [PermissionExplanation.RunningTimer] = []
        var facets: [String: JSONValue] = [:]
        switch platform {
        case .android:
            let android = androidFacets(of: app)
            facets = android.json.objectValue ?? [:]
            facets["timers"] = nil  // said with the others, in device time
            timers = android.timers.map { .init(name: $0.name.rawValue, session: nil, firesAt: $0.deadline) }
        case .ios:
            let report = iosReport(app: app)
            facets = [
                "provisional": .bool(report.provisional), "alwaysAsked": .bool(report.alwaysAsked), "oneTime": .bool(report.oneTime),
                "temporaryFullAccuracyKeys": .array(report.temporaryFullAccuracyKeys.map { .string($0) }),
            ]
            timers = report.timers.map { .init(name: $0.name, session: $0.session, firesAt: $0.deadline) }
        }
        var explanation = PermissionExplanation(
            app: app, platform: platform, status: seen.status, accuracy: seen.accuracy, servicesEnabled: servicesEnabled,
            stored: permissions[app], sessions: own.map { Self.facets(of: $0.key, $0.value) }, facets: facets,
            timers: timers.sorted { ($0.firesAt, $0.name) < ($1.firesAt, $1.name) }, prompts: prompts.filter { $0.app == app })
        explanation.motion = .init(status: motionStatus(of: app), denials: platform.androidAPI == nil ? nil : motionDenials(of: app))
        return explanation
    }

    /// What an app without a live session would be told on opening one.
    private func storedSnapshot(of app: String) -> AuthorizationSnapshot {
        let stored = permissions[app].map { AuthorizationSnapshot(status: $0.status, accuracy: $0.accuracy) }
            ?? AuthorizationSnapshot(status: .notDetermined, accuracy: .full)
        return servicesEnabled ? stored : AuthorizationSnapshot(status: .denied, accuracy: stored.accuracy)
    }

    private static func facets(of id: SessionID, _ record: SessionRecord) -> PermissionExplanation.SessionFacets {
        PermissionExplanation.SessionFacets(
            session: id, state: record.state, backgroundSince: record.backgroundSince, allowOnce: record.allowOnce,
            prompted: record.prompted, heldByControl: record.heldByControl, waitingRequests: record.waiting.count)
    }
}
