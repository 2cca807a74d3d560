import SextantProtocol

/// Android's dialog (docs/platforms.md AN1–AN9): the request, the dialog's buttons by API
/// level, and what each answer grants. The engine comes here when its platform is Android.
extension AuthorizationEngine {
    /// `authorization.request` on an Android phone (AN4–AN7). The reply always carries the
    /// grants; a dialog is shown only when it could grant something.
    mutating func requestAndroid(
        _ session: SessionID, asking: Set<AndroidPermission>, api: Int, token: RequestToken, at now: EngineTime
    ) -> AuthorizationOutcome {
        guard let record = sessions[session] else { return AuthorizationOutcome(refusal: .notAuthorized) }
        let entry = android.apps[record.app] ?? AndroidAppPermissions(updated: now.wall)
        let held = android.grants(of: record.app)
        let missing = asking.contains { !held.holds($0) }
        let atOnce = AuthorizationOutcome(effects: [.reply(token, ownDecision(record))])
        // AN7: from API 30 background is a request of its own that shows the app no dialog
        // (Settings grants it); AN5: don't ask again; AN6: a dialog needs a visible app.
        if api >= 30, asking.contains(.background) { return atOnce }
        guard missing, !entry.userFixed, record.state == .foreground else { return atOnce }
        sessions[session]!.waiting.append((token, asking.contains(.background) ? .always : .whenInUse))
        if let open = prompts.firstIndex(where: { $0.session == session && $0.kind == .androidLocation }) {
            prompts[open].android?.asked.formUnion(asking)
            return AuthorizationOutcome()  // joins the dialog on screen
        }
        return AuthorizationOutcome(effects: startAndroidPrompt(session, app: record.app, asking: asking, api: api, at: now))
    }

    private mutating func startAndroidPrompt(
        _ session: SessionID, app: String, asking: Set<AndroidPermission>, api: Int, at time: EngineTime
    ) -> [AuthorizationEffect] {
        sessions[session]?.prompted = true
        var prompt = makePrompt(session: session, app: app, kind: .androidLocation, level: asking.contains(.background) ? .always : .whenInUse, at: time)
        prompt.android = AndroidDialog(asked: asking, api: api)
        prompts.append(prompt)
        var effects: [AuthorizationEffect] = [.promptOpened(prompt)]
        if let choice = policy.choice {
            // L12 on Android: the policy's iOS name picks the matching button, or the nearest
            // one the dialog has (Always → While using at 30+, Once → While using at 29).
            let button = prompt.android!.button(for: choice) ?? .whileUsing
            effects += (try? answer(prompt.id, choice: button, precise: policy.precise, at: time).effects) ?? []
        }
        return effects
    }

    /// An answer to Android's dialog (AN8, AN9, AN10, AN5).
    mutating func answerAndroid(_ prompt: Prompt, choice given: PromptChoice, precise: Bool, at now: EngineTime) throws(AnswerError) -> AnswerResult {
        guard let dialog = prompt.android, let choice = dialog.button(for: given) else {
            let offered = prompt.android?.choices.map(\.rawValue).joined(separator: ", ") ?? ""
            throw .invalidChoice("this Android dialog offers \(offered), not \(given.rawValue)")
        }
        prompts.removeAll { $0.id == prompt.id }
        var effects: [AuthorizationEffect] = [.promptClosed(prompt, .answered(choice, precise: precise))]
        let app = prompt.app
        var entry = android.apps[app] ?? AndroidAppPermissions(updated: now.wall)
        let fine = dialog.asked.contains(.fine) && (precise || !dialog.approximateOffered)
        entry.updated = now.wall
        entry.lastUsed = now.wall
        switch choice {
        case .dontAllow:
            entry.denials = min(entry.denials + 1, AndroidPermissionNumbers.denialsForDontAskAgain)
            effects += storeAndroid(app, entry)
        case .onlyThisTime:
            entry.denials = 0
            effects += storeAndroid(app, entry)
            effects += changeApp(app) { $0.android.oneTime[app] = AndroidOneTimeGrant(precise: fine || entry.grants.fine) }
        default:
            entry.denials = 0
            entry.grants.coarse = true
            entry.grants.fine = entry.grants.fine || fine
            entry.grants.background = entry.grants.background || choice == .allowAllTheTime
            effects += changeApp(app) { $0.android.oneTime[app] = nil }
            effects += storeAndroid(app, entry)
        }
        effects += replyToWaiting(prompt.session)
        return AnswerResult(prompt: prompt, choice: choice, authorization: authorization(of: prompt.session), effects: effects)
    }

