import SextantCore
import SextantProtocol
import Testing

/// The iOS profile's authorization flows (docs/platforms.md I1–I11), on the pure engine.
@Suite("Authorization engine, iOS (I1–I11)")
struct IOSAuthorizationTests {
    typealias T = AuthorizationEngineTests
    static let app = T.app
    static let second = T.second
    let clock = T.Clock()

    /// A foreground session 1 of `app` whose Always request was answered `choice`.
    func answeredAlwaysRequest(_ choice: PromptChoice, policy: PromptPolicy = .ask) throws -> (AuthorizationEngine, [AuthorizationEffect]) {
        var engine = AuthorizationEngine(policy: policy)
        engine.openSession(1, app: Self.app, state: .foreground, at: clock.now)
        let asked = try engine.request(1, level: .always, token: 10, at: clock.now).get()
        let prompt = try #require(T.prompts(in: asked).first)
        let answered = try engine.answer(prompt.id, choice: choice, precise: true, at: clock.now)
        return (engine, answered.effects)
    }

    /// Session 1 of `app` holding Always provisionally, in `state`.
    func provisionalEngine(state: AppState = .background, policy: PromptPolicy = .ask) -> AuthorizationEngine {
        var engine = AuthorizationEngine(
            permissions: [Self.app: StoredPermission(status: .authorizedAlways, accuracy: .full, updated: clock.now.wall)], policy: policy,
            iosFacets: [Self.app: IOSAppFacets(provisional: true, alwaysAsked: true)])
        engine.openSession(1, app: Self.app, state: state, at: clock.now)
        return engine
    }

    static func upgradePrompts(in effects: [AuthorizationEffect]) -> [Prompt] { T.prompts(in: effects).filter { $0.kind == .alwaysUpgrade } }

    // MARK: - I1, I2

    @Test("I1: an Always request from notDetermined shows the When-In-Use prompt: Allow Once, While Using, Don't Allow")
    func testI1_alwaysFromNotDeterminedShowsWhenInUsePrompt() throws {
        for choice in [PromptChoice.allowOnce, .allowWhileUsing, .dontAllow] {
            let (engine, effects) = try answeredAlwaysRequest(choice)
            #expect(T.replies(in: effects)[10] != nil, "\(choice) answers the request")
            #expect(engine.prompts.isEmpty)
        }
        let (engine, _) = try answeredAlwaysRequest(.allowOnce)
        #expect(engine.authorization(of: 1) == T.snapshot(.authorizedWhenInUse), "Allow Once gives When-In-Use, no provisional Always")
        #expect(!engine.iosFacets(of: Self.app).provisional)
    }

    @Test("I2: While Using answered to an Always request gives authorizedAlways provisionally, stored with the Always request asked")
    func testI2_whileUsingGivesProvisionalAlways() throws {
        let (engine, effects) = try answeredAlwaysRequest(.allowWhileUsing)
        #expect(T.changes(in: effects) == [1: T.snapshot(.authorizedAlways)])
        #expect(T.replies(in: effects) == [10: T.snapshot(.authorizedAlways)])
        #expect(effects.contains(.persistIOSFacets(app: Self.app, IOSAppFacets(provisional: true, alwaysAsked: true))))
        #expect(engine.permissions[Self.app]?.status == .authorizedAlways)
        #expect(engine.iosFacets(of: Self.app) == IOSAppFacets(provisional: true, alwaysAsked: true))
    }

    @Test("I2: allowAlways (the control side's shortcut) gives Always outright, not provisional; When-In-Use requests are as L5")
    func testI2_allowAlwaysIsNotProvisional() throws {
        let (engine, _) = try answeredAlwaysRequest(.allowAlways)
        #expect(engine.iosFacets(of: Self.app) == IOSAppFacets(provisional: false, alwaysAsked: true))
        let (whenInUse, prompt) = try T().engineWithOpenPrompt(level: .whenInUse)
        var copy = whenInUse
        _ = try copy.answer(prompt.id, choice: .allowWhileUsing, precise: true, at: clock.now)
        #expect(copy.authorization(of: 1) == T.snapshot(.authorizedWhenInUse) && copy.iosFacets(of: Self.app) == IOSAppFacets())
    }

    // MARK: - I3, I4: the upgrade prompt

