import SextantCore
import SextantProtocol
import Testing

/// "In use", Allow Once and temporary full accuracy on iOS (docs/platforms.md I8–I11).
@Suite("Authorization engine, iOS in use (I8–I11)")
struct IOSInUseTests {
    typealias T = AuthorizationEngineTests
    static let app = T.app
    let clock = T.Clock()

    /// Session 1 of `app` authorized When In Use at `accuracy`, declaring the purpose key `nearby`.
    func reducedEngine(accuracy: LocationAccuracy = .reduced, state: AppState = .foreground, policy: PromptPolicy = .ask) -> AuthorizationEngine {
        var engine = AuthorizationEngine(
            permissions: [Self.app: StoredPermission(status: .authorizedWhenInUse, accuracy: accuracy, updated: clock.now.wall)], policy: policy)
        engine.openSession(1, app: Self.app, state: state, at: clock.now)
        engine.declare(1, IOSAppDeclaration(temporaryUsageDescriptions: ["nearby": "To show the shops around you"]))
        return engine
    }

    /// The engine with `nearby` granted to session 1.
    func grantedEngine() throws -> AuthorizationEngine {
        var engine = reducedEngine()
        let asked = try engine.requestTemporaryFullAccuracy(1, purposeKey: "nearby", token: 30, at: clock.now).get()
        let prompt = try #require(T.prompts(in: asked).first)
        _ = try engine.answer(prompt.id, choice: .allow, precise: true, at: clock.now)
        return engine
    }

    // MARK: - I8

    @Test("I8: the grace G is 10 s by default: Allow Once is kept 10 s into the background and reverts to notDetermined after")
    func testI8_graceIsTenSecondsByDefault() throws {
        #expect(AuthorizationEngine.defaultAllowOnceBackgroundLimit == 10 * T.second)
        var clock = self.clock
        var engine = AuthorizationEngine()
        engine.openSession(1, app: Self.app, state: .foreground, at: clock.now)
        let prompt = try #require(T.prompts(in: try engine.request(1, level: .whenInUse, token: 1, at: clock.now).get()).first)
        _ = try engine.answer(prompt.id, choice: .allowOnce, precise: true, at: clock.now)
        let background = engine.setAppState(1, .background, at: clock.now)
        #expect(background.contains(.scheduleExpiryCheck(at: clock.now.monotonic + 10 * T.second)))
        clock.advance(seconds: 10)
        #expect(engine.expireAllowOnce(at: clock.now).isEmpty, "10 s after: still in use")
        clock.advance(seconds: 0.001)
        #expect(T.changes(in: engine.expireAllowOnce(at: clock.now)) == [1: T.snapshot(.notDetermined)])
    }

    @Test("I8: a background session with the indicator started in the foreground keeps Allow Once (and delivery); its end starts the grace")
    func testI8_indicatorSessionKeepsInUse() throws {
        var clock = self.clock
        var engine = AuthorizationEngine()
        engine.openSession(1, app: Self.app, state: .foreground, at: clock.now)
        let prompt = try #require(T.prompts(in: try engine.request(1, level: .whenInUse, token: 1, at: clock.now).get()).first)
        _ = try engine.answer(prompt.id, choice: .allowOnce, precise: true, at: clock.now)
        _ = engine.setIndicatorSession(1, running: true, at: clock.now)
        _ = engine.setAppState(1, .background, at: clock.now)
        clock.advance(seconds: 600)
        #expect(engine.expireAllowOnce(at: clock.now).isEmpty)
        #expect(engine.mayReceiveLocations(1), "When In Use delivers in the background while the indicator shows")
        let stopped = engine.setIndicatorSession(1, running: false, at: clock.now)
        #expect(stopped == [.scheduleExpiryCheck(at: clock.now.monotonic + 10 * T.second)])
        #expect(!engine.mayReceiveLocations(1))
        clock.advance(seconds: 10.001)
        #expect(T.changes(in: engine.expireAllowOnce(at: clock.now)) == [1: T.snapshot(.notDetermined)])
    }

