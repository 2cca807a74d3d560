import SextantProtocol

/// The apps' sessions as the rules see them: opened and closed, moved between foreground
/// and background (L4–L8), and the allowOnce grants and temporary full accuracy that the
/// background takes away once past the grace G (L5, docs/platforms.md I8).
extension AuthorizationEngine {
    @discardableResult
    public mutating func openSession(_ session: SessionID, app: String, state: AppState, at now: EngineTime) -> [AuthorizationEffect] {
        sessions[session] = SessionRecord(app: app, state: state, backgroundSince: state == .background ? now.monotonic : nil)
        sessions[session]?.ios.launchedInBackground = state == .background  // I8: never in use yet
        guard platform.androidAPI != nil else { return [] }
        return startAndroidUnusedChecks(at: now) + androidAppChanged(app, at: now)
    }

    /// The session ended: its allowOnce grant lapses (L5), its prompts go away.
    public mutating func closeSession(_ session: SessionID, at now: EngineTime? = nil) -> [AuthorizationEffect] {
        guard let app = sessions[session]?.app else { return [] }
        var effects: [AuthorizationEffect] = []
        for prompt in prompts where prompt.session == session {
            effects.append(.promptClosed(prompt, .cancelled(.sessionEnded)))
        }
        prompts.removeAll { $0.session == session }
        sessions[session] = nil
        android.foregroundServices.remove(session)
        if platform.androidAPI != nil, let now { effects += androidAppChanged(app, at: now) }
        return effects
    }

    /// The app moved between foreground and background (L5, L6, L8, L4's waiting request).
    /// A state the control side set holds against the app's own changes (L8a): the app's
    /// call then changes nothing.
    public mutating func setAppState(
        _ session: SessionID, _ state: AppState, by changer: AppStateChanger = .app, at now: EngineTime
    ) -> [AuthorizationEffect] {
        guard sessions[session] != nil else { return [] }
        switch changer {
        case .control: sessions[session]?.heldByControl = true
        case .app: if sessions[session]?.heldByControl == true { return [] }
        }
        guard var record = sessions[session], record.state != state else { return [] }
        var effects: [AuthorizationEffect] = []
        record.state = state
        switch state {
        case .background:
            record.backgroundSince = now.monotonic
            sessions[session] = record
            // L6: the Home button cancels an open prompt or alert.
            for prompt in prompts where prompt.session == session {
                effects.append(.promptClosed(prompt, .cancelled(.appInBackground)))
                if prompt.kind != .servicesOff { effects += replyToWaiting(session) }
            }
            prompts.removeAll { $0.session == session }
            if record.allowOnce != nil || !record.ios.temporaryFullAccuracy.isEmpty {
                effects.append(.scheduleExpiryCheck(at: now.monotonic + allowOnceBackgroundLimit))
            }
        case .foreground:
            // An expired grant is taken away before the app can see it again.
            effects += expire(session, at: now)
            sessions[session]?.state = .foreground
            sessions[session]?.backgroundSince = nil
            sessions[session]?.ios.launchedInBackground = false
            record = sessions[session]!
            // L4: a request made in the background prompts now (or, with the switch
            // turned off meanwhile, hears that it is denied).
            if !servicesEnabled {
                effects += replyToWaiting(session)
            } else if let first = record.waiting.first {
                effects += startPrompt(session, level: first.level, at: now)
            }
        }
        if platform.androidAPI != nil { effects += androidAppChanged(record.app, at: now) }
        return effects
    }

    /// Reverts allowOnce grants whose session has been in the background longer than the limit (L5).
    public mutating func expireAllowOnce(at now: EngineTime) -> [AuthorizationEffect] {
        var effects: [AuthorizationEffect] = []
        for id in sessions.keys.sorted() { effects += expire(id, at: now) }
        return effects + expireAndroidTimers(at: now)
    }

    private mutating func expire(_ session: SessionID, at now: EngineTime) -> [AuthorizationEffect] {
        guard let record = sessions[session], record.allowOnce != nil || !record.ios.temporaryFullAccuracy.isEmpty, !isInUse(record, at: now)
        else { return [] }
        return changeSessions([session]) { engine in
            engine.sessions[session]?.allowOnce = nil
            engine.sessions[session]?.ios.temporaryFullAccuracy = []
        }
    }
}
