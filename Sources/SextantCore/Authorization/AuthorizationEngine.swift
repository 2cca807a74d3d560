import SextantProtocol

/// The location-authorization rules (RULES L1–L12) as a value: calls in, effects out.
///
/// No I/O and no clock of its own: the owner (the hub) hands in the time, performs the
/// returned effects in order (events, replies, persistence, timers) and is the only one
/// that mutates it. Everything an app can observe about authorization is decided here.
public struct AuthorizationEngine: Sendable {
    /// The phone whose rules decide (docs/platforms.md): read here, never branched on by services.
    public let platform: DevicePlatform
    /// The grace G of "in use" (docs/platforms.md I8): how long an app with an allowOnce grant
    /// or temporary full accuracy may stay in the background (L5).
    public var allowOnceBackgroundLimit: Int64

    public private(set) var servicesEnabled: Bool
    public internal(set) var permissions: [String: StoredPermission]
    public private(set) var policy: PromptPolicy
    /// Internal for the explanation (`PermissionExplanation.swift`) and the platforms' rules.
    var sessions: [SessionID: SessionRecord] = [:]
    /// Open prompts in creation order.
    public internal(set) var prompts: [Prompt] = []
    var promptCounter: UInt64 = 0
    /// An Android phone's permissions (docs/platforms.md AN1–AN19, Android/).
    public internal(set) var android: AndroidPermissions
    /// The iOS profile's facets (docs/platforms.md I1–I12): IOS/.
    public internal(set) var ios: IOSAuthorizationFacets
    /// Motion & Fitness / ACTIVITY_RECOGNITION (docs/motion.md A11–A16): Motion/.
    public internal(set) var motion = MotionPermissions()

    struct SessionRecord: Sendable {
        var app: String
        var state: AppState
        var backgroundSince: Int64?
        /// An allowOnce grant (L5): authorizedWhenInUse with this accuracy, for this session only.
        var allowOnce: LocationAccuracy?
        /// Whether this session has had its one authorization prompt (L4).
        var prompted = false
        /// Whether this session has had its one services-off alert (L7).
        var alerted = false
        /// Whether the control side set the state, which the app may then not change (L8a).
        var heldByControl = false
        /// `authorization.request`s waiting for the foreground or for an open prompt.
        var waiting: [(token: RequestToken, level: AuthorizationLevel)] = []
        /// What the app declared at hello, its temporary full-accuracy grants (IOS/).
        var ios = IOSSessionFacets()
    }

    /// I8: "a few seconds" (WWDC19 705; Apple publishes no number): 10 s.
    public static let defaultAllowOnceBackgroundLimit: Int64 = 10_000_000_000

    public init(
        platform: DevicePlatform = .ios, servicesEnabled: Bool = true, permissions: [String: StoredPermission] = [:], policy: PromptPolicy = .ask,
        allowOnceBackgroundLimit: Int64 = AuthorizationEngine.defaultAllowOnceBackgroundLimit, android: [String: AndroidAppPermissions] = [:],
        iosFacets: [String: IOSAppFacets] = [:]
    ) {
        self.ios = IOSAuthorizationFacets(apps: iosFacets)
        self.platform = platform
        self.android = AndroidPermissions(apps: android)
        self.servicesEnabled = servicesEnabled
        self.permissions = permissions
        self.policy = policy
        self.allowOnceBackgroundLimit = allowOnceBackgroundLimit
    }

    // MARK: - Reading (L3: never prompts)

    /// The authorization a session sees now: `denied` while the switch is off (L1).
    public func authorization(of session: SessionID) -> AuthorizationSnapshot {
        guard let record = sessions[session] else { return AuthorizationSnapshot(status: .notDetermined, accuracy: .full) }
        return effective(record)
    }

    func effective(_ record: SessionRecord) -> AuthorizationSnapshot {
        let own = ownDecision(record)
        guard servicesEnabled else { return AuthorizationSnapshot(status: .denied, accuracy: own.accuracy) }
        return own
    }