    @Test("I3: the first Always power used in the background raises the upgrade prompt once; later events join it")
    func testI3_alwaysPowerInBackgroundRaisesUpgradeOnce() {
        var clock = self.clock
        var engine = provisionalEngine(state: .foreground)
        _ = engine.setAppState(1, .background, at: clock.now)
        clock.advance(seconds: 11)  // past the grace: not in use (I8)
        let first = engine.alwaysPowerUsed(by: 1, at: clock.now)
        #expect(first.held)
        let prompt = Self.upgradePrompts(in: first.effects).first
        #expect(prompt?.level == .always && prompt?.app == Self.app)
        let second = engine.alwaysPowerUsed(by: 1, at: clock.now)
        #expect(second.held && second.effects.isEmpty, "held, joining the open prompt")
        #expect(engine.prompts.count == 1)
        #expect(T.changes(in: first.effects).isEmpty, "the app's status does not change: it is already Always")
    }

    @Test("I3 I8: an app launched in the background was never in use: its first event raises the prompt at once")
    func testI3_launchedInBackgroundIsNotInUse() {
        var engine = provisionalEngine()  // opened in the background
        #expect(engine.alwaysPowerUsed(by: 1, at: clock.now).held)
    }

    @Test("I3: nothing is held in use (foreground, or within the grace), nor for an app with Always outright or When In Use")
    func testI3_inUseOrNotProvisionalHoldsNothing() {
        var foreground = provisionalEngine(state: .foreground)
        #expect(foreground.alwaysPowerUsed(by: 1, at: clock.now) == (false, []))
        var withinGrace = provisionalEngine(state: .foreground)
        _ = withinGrace.setAppState(1, .background, at: self.clock.now)
        var clock = self.clock
        clock.advance(seconds: 10)
        #expect(withinGrace.alwaysPowerUsed(by: 1, at: clock.now).held == false, "10 s after: still in use")
        var outright = AuthorizationEngine(permissions: [Self.app: StoredPermission(status: .authorizedAlways, accuracy: .full, updated: clock.now.wall)])
        outright.openSession(1, app: Self.app, state: .background, at: self.clock.now)
        clock.advance(seconds: 60)
        #expect(outright.alwaysPowerUsed(by: 1, at: clock.now).held == false)
    }

    @Test("I4: Keep Only While Using sends authorizedWhenInUse; the app is no longer provisional")
    func testI4_keepSendsWhenInUse() throws {
        var clock = self.clock
        var engine = provisionalEngine()
        clock.advance(seconds: 30)
        let prompt = try #require(Self.upgradePrompts(in: engine.alwaysPowerUsed(by: 1, at: clock.now).effects).first)
        #expect(throws: AuthorizationEngine.AnswerError.self) { try engine.answer(prompt.id, choice: .allowWhileUsing, precise: true, at: clock.now) }
        let kept = try engine.answer(prompt.id, choice: .keepWhileUsing, precise: true, at: clock.now)
        #expect(T.changes(in: kept.effects) == [1: T.snapshot(.authorizedWhenInUse)])
        #expect(kept.effects.contains(.persistIOSFacets(app: Self.app, IOSAppFacets(provisional: false, alwaysAsked: true))))
        #expect(engine.permissions[Self.app]?.status == .authorizedWhenInUse)
        #expect(engine.alwaysPowerUsed(by: 1, at: clock.now).held == false, "raised once: nothing more to hold")
    }

    @Test("I4: Change to Always sends nothing (the status was already Always); the app is no longer provisional")
    func testI4_changeToAlwaysSendsNothing() throws {
        var clock = self.clock
        var engine = provisionalEngine()
        clock.advance(seconds: 30)
        let prompt = try #require(Self.upgradePrompts(in: engine.alwaysPowerUsed(by: 1, at: clock.now).effects).first)
        let changed = try engine.answer(prompt.id, choice: .changeToAlways, precise: true, at: clock.now)
        #expect(T.changes(in: changed.effects).isEmpty)
        #expect(engine.iosFacets(of: Self.app) == IOSAppFacets(provisional: false, alwaysAsked: true))
        #expect(engine.authorization(of: 1) == T.snapshot(.authorizedAlways))
        #expect(engine.alwaysPowerUsed(by: 1, at: clock.now).held == false)
    }

    @Test("I4 L12: a policy answers the upgrade prompt at once: allowAlways changes to Always, any other keeps While Using")
    func testI4_policyAnswersUpgrade() {
        var clock = self.clock
        clock.advance(seconds: 30)
        var always = provisionalEngine(policy: PromptPolicy(choice: .allowAlways))
        #expect(always.alwaysPowerUsed(by: 1, at: clock.now).effects.contains { if case .promptClosed(_, .answered(.changeToAlways, _)) = $0 { return true } else { return false } })
        var whileUsing = provisionalEngine(policy: PromptPolicy(choice: .allowWhileUsing))
        _ = whileUsing.alwaysPowerUsed(by: 1, at: clock.now)
        #expect(whileUsing.authorization(of: 1) == T.snapshot(.authorizedWhenInUse) && whileUsing.prompts.isEmpty)
        #expect(AuthorizationEngine.policyChoice(.dontAllow, for: .alwaysUpgrade) == .keepWhileUsing)
    }

