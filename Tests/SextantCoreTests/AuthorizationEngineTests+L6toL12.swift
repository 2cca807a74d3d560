import SextantCore
import SextantProtocol
import Testing

/// RULES L6–L12: background cancellation, the services-off alert and what follows, in a
/// file of their own so that each file stays readable.
extension AuthorizationEngineTests {
    // MARK: - L6: background cancels the prompt

    @Test("L6: going to the background cancels the open prompt; the request returns notDetermined")
    func l6BackgroundCancels() throws {
        var (engine, prompt) = try engineWithOpenPrompt()
        let effects = engine.setAppState(1, .background, at: clock.now)
        #expect(effects.contains(.promptClosed(prompt, .cancelled(.appInBackground))))
        #expect(Self.replies(in: effects) == [10: Self.snapshot(.notDetermined)])
        #expect(engine.prompts.isEmpty)
        #expect(engine.permissions[Self.app] == nil)
        #expect(throws: AuthorizationEngine.AnswerError.noSuchPrompt(prompt.id)) {
            try engine.answer(prompt.id, choice: .allowWhileUsing, precise: true, at: clock.now)
        }
    }

    @Test("L6: a session that ends with its prompt open closes the prompt as cancelled")
    func l6SessionEndCancels() throws {
        var (engine, prompt) = try engineWithOpenPrompt()
        #expect(engine.closeSession(1) == [.promptClosed(prompt, .cancelled(.sessionEnded))])
        #expect(engine.prompts.isEmpty)
    }

    // MARK: - L7: the services-off alert

    @Test("L7: with the switch off, request and location access fail at once; one alert per session")
    func l7ServicesOffAlertOncePerSession() throws {
        var engine = AuthorizationEngine(servicesEnabled: false)
        engine.openSession(1, app: Self.app, state: .foreground, at: clock.now)
        let refused = engine.request(1, level: .whenInUse, token: 1, at: clock.now)
        #expect(refused.refusal == .servicesDisabled)
        let alert = try #require(Self.prompts(in: refused.effects).first)
        #expect(alert.kind == .servicesOff && alert.level == .whenInUse)

        let again = engine.checkLocationAccess(1, at: clock.now)
        #expect(again.refusal == .servicesDisabled)
        #expect(again.effects.isEmpty, "at most one alert per app session")
        #expect(engine.prompts == [alert])
    }

    @Test("L7: an alert raised by location.start has no level")
    func l7AlertFromLocationStart() throws {
        var engine = AuthorizationEngine(servicesEnabled: false)
        engine.openSession(1, app: Self.app, state: .foreground, at: clock.now)
        let refused = engine.checkLocationAccess(1, at: clock.now)
        #expect(refused.refusal == .servicesDisabled)
        let alert = try #require(Self.prompts(in: refused.effects).first)
        #expect(alert.kind == .servicesOff && alert.level == nil)
    }

    @Test("L7: answering the alert, settings or cancel, never turns the switch on; other choices are refused",
          arguments: [PromptChoice.settings, .cancel])
    func l7AnswerNeverChangesSwitch(choice: PromptChoice) throws {
        var engine = AuthorizationEngine(servicesEnabled: false)
        engine.openSession(1, app: Self.app, state: .foreground, at: clock.now)
        _ = engine.checkLocationAccess(1, at: clock.now)
        let alert = try #require(engine.prompts.first)
        #expect(throws: AuthorizationEngine.AnswerError.self) { try engine.answer(alert.id, choice: .allowOnce, precise: true, at: clock.now) }
        let result = try engine.answer(alert.id, choice: choice, precise: true, at: clock.now)
        #expect(result.authorization == nil)
        #expect(result.effects == [.promptClosed(alert, .answered(choice, precise: true))])
        #expect(!engine.servicesEnabled)
    }

    @Test("L7 L1: services off is checked before authorization (1002 before 1001)")
    func l7ServicesOffBeforeNotAuthorized() {
        var engine = AuthorizationEngine(servicesEnabled: false)
        engine.openSession(1, app: Self.app, state: .foreground, at: clock.now)
        #expect(engine.checkLocationAccess(1, at: clock.now).refusal == .servicesDisabled)
        _ = engine.setServicesEnabled(true)
        #expect(engine.checkLocationAccess(1, at: clock.now).refusal == .notAuthorized)
    }

    @Test("L7 L12: a policy other than ask cancels the alert at once")
    func l7PolicyCancelsAlert() throws {
        var engine = AuthorizationEngine(servicesEnabled: false, policy: PromptPolicy(choice: .allowWhileUsing))
        engine.openSession(1, app: Self.app, state: .foreground, at: clock.now)
        let effects = engine.checkLocationAccess(1, at: clock.now).effects
        let alert = try #require(Self.prompts(in: effects).first)
        #expect(effects.last == .promptClosed(alert, .answered(.cancel, precise: true)))
        #expect(engine.prompts.isEmpty)
    }

    // MARK: - L8: when-in-use and always

    @Test("L8: when-in-use delivers only in the foreground; always also in the background",
          arguments: [(AuthorizationStatus.authorizedWhenInUse, false), (.authorizedAlways, true)])
    func l8ForegroundAndBackground(status: AuthorizationStatus, inBackground: Bool) {
        var engine = AuthorizationEngine(permissions: [Self.app: StoredPermission(status: status, accuracy: .full, updated: clock.now.wall)])
        engine.openSession(1, app: Self.app, state: .foreground, at: clock.now)
        #expect(engine.mayReceiveLocations(1))
        _ = engine.setAppState(1, .background, at: clock.now)
        #expect(engine.mayReceiveLocations(1) == inBackground)
        _ = engine.setAppState(1, .foreground, at: clock.now)
        #expect(engine.mayReceiveLocations(1))
    }

    // MARK: - L9: every change at once

    @Test("L9: a revoke by hand reports the change and stops delivery at once")
    func l9RevokeIsImmediate() {
        var engine = AuthorizationEngine(permissions: [Self.app: StoredPermission(status: .authorizedAlways, accuracy: .full, updated: clock.now.wall)])
        engine.openSession(1, app: Self.app, state: .foreground, at: clock.now)
        let (_, effects) = engine.setPermission(app: Self.app, status: .denied, accuracy: nil, at: clock.now)
        #expect(Self.changes(in: effects) == [1: Self.snapshot(.denied)])
        #expect(!engine.mayReceiveLocations(1))
    }

    @Test("L9: a change that leaves the effective authorization as it was sends no event")
    func l9NoEventWithoutChange() {
        var engine = AuthorizationEngine(permissions: [Self.app: StoredPermission(status: .denied, accuracy: .full, updated: clock.now.wall)])
        engine.openSession(1, app: Self.app, state: .foreground, at: clock.now)
        let (_, effects) = engine.setPermission(app: Self.app, status: .denied, accuracy: .full, at: clock.now)
        #expect(Self.changes(in: effects).isEmpty)
        // With the switch off, any stored change is invisible to the app: still denied.
        _ = engine.setServicesEnabled(false)
        #expect(Self.changes(in: engine.setPermission(app: Self.app, status: .authorizedAlways, accuracy: nil, at: clock.now).1).isEmpty)
    }

    @Test("L9: reset forgets decisions and allowOnce grants; the apps may prompt again in the same session")
    func l9ResetAllowsPromptAgain() throws {
        var (engine, prompt) = try engineWithOpenPrompt()
        _ = try engine.answer(prompt.id, choice: .dontAllow, precise: true, at: clock.now)
        _ = engine.setPermission(app: Self.other, status: .authorizedAlways, accuracy: nil, at: clock.now)
        let (count, effects) = engine.resetPermissions(app: nil)
        #expect(count == 2)
        #expect(effects.contains(.persistPermission(app: Self.app, nil)) && effects.contains(.persistPermission(app: Self.other, nil)))
        #expect(Self.changes(in: effects) == [1: Self.snapshot(.notDetermined)])
        #expect(Self.prompts(in: try engine.request(1, level: .whenInUse, token: 20, at: clock.now).get()).count == 1)
    }

    @Test("L9: reset of one app leaves the others")
    func l9ResetOneApp() {
        var engine = AuthorizationEngine(permissions: [
            Self.app: StoredPermission(status: .denied, accuracy: .full, updated: clock.now.wall),
            Self.other: StoredPermission(status: .authorizedAlways, accuracy: .full, updated: clock.now.wall),
        ])
        #expect(engine.resetPermissions(app: Self.app).count == 1)
        #expect(engine.permissions.keys.sorted() == [Self.other])
        #expect(engine.resetPermissions(app: "com.example.never").count == 0)
    }

    // MARK: - L12: the auto-answer policy

    @Test("L12: a policy answers every new prompt at once with its choice and precision",
          arguments: [(PromptChoice.allowWhileUsing, AuthorizationStatus.authorizedWhenInUse), (.dontAllow, .denied), (.allowOnce, .authorizedWhenInUse)])
    func l12PolicyAnswers(choice: PromptChoice, status: AuthorizationStatus) throws {
        var engine = AuthorizationEngine(policy: PromptPolicy(choice: choice, precise: false))
        engine.openSession(1, app: Self.app, state: .foreground, at: clock.now)
        let effects = try engine.request(1, level: .whenInUse, token: 5, at: clock.now).get()
        let prompt = try #require(Self.prompts(in: effects).first)
        #expect(effects.contains(.promptClosed(prompt, .answered(choice, precise: false))))
        #expect(Self.replies(in: effects) == [5: Self.snapshot(status, .reduced)])
        #expect(engine.prompts.isEmpty)
    }

    @Test("L12: an allowAlways policy gives a whenInUse request allowWhileUsing, an always request allowAlways")
    func l12AlwaysPolicy() throws {
        var engine = AuthorizationEngine(policy: PromptPolicy(choice: .allowAlways))
        engine.openSession(1, app: Self.app, state: .foreground, at: clock.now)
        engine.openSession(2, app: Self.other, state: .foreground, at: clock.now)
        #expect(Self.replies(in: try engine.request(1, level: .whenInUse, token: 1, at: clock.now).get()) == [1: Self.snapshot(.authorizedWhenInUse)])
        #expect(Self.replies(in: try engine.request(2, level: .always, token: 2, at: clock.now).get()) == [2: Self.snapshot(.authorizedAlways)])
    }

    @Test("L12: ask leaves prompts pending; setting the policy persists it")
    func l12AskLeavesPending() throws {
        var (engine, _) = try engineWithOpenPrompt()
        #expect(engine.prompts.count == 1)
        let policy = PromptPolicy(choice: .dontAllow)
        #expect(engine.setPolicy(policy) == [.persistPolicy(policy)])
        #expect(engine.prompts.count == 1, "a new policy answers new prompts, not the pending one")
    }

    @Test("L12: policy modes are ask or an authorization choice, never an alert choice")
    func l12PolicyModes() {
        #expect(PromptPolicy(mode: "ask") == .ask)
        #expect(PromptPolicy(mode: "allowOnce")?.choice == .allowOnce)
        #expect(PromptPolicy(mode: "cancel") == nil)
        #expect(PromptPolicy(mode: "settings") == nil)
        #expect(PromptPolicy(mode: "yes") == nil)
    }

    @Test("L12: prompt ids are unique for the engine's lifetime")
    func l12UniqueIDs() throws {
        var engine = AuthorizationEngine()
        var ids: Set<String> = []
        for session in SessionID(1)...5 {
            engine.openSession(session, app: "com.example.app\(session)", state: .foreground, at: clock.now)
            let prompt = try #require(Self.prompts(in: try engine.request(session, level: .whenInUse, token: session, at: clock.now).get()).first)
            ids.insert(prompt.id)
            _ = engine.closeSession(session)
        }
        #expect(ids.count == 5)
    }
}