    /// The session's decision ignoring the switch: its allowOnce grant, else the app's stored one.
    func ownDecision(_ record: SessionRecord) -> AuthorizationSnapshot {
        if platform.androidAPI != nil { return android.snapshot(of: record.app) }
        if let grant = record.allowOnce { return withTemporaryFullAccuracy(AuthorizationSnapshot(status: .authorizedWhenInUse, accuracy: grant), record) }
        if let stored = permissions[record.app] {
            return withTemporaryFullAccuracy(AuthorizationSnapshot(status: stored.status, accuracy: stored.accuracy), record)
        }
        return AuthorizationSnapshot(status: .notDetermined, accuracy: .full)
    }

    /// Whether a location may leave the daemon for this session right now (L1, L8).
    public func mayReceiveLocations(_ session: SessionID) -> Bool { locationAccuracy(for: session) != nil }

    /// The accuracy this session is authorized for when a location may leave the daemon
    /// for it right now (L1, L8), else nil: `mayReceiveLocations` and
    /// `authorization(of:).accuracy` in one look, for the fan-out's every delivery.
    public func locationAccuracy(for session: SessionID) -> LocationAccuracy? {
        guard let record = sessions[session] else { return nil }
        let snapshot = effective(record)
        switch snapshot.status {
        case .authorizedAlways: return record.state == .foreground || record.ios.declaration.allowsBackgroundLocation ? snapshot.accuracy : nil
        case .authorizedWhenInUse:
            // I8, I12: a background session with the indicator; AN13: a location foreground
            // service started while visible keeps while-in-use access.
            let inBackground =
                (record.ios.indicatorSession && record.ios.declaration.allowsBackgroundLocation) || android.foregroundServices.contains(session)
            return record.state == .foreground || inBackground ? snapshot.accuracy : nil
        default: return nil
        }
    }

    public func appState(of session: SessionID) -> AppState? { sessions[session]?.state }

    public func app(of session: SessionID) -> String? { sessions[session]?.app }

    public var sessionIDs: [SessionID] { Array(sessions.keys) }

    /// Apps holding an allowOnce grant in some live session, with its accuracy.
    public var allowOnceGrants: [String: LocationAccuracy] {
        var grants: [String: LocationAccuracy] = [:]
        for record in sessions.values { if let grant = record.allowOnce { grants[record.app] = grant } }
        return grants
    }

    // MARK: - Requests from apps

    /// `authorization.request` (L4–L7). The reply comes as a `.reply` effect, now or later;
    /// while the switch is off the outcome is a refusal (`servicesDisabled`), with the
    /// services-off alert among its effects.
    public mutating func request(
        _ session: SessionID, level: AuthorizationLevel, permissions asked: Set<AndroidPermission>? = nil, token: RequestToken, at now: EngineTime
    ) -> AuthorizationOutcome {
        guard let record = sessions[session] else { return AuthorizationOutcome(refusal: .notAuthorized) }
        guard servicesEnabled else { return refuseServicesOff(session, level: level, at: now) }
        if let api = platform.androidAPI {
            return requestAndroid(session, asking: asked ?? AndroidRequestRules.permissions(for: level, api: api), api: api, token: token, at: now)
        }
        if let decided = requestAlwaysOnIOS(session, level: level, token: token, at: now) { return decided }
        let current = ownDecision(record)
        // L4: only from notDetermined, once per session.
        guard current.status == .notDetermined, !record.prompted || hasOpenPrompt(session, kind: .authorization) else {
            return AuthorizationOutcome(effects: [.reply(token, current)])
        }
        // In place: a copy of the record would copy the list at every request.
        sessions[session]!.waiting.append((token, level))
        if hasOpenPrompt(session, kind: .authorization) || record.state == .background {
            return AuthorizationOutcome()  // joins the open prompt, or waits for the foreground
        }
        return AuthorizationOutcome(effects: startPrompt(session, level: level, at: now))
    }

    /// How many `authorization.request`s of a session may wait for a decision at once; one
    /// more is refused (a client pipelining requests must not grow the daemon without bound).
    public static let maxWaitingRequests = 16

