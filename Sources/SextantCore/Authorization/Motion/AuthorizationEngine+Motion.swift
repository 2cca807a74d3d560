import SextantProtocol

/// Each app's Motion & Fitness decision (docs/motion.md A11–A16): iOS's Motion & Fitness
/// switch (`CMAuthorizationStatus`), Android's `ACTIVITY_RECOGNITION` runtime permission.
/// Held by the authorization engine beside the location decisions, so that a prompt's answer
/// is committed to the store before it takes effect, as theirs.
public struct MotionPermissions: Sendable, Equatable {
    /// App id → its stored status; an app with none is `notDetermined`.
    public internal(set) var statuses: [String: MotionAuthorizationStatus] = [:]
    /// Android: the dialog's denials in a row (A15); two mean "don't ask again". Stored as
    /// Android stores the permission's USER_SET and USER_FIXED flags (AN42).
    var denials: [String: Int] = [:]

    /// `denials` as stored; a `denied` app without a count stored (a store from before AN42)
    /// counts one.
    public init(statuses: [String: MotionAuthorizationStatus] = [:], denials: [String: Int] = [:]) {
        self.statuses = statuses
        for (app, status) in statuses where status == .denied { self.denials[app] = 1 }
        for (app, count) in denials where count > 0 { self.denials[app] = count }
    }

    /// A15: Android asks no more after two denials in a row (as AN5).
    public static let deniesBeforeFixed = 2
}

extension AuthorizationEngine {
    /// What a motion request came to (`requestMotion`).
    public enum MotionRequestOutcome: Sendable, Equatable {
        /// Answered now, with the status and, when not authorized, why no prompt opened.
        case decided(MotionAuthorizationStatus, why: String?)
        /// A prompt is open (this id): the request waits for its answer.
        case prompting(String)
    }

    public func motionStatus(of app: String) -> MotionAuthorizationStatus { motion.statuses[app] ?? .notDetermined }

    /// Android: the ACTIVITY_RECOGNITION dialog's denials in a row (A15).
    public func motionDenials(of app: String) -> Int { motion.denials[app] ?? 0 }

    /// An app's first motion call (iOS: a start or a query; A13) or its explicit request
    /// (`activity.requestAuthorization`; Android's `requestPermissions`, A15): the status
    /// when no prompt opens, else the prompt it opened or joined.
    public mutating func requestMotion(
        _ session: SessionID, declaration: MotionDeclaration, explicit: Bool, at now: EngineTime
    ) -> (MotionRequestOutcome, [AuthorizationEffect]) {
        guard let record = sessions[session] else { return (.decided(.notDetermined, why: "no session"), []) }
        let status = motionStatus(of: record.app)
        guard status == .notDetermined || (platform.androidAPI != nil && status == .denied) else { return (.decided(status, why: nil), []) }
        let kind: PromptKind = platform.androidAPI == nil ? .motionFitness : .androidActivityRecognition
        if let why = motionPromptRefusal(record, status: status, declaration: declaration, explicit: explicit) {
            return (.decided(status, why: why), [])
        }
        if let open = prompts.first(where: { $0.session == session && $0.kind == kind }) { return (.prompting(open.id), []) }
        let prompt = makePrompt(session: session, app: record.app, kind: kind, level: nil, at: now)
        prompts.append(prompt)
        var effects: [AuthorizationEffect] = [.promptOpened(prompt)]
        if let policyChoice = policy.choice {
            // L12: the policy answers at once, Don't Allow as itself and any grant as Allow.
            let choice: PromptChoice = policyChoice == .dontAllow ? .dontAllow : .allow
            effects += (try? answer(prompt.id, choice: choice, precise: true, at: now).effects) ?? []
            return (.decided(motionStatus(of: record.app), why: choice == .dontAllow ? "the prompt policy answered dontAllow" : nil), effects)
        }
        return (.prompting(prompt.id), effects)
    }

    /// Why no prompt may open for this request, or nil (A13–A15).
    private func motionPromptRefusal(_ record: SessionRecord, status: MotionAuthorizationStatus, declaration: MotionDeclaration, explicit: Bool) -> String? {
        if platform.androidAPI != nil {
            guard explicit else { return "ACTIVITY_RECOGNITION is not granted: activity.requestAuthorization asks for it (A15)" }
            if let declared = declaration.androidPermissions, !declared.contains("ACTIVITY_RECOGNITION") {
                return "the manifest (hello's androidPermissions) does not declare ACTIVITY_RECOGNITION: Android denies without a dialog (A15)"
            }
            if (motion.denials[record.app] ?? 0) >= MotionPermissions.deniesBeforeFixed {
                return "denied twice: Android shows the dialog no more until the control side resets it (A15)"
            }
        } else if declaration.motionUsageDescription == nil {
            return "NSMotionUsageDescription is not declared (hello's motionUsageDescription): iOS ends an app that asks without it (A14)"
        }
        guard record.state == .foreground else { return "the prompt shows only to an app in the foreground (A13, A15)" }
        return nil
    }

    /// Answers a Motion & Fitness prompt or an ACTIVITY_RECOGNITION dialog: `allow` or `dontAllow`.
    mutating func answerMotion(at index: Int, choice: PromptChoice, at now: EngineTime) throws(AnswerError) -> AnswerResult {
        let prompt = prompts[index]
        guard choice == .allow || choice == .dontAllow else {
            throw .invalidChoice("a \(prompt.kind.rawValue) prompt takes allow or dontAllow, not \(choice.rawValue)")
        }
        prompts.remove(at: index)
        let status: MotionAuthorizationStatus = choice == .allow ? .authorized : .denied
        var effects: [AuthorizationEffect] = [.promptClosed(prompt, .answered(choice, precise: true))]
        effects += storeMotion(app: prompt.app, status)
        if choice == .dontAllow { effects += setMotionDenials(app: prompt.app, motionDenials(of: prompt.app) + 1) }
        return AnswerResult(prompt: prompt, choice: choice, authorization: nil, effects: effects)
    }

    /// `motionPermissions.set`: the status as Settings would set it; `notDetermined` forgets
    /// it (and Android's denials, as `pm clear-permission-flags`).
    public mutating func setMotionPermission(app: String, _ status: MotionAuthorizationStatus) -> [AuthorizationEffect] {
        let denials = status == .denied ? max(1, motionDenials(of: app)) : 0
        return storeMotion(app: app, status) + setMotionDenials(app: app, denials)
    }

    /// The denials in a row, stored with the status in one batch (AN42); nothing when unchanged.
    private mutating func setMotionDenials(app: String, _ count: Int) -> [AuthorizationEffect] {
        guard count != motionDenials(of: app) else { return [] }
        motion.denials[app] = count > 0 ? count : nil
        return [.persistMotionDenials(app: app, count > 0 ? count : nil)]
    }

    private mutating func storeMotion(app: String, _ status: MotionAuthorizationStatus) -> [AuthorizationEffect] {
        let stored: MotionAuthorizationStatus? = status == .notDetermined ? nil : status
        motion.statuses[app] = stored
        return [.persistMotionPermission(app: app, stored), .motionPermissionChanged(app: app)]
    }

    /// The statuses the store held at start (A11), and Android's denials (AN42).
    public mutating func loadMotionPermissions(_ stored: [String: MotionAuthorizationStatus], denials: [String: Int] = [:]) {
        motion = MotionPermissions(statuses: stored, denials: denials)
    }
}
