import SextantCore
import SextantProtocol
import Testing

/// The authorization engine against RULES L1–L12, driven by values and a hand-made clock.
@Suite("Authorization engine (L1–L12)")
struct AuthorizationEngineTests {
    static let app = "com.example.maps"
    static let other = "com.example.other"
    static let second: Int64 = 1_000_000_000

    /// A clock the test moves by hand: monotonic nanoseconds and a wall time that follows.
    struct Clock {
        var monotonic: Int64 = 5 * AuthorizationEngineTests.second
        var now: EngineTime { EngineTime(monotonic: monotonic, wall: Timestamp(nanoseconds: 1_770_000_000_000_000_000 + monotonic)) }
        mutating func advance(seconds: Double) { monotonic += Int64(seconds * 1e9) }
    }

    let clock = Clock()

    static func snapshot(_ status: AuthorizationStatus, _ accuracy: LocationAccuracy = .full) -> AuthorizationSnapshot {
        AuthorizationSnapshot(status: status, accuracy: accuracy)
    }

    static func prompts(in effects: [AuthorizationEffect]) -> [Prompt] {
        effects.compactMap { if case .promptOpened(let p) = $0 { return p } else { return nil } }
    }

    static func replies(in effects: [AuthorizationEffect]) -> [RequestToken: AuthorizationSnapshot] {
        var replies: [RequestToken: AuthorizationSnapshot] = [:]
        for case .reply(let token, let snapshot) in effects { replies[token] = snapshot }
        return replies
    }

    static func changes(in effects: [AuthorizationEffect]) -> [SessionID: AuthorizationSnapshot] {
        var changes: [SessionID: AuthorizationSnapshot] = [:]
        for case .authorizationChanged(let id, let snapshot) in effects { changes[id] = snapshot }
        return changes
    }

    /// A foreground session 1 of `app` with an open authorization prompt for `level`. The
    /// allowOnce tests are about the mechanism: they keep RULES L5's first limit, 60 s (the
    /// default grace is 10 s, docs/platforms.md I8).
    func engineWithOpenPrompt(level: AuthorizationLevel = .whenInUse) throws -> (AuthorizationEngine, Prompt) {
        var engine = AuthorizationEngine(allowOnceBackgroundLimit: 60 * Self.second)
        engine.openSession(1, app: Self.app, state: .foreground, at: clock.now)
        let effects = try engine.request(1, level: level, token: 10, at: clock.now).get()
        let prompt = try #require(Self.prompts(in: effects).first)
        #expect(Self.replies(in: effects).isEmpty, "the request waits for the answer")
        return (engine, prompt)
    }

    // MARK: - L1: the Location Services switch

    @Test("L1: switching off makes every app denied, keeps the stored decision, and it comes back on")
    func l1SwitchOffDeniesAndRestores() {
        var engine = AuthorizationEngine(
            permissions: [Self.app: StoredPermission(status: .authorizedAlways, accuracy: .reduced, updated: clock.now.wall)])
        engine.openSession(1, app: Self.app, state: .foreground, at: clock.now)
        #expect(engine.mayReceiveLocations(1))

        let off = engine.setServicesEnabled(false)
        #expect(off.first == .persistServicesEnabled(false))
        #expect(Self.changes(in: off) == [1: Self.snapshot(.denied, .reduced)])
        #expect(off.last == .servicesEnabledChanged(false))
        #expect(!engine.mayReceiveLocations(1))
        #expect(engine.permissions[Self.app]?.status == .authorizedAlways, "the stored decision is kept")

        let on = engine.setServicesEnabled(true)
        #expect(Self.changes(in: on) == [1: Self.snapshot(.authorizedAlways, .reduced)])
        #expect(engine.mayReceiveLocations(1))
    }

    @Test("L1: setting the switch to what it already is changes nothing and stores nothing")
    func l1NoOpSwitch() {
        var engine = AuthorizationEngine()
        #expect(engine.setServicesEnabled(true).isEmpty)
    }

    // MARK: - L2: statuses and their defaults

    @Test("L2: an app without a stored decision is notDetermined with full accuracy and receives nothing")
    func l2DefaultIsNotDetermined() {
        var engine = AuthorizationEngine()
        engine.openSession(1, app: Self.app, state: .foreground, at: clock.now)
        #expect(engine.authorization(of: 1) == Self.snapshot(.notDetermined))
        #expect(!engine.mayReceiveLocations(1))
    }

    @Test("L2: only the two authorized statuses may receive locations", arguments: AuthorizationStatus.allCases)
    func l2OnlyAuthorizedStatusesReceive(status: AuthorizationStatus) {
        var engine = AuthorizationEngine(permissions: [Self.app: StoredPermission(status: status, accuracy: .full, updated: clock.now.wall)])
        engine.openSession(1, app: Self.app, state: .foreground, at: clock.now)
        #expect(engine.mayReceiveLocations(1) == (status == .authorizedWhenInUse || status == .authorizedAlways))
    }

