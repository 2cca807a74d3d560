import SextantProtocol

/// `permissions.set`'s iOS states that live in a session, not in the store (issue 39 point 4:
/// a test starts mid-flow): an Allow Once grant (L5, I8) and a temporary full-accuracy grant
/// (I9). Each is given to every live session of the app, as its prompt would have, and
/// lapses by the same rules: when the app is no longer in use (I8) or its session ends.
extension AuthorizationEngine {
    /// Why the grants cannot be set for `app` now, nil when they can: both live in a session
    /// (L5, I9), and a temporary grant is for a purpose key the app declared at hello (I10).
    public func refusalOfSessionGrants(app: String, once: Bool, purposeKey: String?) -> String? {
        guard playsIOS else { return "an Allow Once or temporary full-accuracy grant is iOS's: this phone is Android (use --grant)" }
        let own = sessions.values.filter { $0.app == app }
        guard !own.isEmpty else {
            return "\(app) has no live session: an Allow Once or temporary full-accuracy grant lives in a session (L5, I9)"
        }
        if let purposeKey, own.contains(where: { $0.ios.declaration.temporaryUsageDescriptions[purposeKey] == nil }) {
            return "the purpose key \(purposeKey) is not in \(app)'s temporaryUsageDescriptions (NSLocationTemporaryUsageDescriptionDictionary) at hello (I10)"
        }
        return nil
    }

    /// An Allow Once grant with `accuracy` in every live session of `app`, as if each had
    /// answered its prompt Allow Once (L5): the stored decision is forgotten (the app is
    /// notDetermined once the grant lapses) and each session has had its one prompt. A
    /// session in the background gets the grace G from now (I8).
    public mutating func setAllowOnce(app: String, accuracy: LocationAccuracy, at now: EngineTime) -> [AuthorizationEffect] {
        let affected = sessions.filter { $0.value.app == app }.map(\.key)
        var effects = changeSessions(affected) { engine in
            engine.permissions[app] = nil
            for id in affected {
                engine.sessions[id]?.allowOnce = accuracy
                engine.sessions[id]?.prompted = true
            }
        }
        effects.insert(.persistPermission(app: app, nil), at: 0)
        effects += setIOSFacets(app) { $0.provisional = false }
        return effects + graceFromNow(affected, at: now)
    }

    /// Full accuracy for `purposeKey` in every live session of `app`, as if each had
    /// answered its prompt Allow (I9); it lapses when the app is no longer in use.
    public mutating func grantTemporaryFullAccuracy(app: String, purposeKey: String, at now: EngineTime) -> [AuthorizationEffect] {
        let affected = sessions.filter { $0.value.app == app }.map(\.key)
        let effects = changeSessions(affected) { engine in
            for id in affected { engine.sessions[id]?.ios.temporaryFullAccuracy.insert(purposeKey) }
        }
        return effects + graceFromNow(affected, at: now)
    }

    /// A session in the background when a grant is set by hand starts its grace now, and its
    /// lapse is checked when the grace is up (I8).
    private mutating func graceFromNow(_ ids: [SessionID], at now: EngineTime) -> [AuthorizationEffect] {
        let background = ids.filter { sessions[$0]?.state == .background }
        guard !background.isEmpty else { return [] }
        for id in background { sessions[id]?.backgroundSince = now.monotonic }
        return [.scheduleExpiryCheck(at: now.monotonic + allowOnceBackgroundLimit)]
    }

    /// The hidden facets of one session (`apps.list`): its Allow Once grant and its
    /// temporary full-accuracy keys, sorted.
    public func sessionFacets(of session: SessionID) -> (allowOnce: Bool, temporaryFullAccuracy: [String]) {
        guard let record = sessions[session] else { return (false, []) }
        return (record.allowOnce != nil, record.ios.temporaryFullAccuracy.sorted())
    }
}