    @Test("I8: a session with the indicator cannot be started from the background")
    func testI8_indicatorNotFromBackground() {
        var engine = AuthorizationEngine()
        engine.openSession(1, app: Self.app, state: .background, at: clock.now)
        #expect(engine.setIndicatorSession(1, running: true, at: clock.now).isEmpty)
        #expect(!engine.mayReceiveLocations(1))
    }

    // MARK: - I9, I10

    @Test("I9: allowing a declared purpose key gives full accuracy to the session, with an authorization event")
    func testI9_allowGivesFullAccuracy() throws {
        var engine = reducedEngine()
        let asked = try engine.requestTemporaryFullAccuracy(1, purposeKey: "nearby", token: 30, at: clock.now).get()
        let prompt = try #require(T.prompts(in: asked).first)
        #expect(prompt.kind == .temporaryFullAccuracy && prompt.purposeKey == "nearby")
        #expect(engine.purpose(of: prompt) == "To show the shops around you")
        let allowed = try engine.answer(prompt.id, choice: .allow, precise: true, at: clock.now)
        #expect(T.changes(in: allowed.effects) == [1: T.snapshot(.authorizedWhenInUse, .full)])
        #expect(T.replies(in: allowed.effects) == [30: T.snapshot(.authorizedWhenInUse, .full)])
        #expect(engine.permissions[Self.app]?.accuracy == .reduced, "nothing stored")
    }

    @Test("I9: deny leaves reduced accuracy and sends no event")
    func testI9_denyKeepsReduced() throws {
        var engine = reducedEngine()
        let prompt = try #require(T.prompts(in: try engine.requestTemporaryFullAccuracy(1, purposeKey: "nearby", token: 30, at: clock.now).get()).first)
        let denied = try engine.answer(prompt.id, choice: .deny, precise: true, at: clock.now)
        #expect(T.changes(in: denied.effects).isEmpty)
        #expect(T.replies(in: denied.effects) == [30: T.snapshot(.authorizedWhenInUse, .reduced)])
    }

    @Test("I9: the grant lasts while in use: kept within the 10 s grace, gone after it; a new session (a relaunch) does not have it")
    func testI9_grantEndsWithInUseAndSession() throws {
        var clock = self.clock
        var engine = try grantedEngine()
        let background = engine.setAppState(1, .background, at: clock.now)
        #expect(background.contains(.scheduleExpiryCheck(at: clock.now.monotonic + 10 * T.second)))
        clock.advance(seconds: 10)
        #expect(engine.expireAllowOnce(at: clock.now).isEmpty)
        clock.advance(seconds: 1)
        #expect(T.changes(in: engine.expireAllowOnce(at: clock.now)) == [1: T.snapshot(.authorizedWhenInUse, .reduced)])
        var relaunched = try grantedEngine()
        _ = relaunched.closeSession(1)
        relaunched.openSession(2, app: Self.app, state: .foreground, at: clock.now)
        #expect(relaunched.authorization(of: 2).accuracy == .reduced)
    }

    @Test("I10: promptDeclined when the key is not declared, the accuracy is already full, or the app is in the background")
    func testI10_promptDeclined() {
        var undeclared = reducedEngine()
        #expect(throws: IOSPromptDeclined.self) { try undeclared.requestTemporaryFullAccuracy(1, purposeKey: "other", token: 1, at: clock.now).get() }
        var full = reducedEngine(accuracy: .full)
        #expect(throws: IOSPromptDeclined.self) { try full.requestTemporaryFullAccuracy(1, purposeKey: "nearby", token: 1, at: clock.now).get() }
        var background = reducedEngine(state: .background)
        #expect(throws: IOSPromptDeclined.self) { try background.requestTemporaryFullAccuracy(1, purposeKey: "nearby", token: 1, at: clock.now).get() }
        for engine in [undeclared, full, background] { #expect(engine.prompts.isEmpty) }
        #expect(IOSPromptDeclined("x").rpcError.code == RPCErrorCode.promptDeclined.rawValue && RPCErrorCode.promptDeclined.rawValue == 1014)
    }

    @Test("I10: a second request while the grant holds is declined: the accuracy is already full")
    func testI10_alreadyGranted() throws {
        var engine = try grantedEngine()
        #expect(throws: IOSPromptDeclined.self) { try engine.requestTemporaryFullAccuracy(1, purposeKey: "nearby", token: 2, at: clock.now).get() }
    }

    // MARK: - I11

    @Test("I11: an app that declared defaultAccuracyReduced has its authorization prompt answered approximate by default")
    func testI11_defaultAccuracyReduced() throws {
        var engine = AuthorizationEngine()
        engine.openSession(1, app: Self.app, state: .foreground, at: clock.now)
        engine.openSession(2, app: T.other, state: .foreground, at: clock.now)
        engine.declare(1, IOSAppDeclaration(defaultAccuracyReduced: true))
        let reduced = try #require(T.prompts(in: try engine.request(1, level: .whenInUse, token: 1, at: clock.now).get()).first)
        let plain = try #require(T.prompts(in: try engine.request(2, level: .whenInUse, token: 2, at: clock.now).get()).first)
        #expect(engine.defaultsToApproximate(reduced) && !engine.defaultsToApproximate(plain))
    }
}

/// The report `permissions explain` will print (issue 39 point 4).
@Suite("iOS authorization report")
struct IOSAuthorizationReportTests {
    typealias T = AuthorizationEngineTests