    /// Keeps an app's Android entry (nil forgets it) with its iOS-shaped mirror in `permissions`
    /// (AN2), and tells its sessions what changed.
    mutating func storeAndroid(_ app: String, _ entry: AndroidAppPermissions?) -> [AuthorizationEffect] {
        var effects = changeApp(app) { engine in
            engine.android.apps[app] = entry
            engine.permissions[app] = engine.android.storedPermission(of: app)
        }
        effects.insert(.persistPermission(app: app, permissions[app]), at: 0)
        effects.insert(.persistAndroidPermission(app: app, entry), at: 0)
        return effects
    }

    /// Applies `change` and reports the app's sessions whose authorization it changed (L9).
    mutating func changeApp(_ app: String, _ change: (inout AuthorizationEngine) -> Void) -> [AuthorizationEffect] {
        changeSessions(sessions.filter { $0.value.app == app }.map(\.key), change)
    }
}

/// What an Android dialog asks and offers (AN3): its buttons by API level.
public struct AndroidDialog: Sendable, Equatable {
    /// The permissions asked for (several requests on one dialog join it).
    public var asked: Set<AndroidPermission>
    public var api: Int

    /// AN3: at 29 the three-button dialog when background is asked (Allow all the time /
    /// Allow only while using / Deny), else Allow / Deny; from 30 While using / Only this
    /// time / Don't allow (background never: AN7).
    public var choices: [PromptChoice] {
        if api >= 30 { return [.whileUsing, .onlyThisTime, .dontAllow] }
        return asked.contains(.background) ? [.allowAllTheTime, .whileUsing, .dontAllow] : [.whileUsing, .dontAllow]
    }

    /// AN3: Precise / Approximate from 31, when fine is asked.
    public var approximateOffered: Bool { api >= 31 && asked.contains(.fine) }

    /// The button a choice names: Android's own names, or iOS's as aliases (allowOnce →
    /// onlyThisTime, allowWhileUsing → whileUsing, allowAlways → allowAllTheTime); nil when
    /// this dialog has no such button.
    public func button(for choice: PromptChoice) -> PromptChoice? {
        let named: PromptChoice
        switch choice {
        case .allowOnce: named = .onlyThisTime
        case .allowWhileUsing: named = .whileUsing
        case .allowAlways: named = .allowAllTheTime
        default: named = choice
        }
        return choices.contains(named) ? named : nil
    }

    /// What the control side sees of the dialog: `asked`, `choices`, `approximate`.
    public var json: JSONValue {
        [
            "asked": .array(AndroidPermission.allCases.filter(asked.contains).map { .string($0.rawValue) }),
            "choices": .array(choices.map { .string($0.rawValue) }), "approximateOffered": .bool(approximateOffered),
        ]
    }
}

/// What an Android phone accepts of `authorization.request` (AN1, AN7).
public enum AndroidRequestRules {
    /// The permissions an iOS-style `level` stands for (AN1): whenInUse → coarse and fine;
    /// always → the same, with background at API 29 only, where one dialog can grant it.
    public static func permissions(for level: AuthorizationLevel, api: Int) -> Set<AndroidPermission> {
        level == .always && api < 30 ? [.coarse, .fine, .background] : [.coarse, .fine]
    }

    /// Why a request is refused before it reaches the rules, or nil. From API 30 background
    /// must be asked alone (Android ignores a request mixing it with the foreground ones).
    public static func problem(with asked: Set<AndroidPermission>, api: Int) -> String? {
        guard api >= 30, asked.contains(.background), asked.count > 1 else { return nil }
        return "\"permissions\": from Android 11 (API 30) background is a request of its own, made after coarse or fine is granted; "
            + "this phone is API \(api)"
    }
}