    /// Whether a session already has as many requests waiting as it may.
    public func isWaitingListFull(_ session: SessionID) -> Bool {
        (sessions[session]?.waiting.count ?? 0) >= Self.maxWaitingRequests
    }

    /// `location.start` / `location.once`: whether the session may stream (L7 before L1/L8).
    public mutating func checkLocationAccess(_ session: SessionID, at now: EngineTime) -> AuthorizationOutcome {
        guard servicesEnabled else { return refuseServicesOff(session, level: nil, at: now) }
        guard let record = sessions[session], ownDecision(record).status.isAuthorized else {
            return AuthorizationOutcome(refusal: .notAuthorized)
        }
        return AuthorizationOutcome()
    }

    func hasOpenPrompt(_ session: SessionID, kind: PromptKind) -> Bool {
        prompts.contains { $0.session == session && $0.kind == kind }
    }

    mutating func makePrompt(session: SessionID, app: String, kind: PromptKind, level: AuthorizationLevel?, at now: EngineTime) -> Prompt {
        promptCounter += 1
        return Prompt(id: "p\(promptCounter)", session: session, app: app, kind: kind, level: level, created: now.wall)
    }

    mutating func startPrompt(_ session: SessionID, level: AuthorizationLevel, at now: EngineTime) -> [AuthorizationEffect] {
        guard var record = sessions[session] else { return [] }
        record.prompted = true
        sessions[session] = record
        let prompt = makePrompt(session: session, app: record.app, kind: .authorization, level: level, at: now)
        prompts.append(prompt)
        var effects: [AuthorizationEffect] = [.promptOpened(prompt)]
        if var choice = policy.choice {
            // L12: the policy answers at once. An "always" policy gives a whenInUse request
            // what such a request can get.
            if choice == .allowAlways, level != .always { choice = .allowWhileUsing }
            effects += (try? answer(prompt.id, choice: choice, precise: policy.precise, at: now).effects) ?? []
        }
        return effects
    }

    // MARK: - Answers (control side)

    /// Answers an open prompt (L5) or alert (L7: never changes the switch).
    public mutating func answer(_ id: String, choice: PromptChoice, precise: Bool, at now: EngineTime) throws(AnswerError) -> AnswerResult {
        guard let index = prompts.firstIndex(where: { $0.id == id }) else { throw .noSuchPrompt(id) }
        let prompt = prompts[index]
        switch prompt.kind {
        case .androidLocation:
            return try answerAndroid(prompt, choice: choice, precise: precise, at: now)
        case .servicesOff:
            guard choice.isAlertChoice else {
                throw .invalidChoice("a services-off alert takes settings or cancel, not \(choice.rawValue)")
            }
            prompts.remove(at: index)
            return AnswerResult(prompt: prompt, choice: choice, authorization: nil, effects: [.promptClosed(prompt, .answered(choice, precise: precise))])
        case .alwaysUpgrade, .temporaryFullAccuracy:
            return try answerIOSPrompt(at: index, choice: choice, at: now)
        case .motionFitness, .androidActivityRecognition:
            return try answerMotion(at: index, choice: choice, at: now)
        case .authorization:
            guard choice.isAuthorizationChoice else {
                throw .invalidChoice("an authorization prompt takes allowOnce, allowWhileUsing, dontAllow or allowAlways, not \(choice.rawValue)")
            }
            guard choice != .allowAlways || prompt.level == .always else {
                throw .invalidChoice("allowAlways answers only a request for \"always\"")
            }
        }
        prompts.remove(at: index)
        var effects: [AuthorizationEffect] = [.promptClosed(prompt, .answered(choice, precise: precise))]
        let accuracy: LocationAccuracy = precise ? .full : .reduced
        let session = prompt.session
        switch choice {
        case .allowOnce:
            effects += changeSessions([session]) { engine in engine.sessions[session]?.allowOnce = accuracy }
        case .allowWhileUsing, .allowAlways, .dontAllow:
            let status: AuthorizationStatus =
                choice == .allowWhileUsing ? whileUsingStatus(for: prompt) : choice == .allowAlways ? .authorizedAlways : .denied
            effects += store(app: prompt.app, StoredPermission(status: status, accuracy: accuracy, updated: now.wall))
            effects += recordAlwaysAnswer(prompt, choice: choice)
        default:  // an alert's choices; the other prompts' were answered above
            break
        }
        effects += replyToWaiting(session)
        return AnswerResult(prompt: prompt, choice: choice, authorization: authorization(of: session), effects: effects)
    }

