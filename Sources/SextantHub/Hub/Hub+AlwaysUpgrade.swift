import SextantCore
import SextantProtocol

/// Events that raised (or met) the iOS upgrade prompt, held until it closes
/// (docs/platforms.md I4): delivered if the person changes to Always while they are fresh,
/// dropped otherwise. Bounded per session; a session's go with it.
final class HeldUpgradeEvents {
    struct Held {
        var event: any AppEventKind
        var heldAt: Int64
    }

    private(set) var bySession: [SessionID: [Held]] = [:]

    func hold(_ event: any AppEventKind, for session: SessionID, at now: Int64) {
        var held = bySession[session, default: []]
        if held.count >= IOSAuthorizationFacets.maxHeldEvents { held.removeFirst() }
        held.append(Held(event: event, heldAt: now))
        bySession[session] = held
    }

    func take(_ session: SessionID) -> [Held] { bySession.removeValue(forKey: session) ?? [] }

    var count: Int { bySession.values.reduce(0) { $0 + $1.count } }
}

extension Hub {
    /// I3: whether a region, visit or significant-change event for a session in the
    /// background must wait for the upgrade prompt; if so it is held, and the prompt opens
    /// the first time.
    func heldForAlwaysUpgrade(_ event: any AppEventKind, for session: AppSession) -> Bool {
        let time = now
        let (held, effects) = applyDecision { $0.alwaysPowerUsed(by: session.id, at: time) }
        guard held else { return false }
        heldForUpgrade.hold(event, for: session.id, at: time.monotonic)
        logger.info("event held for the upgrade prompt", metadata: ["app": "\(session.app)", "event": "\(event.method)"])
        perform(effects)
        return true
    }

    /// I4: the upgrade prompt closed: Change to Always delivers the held events still fresh
    /// (`IOSAuthorizationFacets.upgradeHoldLimit`); Keep, a cancel or staleness drops them.
    func upgradePromptClosed(_ prompt: Prompt, _ outcome: PromptOutcome) {
        guard prompt.kind == .alwaysUpgrade else { return }
        let time = clock.monotonicNanoseconds()
        // Every session of the app held its events for this one prompt.
        for session in sessions.ordered where session.app == prompt.app {
            let held = heldForUpgrade.take(session.id)
            guard case .answered(.changeToAlways, _) = outcome else { continue }
            for entry in held where time - entry.heldAt <= IOSAuthorizationFacets.upgradeHoldLimit {
                publish(to: session, entry.event)
            }
        }
        _ = heldForUpgrade.take(prompt.session)  // a closed session's
    }
}