    @Test("L2: a restricted app cannot prompt: its request is answered restricted at once")
    func l2RestrictedCannotPrompt() throws {
        var engine = AuthorizationEngine(permissions: [Self.app: StoredPermission(status: .restricted, accuracy: .full, updated: clock.now.wall)])
        engine.openSession(1, app: Self.app, state: .foreground, at: clock.now)
        let effects = try engine.request(1, level: .whenInUse, token: 7, at: clock.now).get()
        #expect(Self.prompts(in: effects).isEmpty)
        #expect(Self.replies(in: effects) == [7: Self.snapshot(.restricted)])
    }

    @Test("L2: permissions.set stores the decision and tells every session of that app, no other")
    func l2SetPermissionReachesEverySessionOfTheApp() {
        var engine = AuthorizationEngine()
        engine.openSession(1, app: Self.app, state: .foreground, at: clock.now)
        engine.openSession(2, app: Self.app, state: .background, at: clock.now)
        engine.openSession(3, app: Self.other, state: .foreground, at: clock.now)
        let (entry, effects) = engine.setPermission(app: Self.app, status: .authorizedWhenInUse, accuracy: .reduced, at: clock.now)
        #expect(entry.status == .authorizedWhenInUse && entry.accuracy == .reduced)
        #expect(effects.first == .persistPermission(app: Self.app, entry))
        #expect(Self.changes(in: effects) == [1: Self.snapshot(.authorizedWhenInUse, .reduced), 2: Self.snapshot(.authorizedWhenInUse, .reduced)])
    }

    @Test("L2: permissions.set without an accuracy keeps the app's stored one")
    func l2SetKeepsAccuracy() {
        var engine = AuthorizationEngine(permissions: [Self.app: StoredPermission(status: .denied, accuracy: .reduced, updated: clock.now.wall)])
        let (entry, _) = engine.setPermission(app: Self.app, status: .authorizedAlways, accuracy: nil, at: clock.now)
        #expect(entry.accuracy == .reduced)
    }

    // MARK: - L3: reading never prompts

