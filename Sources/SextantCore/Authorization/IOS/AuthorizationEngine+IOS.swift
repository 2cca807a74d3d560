import SextantProtocol

/// The iOS profile's authorization flows (docs/platforms.md I1–I11): provisional Always and
/// its upgrade prompt, the one Always request of an install, temporary full accuracy. The
/// engine calls these from its L-rule paths; on another platform they change nothing.
extension AuthorizationEngine {
    var playsIOS: Bool { platform == .ios }

    /// The app's stored iOS facets (none when absent).
    public func iosFacets(of app: String) -> IOSAppFacets { ios.apps[app] ?? IOSAppFacets() }

    /// What the app declared at `hello` (I9, I11, I12).
    public mutating func declare(_ session: SessionID, _ declaration: IOSAppDeclaration) {
        sessions[session]?.ios.declaration = declaration
    }

    public func declaration(of session: SessionID) -> IOSAppDeclaration? { sessions[session]?.ios.declaration }

    // MARK: - I2, I6, I7: the Always request

    /// I2: While Using answered to an Always request gives `authorizedAlways`, provisionally.
    func whileUsingStatus(for prompt: Prompt) -> AuthorizationStatus {
        playsIOS && prompt.level == .always ? .authorizedAlways : .authorizedWhenInUse
    }

    /// I2, I6: after an authorization prompt for Always is answered, the app has had its
    /// Always request, and While Using made its Always provisional.
    mutating func recordAlwaysAnswer(_ prompt: Prompt, choice: PromptChoice) -> [AuthorizationEffect] {
        guard playsIOS, prompt.level == .always, choice == .allowWhileUsing || choice == .allowAlways else { return [] }
        return setIOSFacets(prompt.app) { facets in
            facets.alwaysAsked = true
            facets.provisional = choice == .allowWhileUsing
        }
    }

    /// I5–I7: an Always request from a decided When-In-Use. After Allow Once it is ignored;
    /// the install's second one changes nothing; the first prompts at once (iOS 13.4's
    /// path). Nil: the request goes on by L4.
    mutating func requestAlwaysOnIOS(_ session: SessionID, level: AuthorizationLevel, token: RequestToken, at now: EngineTime) -> AuthorizationOutcome? {
        guard playsIOS, level == .always, let record = sessions[session] else { return nil }
        let current = ownDecision(record)
        if record.allowOnce != nil { return AuthorizationOutcome(effects: [.reply(token, effective(record))]) }  // I7
        guard current.status == .authorizedWhenInUse else { return nil }
        let answeredAtOnce = AuthorizationOutcome(effects: [.reply(token, effective(record))])
        if hasOpenPrompt(session, kind: .alwaysUpgrade) {
            sessions[session]!.waiting.append((token, level))
            return AuthorizationOutcome()
        }
        guard !iosFacets(of: record.app).alwaysAsked, record.state == .foreground else { return answeredAtOnce }  // I6
        sessions[session]!.waiting.append((token, level))
        var effects = setIOSFacets(record.app) { $0.alwaysAsked = true }
        effects += openUpgradePrompt(session, at: now)
        return AuthorizationOutcome(effects: effects)
    }

    // MARK: - I3, I4: the upgrade prompt

    /// Whether an event that needs Always in the background (a region, visit or
    /// significant-change event) for this session must wait for the upgrade prompt (I3):
    /// the app holds Always provisionally and is not in use. The prompt opens the first time
    /// (later events join it); the caller holds the event until the prompt closes.
    public mutating func alwaysPowerUsed(by session: SessionID, at now: EngineTime) -> (held: Bool, effects: [AuthorizationEffect]) {
        guard playsIOS, let record = sessions[session], servicesEnabled, iosFacets(of: record.app).provisional,
            permissions[record.app]?.status == .authorizedAlways, !isInUse(record, at: now)
        else { return (false, []) }
        if prompts.contains(where: { $0.app == record.app && $0.kind == .alwaysUpgrade }) { return (true, []) }
        return (true, openUpgradePrompt(session, at: now))
    }