    @Test("I2 I6 I8 I9: the report gives the facets, the keys granted and each timer with its deadline (G = 10 s after the background)")
    func testI8_reportFacetsAndTimers() throws {
        var clock = T.Clock()
        var engine = try IOSInUseTests().grantedEngine()
        #expect(engine.iosReport(app: T.app).temporaryFullAccuracyKeys == ["nearby"] && engine.iosReport(app: T.app).timers.isEmpty)
        clock.advance(seconds: 2)
        _ = engine.setAppState(1, .background, at: clock.now)
        let report = engine.iosReport(app: T.app)
        #expect(report.timers == [.init(name: "temporaryFullAccuracyExpiry", session: 1, deadline: clock.now.monotonic + 10 * T.second)])
        #expect(report.accuracy == .reduced && !report.provisional && !report.alwaysAsked && !report.oneTime)
    }
}

/// I12: background delivery needs the `location` background mode.
@Suite("Authorization engine, iOS background mode (I12)")
struct IOSBackgroundModeTests {
    typealias T = AuthorizationEngineTests

    func alwaysEngine(modes: [String]?) -> AuthorizationEngine {
        var engine = AuthorizationEngine(permissions: [T.app: StoredPermission(status: .authorizedAlways, accuracy: .full, updated: T.Clock().now.wall)])
        engine.openSession(1, app: T.app, state: .foreground, at: T.Clock().now)
        engine.declare(1, IOSAppDeclaration(backgroundModes: modes))
        _ = engine.setAppState(1, .background, at: T.Clock().now)
        return engine
    }

    @Test("I12: with Always, an app that declared its background modes without location gets nothing in the background; with location, or saying nothing, it does")
    func testI12_backgroundNeedsLocationMode() {
        #expect(alwaysEngine(modes: ["fetch"]).locationAccuracy(for: 1) == nil)
        #expect(alwaysEngine(modes: []).locationAccuracy(for: 1) == nil)
        #expect(alwaysEngine(modes: ["location"]).locationAccuracy(for: 1) == .full)
        #expect(alwaysEngine(modes: nil).locationAccuracy(for: 1) == .full, "not modelled for a client that says nothing")
        var front = alwaysEngine(modes: ["fetch"])
        _ = front.setAppState(1, .foreground, at: T.Clock().now)
        #expect(front.locationAccuracy(for: 1) == .full)
    }

    @Test("I8 I12: When In Use with the indicator delivers in the background only with the location mode")
    func testI12_indicatorNeedsLocationMode() {
        var engine = AuthorizationEngine(permissions: [T.app: StoredPermission(status: .authorizedWhenInUse, accuracy: .full, updated: T.Clock().now.wall)])
        engine.openSession(1, app: T.app, state: .foreground, at: T.Clock().now)
        engine.declare(1, IOSAppDeclaration(backgroundModes: ["audio"]))
        _ = engine.setIndicatorSession(1, running: true, at: T.Clock().now)
        _ = engine.setAppState(1, .background, at: T.Clock().now)
        #expect(engine.locationAccuracy(for: 1) == nil)
    }
}