    mutating func replyToWaiting(_ session: SessionID) -> [AuthorizationEffect] {
        guard let record = sessions[session] else { return [] }
        let snapshot = effective(record)
        let effects = record.waiting.map { AuthorizationEffect.reply($0.token, snapshot) }
        sessions[session]?.waiting = []
        return effects
    }

    // MARK: - Control

    /// The Location Services switch (L1): every session's effective status follows at once.
    public mutating func setServicesEnabled(_ enabled: Bool) -> [AuthorizationEffect] {
        guard enabled != servicesEnabled else { return [] }
        var effects = changeSessions(Array(sessions.keys)) { engine in engine.servicesEnabled = enabled }
        effects.insert(.persistServicesEnabled(enabled), at: 0)
        effects.append(.servicesEnabledChanged(enabled))
        return effects
    }

    /// Sets an app's stored decision by hand (`permissions.set`), replacing any allowOnce grant.
    public mutating func setPermission(app: String, status: AuthorizationStatus, accuracy: LocationAccuracy?, at now: EngineTime) -> (StoredPermission, [AuthorizationEffect]) {
        if platform.androidAPI != nil, let (entry, effects) = setAndroidStatus(app: app, status: status, accuracy: accuracy, at: now) {
            return (entry ?? StoredPermission(status: .notDetermined, accuracy: .full, updated: now.wall), effects)
        }
        let entry = StoredPermission(status: status, accuracy: accuracy ?? permissions[app]?.accuracy ?? .full, updated: now.wall)
        let effects = store(app: app, entry)
        return (entry, effects)
    }

    /// Forgets the stored decisions (one app or all) and allowOnce grants: the apps are
    /// `notDetermined` again and may prompt again, even in a session that already had its prompt.
    public mutating func resetPermissions(app: String?) -> (count: Int, effects: [AuthorizationEffect]) {
        if platform.androidAPI != nil { return resetAndroid(app: app) }
        let apps: Set<String> = app.map { [$0] } ?? Set(permissions.keys).union(allowOnceGrants.keys)
        let count = apps.filter { permissions[$0] != nil || allowOnceGrants[$0] != nil }.count
        let affected = sessions.filter { apps.contains($0.value.app) }.map(\.key)
        var effects = changeSessions(affected) { engine in
            for id in affected {
                engine.sessions[id]?.allowOnce = nil
                engine.sessions[id]?.prompted = false
            }
            for name in apps { engine.permissions[name] = nil }
        }
        for name in apps.sorted() { effects.insert(.persistPermission(app: name, nil), at: 0) }
        effects += forgetIOSFacets(of: apps)
        return (count, effects)
    }

    public mutating func setPolicy(_ policy: PromptPolicy) -> [AuthorizationEffect] {
        self.policy = policy
        return [.persistPolicy(policy)]
    }

    // MARK: - Helpers

    mutating func store(app: String, _ entry: StoredPermission) -> [AuthorizationEffect] {
        let affected = sessions.filter { $0.value.app == app }.map(\.key)
        var effects = changeSessions(affected) { engine in
            engine.permissions[app] = entry
            for id in affected { engine.sessions[id]?.allowOnce = nil }
        }
        effects.insert(.persistPermission(app: app, entry), at: 0)
        return effects
    }

    /// Applies `change` and reports every session whose effective authorization it changed (L9).
    mutating func changeSessions(_ ids: [SessionID], _ change: (inout AuthorizationEngine) -> Void) -> [AuthorizationEffect] {
        let before = Dictionary(uniqueKeysWithValues: ids.map { ($0, authorization(of: $0)) })
        change(&self)
        return ids.sorted().compactMap { id in
            let after = authorization(of: id)
            return after != before[id] ? .authorizationChanged(id, after) : nil
        }
    }
}