    @Test("L3: reading the status any number of times opens no prompt and no alert, even with the switch off")
    func l3ReadingNeverPrompts() {
        var engine = AuthorizationEngine(servicesEnabled: false)
        engine.openSession(1, app: Self.app, state: .foreground, at: clock.now)
        for _ in 0..<3 { #expect(engine.authorization(of: 1) == Self.snapshot(.denied)) }
        #expect(engine.prompts.isEmpty)
    }

    // MARK: - L4: when a prompt may be created

    @Test("L4: a request from notDetermined in the foreground opens one authorization prompt with its level")
    func l4RequestOpensPrompt() throws {
        let (engine, prompt) = try engineWithOpenPrompt(level: .always)
        #expect(prompt.kind == .authorization && prompt.level == .always && prompt.app == Self.app && prompt.session == 1)
        #expect(engine.prompts == [prompt])
    }

    @Test("L4: a second request while the prompt is open joins it; both get the answer")
    func l4SecondRequestJoins() throws {
        var (engine, prompt) = try engineWithOpenPrompt()
        let joined = try engine.request(1, level: .whenInUse, token: 11, at: clock.now).get()
        #expect(joined.isEmpty)
        #expect(engine.prompts.count == 1)
        let result = try engine.answer(prompt.id, choice: .allowWhileUsing, precise: true, at: clock.now)
        #expect(Self.replies(in: result.effects) == [10: Self.snapshot(.authorizedWhenInUse), 11: Self.snapshot(.authorizedWhenInUse)])
    }

    @Test("L4: at most one prompt per app session: after a cancelled prompt the session does not prompt again; a new session may")
    func l4OncePerSession() throws {
        var (engine, _) = try engineWithOpenPrompt()
        _ = engine.setAppState(1, .background, at: clock.now)  // L6 cancels it
        #expect(engine.prompts.isEmpty)
        _ = engine.setAppState(1, .foreground, at: clock.now)
        let again = try engine.request(1, level: .whenInUse, token: 12, at: clock.now).get()
        #expect(Self.prompts(in: again).isEmpty)
        #expect(Self.replies(in: again) == [12: Self.snapshot(.notDetermined)])
        // A new session of the same app may prompt again.
        engine.openSession(2, app: Self.app, state: .foreground, at: clock.now)
        #expect(Self.prompts(in: try engine.request(2, level: .whenInUse, token: 13, at: clock.now).get()).count == 1)
    }

    // An Always request from authorizedWhenInUse prompts at once on iOS 13.4 and later
    // (docs/platforms.md I5): that row asks for whenInUse.
    @Test("L4: a request from a decided status answers at once with that status and opens nothing",
          arguments: [(AuthorizationStatus.denied, AuthorizationLevel.always), (.authorizedWhenInUse, .whenInUse), (.authorizedAlways, .always)])
    func l4OnlyFromNotDetermined(status: AuthorizationStatus, level: AuthorizationLevel) throws {
        var engine = AuthorizationEngine(permissions: [Self.app: StoredPermission(status: status, accuracy: .full, updated: clock.now.wall)])
        engine.openSession(1, app: Self.app, state: .foreground, at: clock.now)
        let effects = try engine.request(1, level: level, token: 3, at: clock.now).get()
        #expect(Self.prompts(in: effects).isEmpty)
        #expect(Self.replies(in: effects) == [3: Self.snapshot(status)])
    }

    @Test("L4: a request from the background waits, and prompts when the app comes to the foreground")
    func l4BackgroundRequestWaits() throws {
        var engine = AuthorizationEngine()
        engine.openSession(1, app: Self.app, state: .background, at: clock.now)
        #expect(try engine.request(1, level: .whenInUse, token: 4, at: clock.now).get().isEmpty)
        #expect(engine.prompts.isEmpty)
        let front = engine.setAppState(1, .foreground, at: clock.now)
        let prompt = try #require(Self.prompts(in: front).first)
        #expect(prompt.level == .whenInUse)
        let result = try engine.answer(prompt.id, choice: .dontAllow, precise: true, at: clock.now)
        #expect(Self.replies(in: result.effects) == [4: Self.snapshot(.denied)])
    }

    @Test("L4 L1: a background request whose app returns after the switch went off is answered denied, with no prompt")
    func l4BackgroundRequestThenSwitchOff() throws {
        var engine = AuthorizationEngine()
        engine.openSession(1, app: Self.app, state: .background, at: clock.now)
        _ = try engine.request(1, level: .whenInUse, token: 4, at: clock.now).get()
        _ = engine.setServicesEnabled(false)
        let front = engine.setAppState(1, .foreground, at: clock.now)
        #expect(Self.prompts(in: front).isEmpty)
        #expect(Self.replies(in: front) == [4: Self.snapshot(.denied)])
    }

    // MARK: - L5: the choices

    // While Using answered to an Always request gives Always provisionally on iOS
    // (docs/platforms.md I2): the While Using rows answer a whenInUse request.
    @Test("L5: allowWhileUsing, allowAlways and dontAllow store their status; precise false stores reduced",
          arguments: [
            (PromptChoice.allowWhileUsing, AuthorizationStatus.authorizedWhenInUse, true, AuthorizationLevel.whenInUse),
            (.allowWhileUsing, .authorizedWhenInUse, false, .whenInUse),
            (.allowAlways, .authorizedAlways, true, .always),
            (.dontAllow, .denied, true, .always),
          ])
    func l5StoredChoices(choice: PromptChoice, status: AuthorizationStatus, precise: Bool, level: AuthorizationLevel) throws {
        var (engine, prompt) = try engineWithOpenPrompt(level: level)
        let result = try engine.answer(prompt.id, choice: choice, precise: precise, at: clock.now)
        let accuracy: LocationAccuracy = precise ? .full : .reduced
        let stored = StoredPermission(status: status, accuracy: accuracy, updated: clock.now.wall)
        #expect(result.authorization == Self.snapshot(status, accuracy))
        #expect(result.effects.contains(.persistPermission(app: Self.app, stored)))
        #expect(result.effects.contains(.promptClosed(prompt, .answered(choice, precise: precise))))
        #expect(Self.changes(in: result.effects) == [1: Self.snapshot(status, accuracy)])
        #expect(Self.replies(in: result.effects) == [10: Self.snapshot(status, accuracy)])
        #expect(engine.permissions[Self.app] == stored)
        #expect(engine.prompts.isEmpty)
    }

    @Test("L5: allowAlways answers only a request for always")
    func l5AllowAlwaysNeedsAlwaysLevel() throws {
        var (engine, prompt) = try engineWithOpenPrompt(level: .whenInUse)
        #expect(throws: AuthorizationEngine.AnswerError.self) {
            try engine.answer(prompt.id, choice: .allowAlways, precise: true, at: clock.now)
        }
        #expect(engine.prompts == [prompt], "a refused answer leaves the prompt open")
    }

    @Test("L5 L7: an authorization prompt does not take settings/cancel, an unknown id is noSuchPrompt")
    func l5WrongChoices() throws {
        var (engine, prompt) = try engineWithOpenPrompt()
        #expect(throws: AuthorizationEngine.AnswerError.self) { try engine.answer(prompt.id, choice: .cancel, precise: true, at: clock.now) }
        #expect(throws: AuthorizationEngine.AnswerError.noSuchPrompt("p99")) { try engine.answer("p99", choice: .allowOnce, precise: true, at: clock.now) }
    }