    @Test("I3 L5: the upgrade prompt is not an authorization prompt: it takes keepWhileUsing or changeToAlways only")
    func testI3_upgradePromptChoices() throws {
        var clock = self.clock
        var engine = provisionalEngine()
        clock.advance(seconds: 30)
        let prompt = try #require(Self.upgradePrompts(in: engine.alwaysPowerUsed(by: 1, at: clock.now).effects).first)
        for wrong in [PromptChoice.allowAlways, .dontAllow, .cancel, .allow] {
            #expect(throws: AuthorizationEngine.AnswerError.self) { try engine.answer(prompt.id, choice: wrong, precise: true, at: clock.now) }
        }
        #expect(engine.prompts == [prompt])
    }

    // MARK: - I5–I7: the Always request from When In Use

    /// Session 1 of `app` with When In Use stored, in the foreground.
    func whenInUseEngine(facets: IOSAppFacets = IOSAppFacets()) -> AuthorizationEngine {
        var engine = AuthorizationEngine(
            permissions: [Self.app: StoredPermission(status: .authorizedWhenInUse, accuracy: .full, updated: clock.now.wall)],
            iosFacets: facets.isEmpty ? [:] : [Self.app: facets])
        engine.openSession(1, app: Self.app, state: .foreground, at: clock.now)
        return engine
    }

    @Test("I5: an Always request from When In Use prompts at once (iOS 13.4); Change to Always sends authorizedAlways")
    func testI5_alwaysFromWhenInUsePromptsAtOnce() throws {
        var engine = whenInUseEngine()
        let asked = try engine.request(1, level: .always, token: 20, at: clock.now).get()
        let prompt = try #require(Self.upgradePrompts(in: asked).first)
        #expect(T.replies(in: asked).isEmpty, "the request waits for the answer")
        #expect(asked.contains(.persistIOSFacets(app: Self.app, IOSAppFacets(alwaysAsked: true))))
        let changed = try engine.answer(prompt.id, choice: .changeToAlways, precise: true, at: clock.now)
        #expect(T.changes(in: changed.effects) == [1: T.snapshot(.authorizedAlways)])
        #expect(T.replies(in: changed.effects) == [20: T.snapshot(.authorizedAlways)])
    }

    @Test("I5: Keep Only While Using leaves When In Use and sends no event")
    func testI5_keepSendsNothing() throws {
        var engine = whenInUseEngine()
        let prompt = try #require(Self.upgradePrompts(in: try engine.request(1, level: .always, token: 20, at: clock.now).get()).first)
        let kept = try engine.answer(prompt.id, choice: .keepWhileUsing, precise: true, at: clock.now)
        #expect(T.changes(in: kept.effects).isEmpty)
        #expect(T.replies(in: kept.effects) == [20: T.snapshot(.authorizedWhenInUse)])
    }

    @Test("I6: one Always request per install: the second is answered at once, with no prompt, in any later session")
    func testI6_secondAlwaysRequestIsANoOp() throws {
        var engine = whenInUseEngine(facets: IOSAppFacets(alwaysAsked: true))
        engine.openSession(2, app: Self.app, state: .foreground, at: clock.now)
        let again = try engine.request(2, level: .always, token: 21, at: clock.now).get()
        #expect(T.prompts(in: again).isEmpty)
        #expect(T.replies(in: again) == [21: T.snapshot(.authorizedWhenInUse)])
    }

    @Test("I7: after Allow Once an Always request is ignored")
    func testI7_afterAllowOnceAlwaysIsIgnored() throws {
        var (engine, _) = try answeredAlwaysRequest(.allowOnce)
        let again = try engine.request(1, level: .always, token: 22, at: clock.now).get()
        #expect(T.prompts(in: again).isEmpty)
        #expect(T.replies(in: again) == [22: T.snapshot(.authorizedWhenInUse)])
        #expect(!engine.iosFacets(of: Self.app).alwaysAsked)
    }

    @Test("I6: permissions.reset makes the app as newly installed: its Always request unasked, not provisional")
    func testI6_resetForgetsFacets() {
        var engine = provisionalEngine()
        let (_, effects) = engine.resetPermissions(app: Self.app)
        #expect(effects.contains(.persistIOSFacets(app: Self.app, nil)))
        #expect(engine.iosFacets(of: Self.app) == IOSAppFacets())
    }
}
