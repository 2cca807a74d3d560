import SextantProtocol

/// "In use" (docs/platforms.md I8) and temporary full accuracy (I9, I10), which lasts while
/// the app is in use.
extension AuthorizationEngine {
    /// I8: in use = in the foreground, or for the grace G after it (`allowOnceBackgroundLimit`,
    /// `--allow-once-timeout`), or while a background location session the app started in
    /// the foreground runs with the indicator.
    func isInUse(_ record: SessionRecord, at now: EngineTime) -> Bool {
        if record.state == .foreground || record.ios.indicatorSession { return true }
        guard !record.ios.launchedInBackground else { return false }
        guard let since = record.backgroundSince else { return true }
        return now.monotonic - since <= allowOnceBackgroundLimit
    }

    /// I9: a purpose key granted makes the session's accuracy full while it is in use.
    func withTemporaryFullAccuracy(_ snapshot: AuthorizationSnapshot, _ record: SessionRecord) -> AuthorizationSnapshot {
        guard !record.ios.temporaryFullAccuracy.isEmpty, snapshot.status.isAuthorized else { return snapshot }
        return AuthorizationSnapshot(status: snapshot.status, accuracy: .full)
    }

    /// `authorization.requestTemporaryFullAccuracy` (I9, I10): a prompt for the purpose key,
    /// answered by the `.reply` effect of its token, or refused with `promptDeclined`.
    public mutating func requestTemporaryFullAccuracy(
        _ session: SessionID, purposeKey: String, token: RequestToken, at now: EngineTime
    ) -> Result<[AuthorizationEffect], IOSPromptDeclined> {
        guard let record = sessions[session] else { return .failure(IOSPromptDeclined("no session")) }
        guard record.ios.declaration.temporaryUsageDescriptions[purposeKey] != nil else {
            return .failure(IOSPromptDeclined("the purpose key \(purposeKey) is not in the app's temporaryUsageDescriptions (NSLocationTemporaryUsageDescriptionDictionary)"))
        }
        let current = effective(record)
        guard current.status.isAuthorized else { return .failure(IOSPromptDeclined("the app is not authorized (\(current.status.rawValue))")) }
        guard current.accuracy == .reduced else { return .failure(IOSPromptDeclined("the app already has full accuracy")) }
        guard record.state == .foreground else { return .failure(IOSPromptDeclined("the app is in the background")) }
        guard !prompts.contains(where: { $0.session == session }) else {
            return .failure(IOSPromptDeclined("another prompt of this session is open"))
        }
        sessions[session]!.waiting.append((token, .whenInUse))
        var prompt = makePrompt(session: session, app: record.app, kind: .temporaryFullAccuracy, level: nil, at: now)
        prompt.purposeKey = purposeKey
        prompts.append(prompt)
        var effects: [AuthorizationEffect] = [.promptOpened(prompt)]
        if let choice = policy.choice, let answer = Self.policyChoice(choice, for: .temporaryFullAccuracy) {
            effects += (try? self.answer(prompt.id, choice: answer, precise: true, at: now).effects) ?? []
        }
        return .success(effects)
    }

    /// The text the app declared for a prompt's purpose key, for the prompt's readers.
    public func purpose(of prompt: Prompt) -> String? {
        guard let key = prompt.purposeKey else { return nil }
        return sessions[prompt.session]?.ios.declaration.temporaryUsageDescriptions[key]
    }

    /// Whether an authorization prompt of this session is answered approximate unless the
    /// answer says `precise` (I11: `NSLocationDefaultAccuracyReduced`).
    public func defaultsToApproximate(_ prompt: Prompt) -> Bool {
        playsIOS && prompt.kind == .authorization && sessions[prompt.session]?.ios.declaration.defaultAccuracyReduced == true
    }

    /// I8: a background session with the indicator started (in the foreground only) or
    /// stopped; stopping it in the background starts the grace, checked when it is up.
    public mutating func setIndicatorSession(_ session: SessionID, running: Bool, at now: EngineTime) -> [AuthorizationEffect] {
        guard let record = sessions[session], record.ios.indicatorSession != running else { return [] }
        if running, record.state != .foreground { return [] }
        sessions[session]?.ios.indicatorSession = running
        guard !running, record.state == .background else { return [] }
        sessions[session]?.backgroundSince = now.monotonic
        return [.scheduleExpiryCheck(at: now.monotonic + allowOnceBackgroundLimit)]
    }
}