    @Test("L5: allowOnce gives authorizedWhenInUse to this session only and stores nothing")
    func l5AllowOnceIsSessionOnly() throws {
        var (engine, prompt) = try engineWithOpenPrompt()
        engine.openSession(2, app: Self.app, state: .foreground, at: clock.now)
        let result = try engine.answer(prompt.id, choice: .allowOnce, precise: false, at: clock.now)
        #expect(result.authorization == Self.snapshot(.authorizedWhenInUse, .reduced))
        #expect(!result.effects.contains { if case .persistPermission = $0 { return true } else { return false } })
        #expect(engine.permissions[Self.app] == nil)
        #expect(engine.allowOnceGrants == [Self.app: .reduced])
        #expect(engine.authorization(of: 2) == Self.snapshot(.notDetermined), "another session of the app is not covered")
        #expect(engine.mayReceiveLocations(1) && !engine.mayReceiveLocations(2))
    }

    @Test("L5: allowOnce lapses when the app session ends")
    func l5AllowOnceEndsWithSession() throws {
        var (engine, prompt) = try engineWithOpenPrompt()
        _ = try engine.answer(prompt.id, choice: .allowOnce, precise: true, at: clock.now)
        _ = engine.closeSession(1)
        #expect(engine.allowOnceGrants.isEmpty)
        engine.openSession(2, app: Self.app, state: .foreground, at: clock.now)
        #expect(engine.authorization(of: 2) == Self.snapshot(.notDetermined))
    }

    @Test("L5: allowOnce survives exactly 60 s in the background and lapses just after")
    func l5AllowOnceBackgroundLimit() throws {
        var clock = self.clock
        var (engine, prompt) = try engineWithOpenPrompt()
        _ = try engine.answer(prompt.id, choice: .allowOnce, precise: true, at: clock.now)
        let background = engine.setAppState(1, .background, at: clock.now)
        let expiry = clock.monotonic + 60 * Self.second
        #expect(background.contains(.scheduleExpiryCheck(at: expiry)))

        clock.monotonic = expiry  // exactly 60 s: not more than the limit
        #expect(engine.expireAllowOnce(at: clock.now).isEmpty)
        #expect(engine.authorization(of: 1) == Self.snapshot(.authorizedWhenInUse))

        clock.monotonic = expiry + 1
        let expired = engine.expireAllowOnce(at: clock.now)
        #expect(Self.changes(in: expired) == [1: Self.snapshot(.notDetermined)])
        #expect(engine.allowOnceGrants.isEmpty)
    }

    @Test("L5: back in the foreground within 60 s keeps allowOnce, and the background clock starts over")
    func l5AllowOnceForegroundResets() throws {
        var clock = self.clock
        var (engine, prompt) = try engineWithOpenPrompt()
        _ = try engine.answer(prompt.id, choice: .allowOnce, precise: true, at: clock.now)
        _ = engine.setAppState(1, .background, at: clock.now)
        clock.advance(seconds: 59)
        #expect(engine.setAppState(1, .foreground, at: clock.now).isEmpty)
        _ = engine.setAppState(1, .background, at: clock.now)
        clock.advance(seconds: 59)
        #expect(engine.expireAllowOnce(at: clock.now).isEmpty)
        #expect(engine.authorization(of: 1).status == .authorizedWhenInUse)
    }

    @Test("L5: coming back after more than 60 s finds the grant already gone (no late expiry check needed)")
    func l5AllowOnceExpiredOnReturn() throws {
        var clock = self.clock
        var (engine, prompt) = try engineWithOpenPrompt()
        _ = try engine.answer(prompt.id, choice: .allowOnce, precise: true, at: clock.now)
        _ = engine.setAppState(1, .background, at: clock.now)
        clock.advance(seconds: 61)
        let front = engine.setAppState(1, .foreground, at: clock.now)
        #expect(Self.changes(in: front) == [1: Self.snapshot(.notDetermined)])
        #expect(!engine.mayReceiveLocations(1))
    }

    @Test("L5: a stored decision set by hand replaces an allowOnce grant")
    func l5SetReplacesAllowOnce() throws {
        var (engine, prompt) = try engineWithOpenPrompt()
        _ = try engine.answer(prompt.id, choice: .allowOnce, precise: true, at: clock.now)
        let (_, effects) = engine.setPermission(app: Self.app, status: .denied, accuracy: nil, at: clock.now)
        #expect(Self.changes(in: effects) == [1: Self.snapshot(.denied)])
        #expect(engine.allowOnceGrants.isEmpty)
    }
}
