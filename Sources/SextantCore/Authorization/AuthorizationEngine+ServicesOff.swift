import SextantProtocol

extension AuthorizationEngine {
    /// The refusal of a call made while the switch is off, raising the services-off alert
    /// once per session (L7).
    mutating func refuseServicesOff(_ session: SessionID, level: AuthorizationLevel?, at now: EngineTime) -> AuthorizationOutcome {
        var outcome = AuthorizationOutcome(refusal: .servicesDisabled)
        guard var record = sessions[session], !record.alerted, record.state == .foreground else { return outcome }
        record.alerted = true
        sessions[session] = record
        let prompt = makePrompt(session: session, app: record.app, kind: .servicesOff, level: level, at: now)
        prompts.append(prompt)
        outcome.effects.append(.promptOpened(prompt))
        if policy.choice != nil {
            // A policy other than `ask` answers alerts with `cancel` (PROTOCOL prompts.policy).
            prompts.removeAll { $0.id == prompt.id }
            outcome.effects.append(.promptClosed(prompt, .answered(.cancel, precise: true)))
        }
        return outcome
    }
}