    private mutating func openUpgradePrompt(_ session: SessionID, at now: EngineTime) -> [AuthorizationEffect] {
        guard let record = sessions[session] else { return [] }
        let prompt = makePrompt(session: session, app: record.app, kind: .alwaysUpgrade, level: .always, at: now)
        prompts.append(prompt)
        var effects: [AuthorizationEffect] = [.promptOpened(prompt)]
        if let choice = policy.choice, let answer = Self.policyChoice(choice, for: .alwaysUpgrade) {
            effects += (try? self.answer(prompt.id, choice: answer, precise: policy.precise, at: now).effects) ?? []
        }
        return effects
    }

    /// L12 for the iOS prompts: an `allowAlways` policy changes to Always, any other keeps
    /// While Using; a `dontAllow` policy denies temporary full accuracy, any other allows it.
    /// Nil for the prompts of L5 and L7.
    public static func policyChoice(_ policy: PromptChoice, for kind: PromptKind) -> PromptChoice? {
        switch kind {
        case .alwaysUpgrade: return policy == .allowAlways ? .changeToAlways : .keepWhileUsing
        case .temporaryFullAccuracy: return policy == .dontAllow ? .deny : .allow
        case .motionFitness, .androidActivityRecognition: return policy == .dontAllow ? .dontAllow : .allow  // A13, A15
        default: return nil
        }
    }

    /// Answers an upgrade prompt (I4) or a temporary full-accuracy prompt (I9).
    mutating func answerIOSPrompt(at index: Int, choice: PromptChoice, at now: EngineTime) throws(AnswerError) -> AnswerResult {
        let prompt = prompts[index]
        let allowed: [PromptChoice] = prompt.kind == .alwaysUpgrade ? [.keepWhileUsing, .changeToAlways] : [.allow, .deny]
        guard allowed.contains(choice) else {
            throw .invalidChoice("a \(prompt.kind.rawValue) prompt takes \(allowed.map(\.rawValue).joined(separator: " or ")), not \(choice.rawValue)")
        }
        prompts.remove(at: index)
        var effects: [AuthorizationEffect] = [.promptClosed(prompt, .answered(choice, precise: true))]
        switch choice {
        case .keepWhileUsing, .changeToAlways:
            let accuracy = permissions[prompt.app]?.accuracy ?? .full
            let status: AuthorizationStatus = choice == .changeToAlways ? .authorizedAlways : .authorizedWhenInUse
            // Always from provisional Always changes nothing the app sees: no event (I4).
            effects += store(app: prompt.app, StoredPermission(status: status, accuracy: accuracy, updated: now.wall))
            effects += setIOSFacets(prompt.app) { $0.provisional = false }
        case .allow:
            if let key = prompt.purposeKey {
                let session = prompt.session
                effects += changeSessions([session]) { engine in _ = engine.sessions[session]?.ios.temporaryFullAccuracy.insert(key) }
            }
        default:
            break
        }
        effects += replyToWaiting(prompt.session)
        return AnswerResult(prompt: prompt, choice: choice, authorization: authorization(of: prompt.session), effects: effects)
    }

    // MARK: - Stored facets

    /// Changes an app's stored facets, with the effect that persists them.
    mutating func setIOSFacets(_ app: String, _ change: (inout IOSAppFacets) -> Void) -> [AuthorizationEffect] {
        var facets = iosFacets(of: app)
        change(&facets)
        guard facets != iosFacets(of: app) else { return [] }
        ios.apps[app] = facets.isEmpty ? nil : facets
        return [.persistIOSFacets(app: app, facets.isEmpty ? nil : facets)]
    }

    /// `permissions.set` (I2): a status set by hand is provisional only when asked.
    public mutating func setProvisional(app: String, _ provisional: Bool) -> [AuthorizationEffect] {
        guard playsIOS else { return [] }
        return setIOSFacets(app) { facets in
            facets.provisional = provisional
            if provisional { facets.alwaysAsked = true }
        }
    }

    /// `permissions.reset`: the apps are as newly installed, their Always request unasked.
    mutating func forgetIOSFacets(of apps: Set<String>) -> [AuthorizationEffect] {
        apps.sorted().flatMap { app in ios.apps[app] == nil ? [] : setIOSFacets(app) { $0 = IOSAppFacets() } }
    }
}
