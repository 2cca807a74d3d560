import SextantCore
import SextantProtocol
import Testing

/// The Android profile's permission flows (docs/platforms.md AN1–AN19), driven by values and
/// a hand-made clock.
@Suite("Android permissions (AN1–AN19)")
struct AndroidPermissionsTests {
    static let app = "com.example.maps"
    static let second: Int64 = 1_000_000_000
    static let day: Int64 = 86_400 * second

    /// The engine of an Android phone at `api`, its clock, and one foreground session (1).
    struct Phone {
        var engine: AuthorizationEngine
        var monotonic: Int64 = 5 * AndroidPermissionsTests.second
        var wallOffset: Int64 = 1_770_000_000_000_000_000
        var now: EngineTime { EngineTime(monotonic: monotonic, wall: Timestamp(nanoseconds: wallOffset + monotonic)) }
        var token: RequestToken = 0

        init(api: Int = 36, stored: [String: AndroidAppPermissions] = [:]) {
            engine = AuthorizationEngine(platform: .android(api: api), android: stored)
            engine.openSession(1, app: AndroidPermissionsTests.app, state: .foreground, at: now)
        }

        mutating func advance(seconds: Double) { monotonic += Int64(seconds * 1e9) }

        /// Requests and returns the effects (the reply, or the dialog opened).
        mutating func request(_ asked: Set<AndroidPermission>, session: SessionID = 1) -> [AuthorizationEffect] {
            token += 1
            return engine.request(session, level: .whenInUse, permissions: asked, token: token, at: now).effects
        }

        mutating func answer(_ choice: PromptChoice, precise: Bool = true) throws -> AuthorizationEngine.AnswerResult {
            try engine.answer(engine.prompts.last!.id, choice: choice, precise: precise, at: now)
        }

        /// The expiry check the owner runs at each scheduled time.
        mutating func tick() -> [AuthorizationEffect] { engine.expireAllowOnce(at: now) }

        var snapshot: AuthorizationSnapshot { engine.authorization(of: 1) }
    }

    static func prompts(in effects: [AuthorizationEffect]) -> [Prompt] {
        effects.compactMap { if case .promptOpened(let p) = $0 { return p } else { return nil } }
    }

    static func reply(in effects: [AuthorizationEffect]) -> AuthorizationSnapshot? {
        for case .reply(_, let snapshot) in effects { return snapshot }
        return nil
    }

    static func deadlines(in effects: [AuthorizationEffect]) -> [Int64] {
        effects.compactMap { if case .scheduleExpiryCheck(let at) = $0 { return at } else { return nil } }
    }

    // MARK: - AN1–AN3: the request and the dialog

    @Test("AN1: fine must come with coarse; a fine-only request is refused with Android's words")
    func testAN1_fineWithoutCoarseRefused() throws {
        #expect(throws: RPCError.self) { try AuthorizationRequest(Params(["permissions": ["fine"]])) }
        do {
            _ = try AuthorizationRequest(Params(["permissions": ["fine"]]))
        } catch {
            #expect(error.code == RPCErrorCode.invalidParams.rawValue)
            #expect(error.message.contains("ACCESS_FINE_LOCATION must be requested with ACCESS_COARSE_LOCATION"))
        }
        let both = try AuthorizationRequest(Params(["permissions": ["coarse", "fine"]]))
        #expect(both.permissions == [.coarse, .fine])
        #expect(AndroidRequestRules.permissions(for: .whenInUse, api: 36) == [.coarse, .fine])
    }

    @Test("AN3: API 31+ offers precise/approximate × whileUsing/onlyThisTime/dontAllow")
    func testAN3_api31DialogButtons() throws {
        var phone = Phone(api: 31)
        let dialog = try #require(Self.prompts(in: phone.request([.coarse, .fine])).first)
        #expect(dialog.kind == .androidLocation)
        #expect(dialog.android?.choices == [.whileUsing, .onlyThisTime, .dontAllow])
        #expect(dialog.android?.approximateOffered == true)
        #expect(throws: AuthorizationEngine.AnswerError.self) { try phone.answer(.allowAllTheTime) }
    }

    @Test("AN3: API 30 has no approximate; API 29 the three-button dialog with allowAllTheTime")
    func testAN3_api30And29Dialogs() throws {
        var thirty = Phone(api: 30)
        let d30 = try #require(Self.prompts(in: thirty.request([.coarse, .fine])).first?.android)
        #expect(d30.choices == [.whileUsing, .onlyThisTime, .dontAllow])
        #expect(!d30.approximateOffered)
        _ = try thirty.answer(.whileUsing, precise: false)  // no approximate at 30: fine all the same
        #expect(thirty.snapshot.accuracy == .full)

        var twentyNine = Phone(api: 29)
        let d29 = try #require(Self.prompts(in: twentyNine.request([.coarse, .fine, .background])).first?.android)
        #expect(d29.choices == [.allowAllTheTime, .whileUsing, .dontAllow])
        _ = try twentyNine.answer(.allowAllTheTime)
        #expect(twentyNine.snapshot.status == .authorizedAlways)
    }

    @Test("AN2, AN8: precise whileUsing → authorizedWhenInUse full; approximate → reduced; the reply carries the grants")
    func testAN2_grantsMapToStatusAndAccuracy() throws {
        var phone = Phone()
        _ = phone.request([.coarse, .fine])
        let answer = try phone.answer(.whileUsing, precise: false)
        let reply = try #require(Self.reply(in: answer.effects))
        #expect(reply.status == .authorizedWhenInUse)
        #expect(reply.accuracy == .reduced)
        #expect(reply.android?.grants == AndroidGrants(coarse: true, fine: false))
        #expect(phone.engine.permissions[Self.app]?.status == .authorizedWhenInUse)  // the iOS-shaped mirror

        var precise = Phone()
        _ = precise.request([.coarse, .fine])
        _ = try precise.answer(.allowWhileUsing)  // iOS's name for the same button
        #expect(precise.snapshot.accuracy == .full)
        #expect(precise.snapshot.android?.grants == AndroidGrants(coarse: true, fine: true))
    }

    // MARK: - AN5, AN6: don't ask again; no dialog in the background

    @Test("AN5: one denial may ask again (USER_SET); two make it don't ask again (USER_FIXED) until reset")
    func testAN5_denyTwiceIsDontAskAgain() throws {
        var phone = Phone()
        _ = phone.request([.coarse, .fine])
        _ = try phone.answer(.dontAllow)
        #expect(phone.snapshot.status == .denied)
        #expect(Self.prompts(in: phone.request([.coarse, .fine])).count == 1)  // user-set: asks again
        _ = try phone.answer(.dontAllow)
        #expect(phone.engine.androidFacets(of: Self.app).userFixed)
        let third = phone.request([.coarse, .fine])
        #expect(Self.prompts(in: third).isEmpty)
        #expect(Self.reply(in: third)?.status == .denied)
        _ = phone.engine.resetPermissions(app: Self.app)
        #expect(phone.snapshot.status == .notDetermined)
        #expect(Self.prompts(in: phone.request([.coarse, .fine])).count == 1)
    }

    @Test("AN6: a request from the background shows no dialog and hears the grants at once")
    func testAN6_backgroundRequestNoDialog() {
        var phone = Phone()
        _ = phone.engine.setAppState(1, .background, at: phone.now)
        let effects = phone.request([.coarse, .fine])
        #expect(Self.prompts(in: effects).isEmpty)
        #expect(Self.reply(in: effects)?.status == .notDetermined)
    }

    // MARK: - AN7: background

    @Test("AN7: from API 30 background alone shows no dialog; Settings grants it: authorizedAlways")
    func testAN7_backgroundIsSettingsOnly() throws {
        var phone = Phone(api: 30)
        #expect(AndroidRequestRules.problem(with: [.coarse, .background], api: 30) != nil)
        #expect(AndroidRequestRules.problem(with: [.coarse, .background], api: 29) == nil)
        _ = phone.request([.coarse, .fine])
        _ = try phone.answer(.whileUsing)
        let effects = phone.request([.background])
        #expect(Self.prompts(in: effects).isEmpty)
        #expect(Self.reply(in: effects)?.status == .authorizedWhenInUse)
        let (_, set) = phone.engine.setAndroidGrants(app: Self.app, grants: AndroidGrants(coarse: true, fine: true, background: true), denials: nil, at: phone.now)
        #expect(set.contains { if case .authorizationChanged(1, let s) = $0 { return s.status == .authorizedAlways } else { return false } })
    }

    // MARK: - AN10–AN13: only this time

    @Test("AN10: only this time is revoked 60 s after the app leaves the foreground: 59 s keeps, 61 s revokes")
    func testAN10_onlyThisTimeRevokedSixtySecondsAfterBackground() throws {
        var phone = Phone()
        _ = phone.request([.coarse, .fine])
        _ = try phone.answer(.onlyThisTime)
        #expect(phone.snapshot.status == .authorizedWhenInUse)
        #expect(phone.snapshot.android?.oneTime == true)
        let left = phone.now.monotonic
        let effects = phone.engine.setAppState(1, .background, at: phone.now)
        #expect(Self.deadlines(in: effects) == [left + 60 * Self.second])
        phone.advance(seconds: 59)
        #expect(phone.tick().isEmpty)
        #expect(phone.snapshot.status == .authorizedWhenInUse)
        phone.advance(seconds: 2)
        #expect(!phone.tick().isEmpty)
        #expect(phone.snapshot.status == .notDetermined)
    }

    @Test("AN10: coming back before 60 s stops the timer")
    func testAN10_foregroundAgainKeepsOneTime() throws {
        var phone = Phone()
        _ = phone.request([.coarse, .fine])
        _ = try phone.answer(.onlyThisTime)
        _ = phone.engine.setAppState(1, .background, at: phone.now)
        phone.advance(seconds: 30)
        _ = phone.engine.setAppState(1, .foreground, at: phone.now)
        phone.advance(seconds: 40)
        _ = phone.tick()
        #expect(phone.snapshot.android?.oneTime == true)
    }

    @Test("AN11: 5 s after the last session closes: a reconnect at 4 s keeps it, none by 6 s revokes it")
    func testAN11_onlyThisTimeFiveSecondsAfterLastSession() throws {
        var phone = Phone()
        _ = phone.request([.coarse, .fine])
        _ = try phone.answer(.onlyThisTime)
        let closed = phone.now.monotonic
        #expect(Self.deadlines(in: phone.engine.closeSession(1, at: phone.now)) == [closed + 5 * Self.second])
        phone.advance(seconds: 4)
        _ = phone.tick()
        phone.engine.openSession(2, app: Self.app, state: .foreground, at: phone.now)
        phone.advance(seconds: 10)
        _ = phone.tick()
        #expect(phone.engine.authorization(of: 2).android?.oneTime == true)
        _ = phone.engine.closeSession(2, at: phone.now)
        phone.advance(seconds: 6)
        _ = phone.tick()
        phone.engine.openSession(3, app: Self.app, state: .foreground, at: phone.now)
        #expect(phone.engine.authorization(of: 3).status == .notDetermined)
    }

    @Test("AN12: only this time is never stored")
    func testAN12_oneTimeNotStored() throws {
        var phone = Phone()
        _ = phone.request([.coarse, .fine])
        let answer = try phone.answer(.onlyThisTime)
        for case .persistAndroidPermission(_, let entry?) in answer.effects { #expect(entry.grants == .none) }
        #expect(phone.engine.permissions[Self.app] == nil)
    }

    @Test("AN13: a location foreground service started while visible holds the revocation off; stopped 120 s after leaving the foreground, the grant goes at once")
    func testAN13_foregroundServiceKeepsOneTime() throws {
        var phone = Phone()
        _ = phone.request([.coarse, .fine])
        _ = try phone.answer(.onlyThisTime)
        _ = phone.engine.setForegroundService(1, running: true, at: phone.now)
        _ = phone.engine.setAppState(1, .background, at: phone.now)
        #expect(phone.engine.locationAccuracy(for: 1) == .full)  // while-in-use access goes on
        phone.advance(seconds: 120)
        _ = phone.tick()
        #expect(phone.snapshot.android?.oneTime == true)
        _ = phone.engine.setForegroundService(1, running: false, at: phone.now)
        #expect(phone.snapshot.status == .notDetermined)
    }

    @Test("AN13: the 60 s count from leaving the foreground, not from the service's end: stopped at 30 s, the grant goes at 60 s")
    func testAN13_sixtySecondsCountFromLeavingForeground() throws {
        var phone = Phone()
        _ = phone.request([.coarse, .fine])
        _ = try phone.answer(.onlyThisTime)
        _ = phone.engine.setForegroundService(1, running: true, at: phone.now)
        let left = phone.now.monotonic
        _ = phone.engine.setAppState(1, .background, at: phone.now)
        phone.advance(seconds: 30)
        let stopped = phone.engine.setForegroundService(1, running: false, at: phone.now)
        #expect(Self.deadlines(in: stopped) == [left + 60 * Self.second])
        phone.advance(seconds: 29)
        _ = phone.tick()
        #expect(phone.snapshot.android?.oneTime == true)
        phone.advance(seconds: 2)
        _ = phone.tick()
        #expect(phone.snapshot.status == .notDetermined)
    }

    @Test("AN13: a foreground service started from the background does not count")
    func testAN13_serviceFromBackgroundIgnored() throws {
        var phone = Phone()
        _ = phone.request([.coarse, .fine])
        _ = try phone.answer(.onlyThisTime)
        _ = phone.engine.setAppState(1, .background, at: phone.now)
        _ = phone.engine.setForegroundService(1, running: true, at: phone.now)
        phone.advance(seconds: 61)
        _ = phone.tick()
        #expect(phone.snapshot.status == .notDetermined)
    }

    // MARK: - AN14: unused apps

    @Test("AN14: unused 90 days resets at the 15-day check; 89 days keeps")
    func testAN14_unusedAppsResetAfterNinetyDays() throws {
        var phone = Phone()
        _ = phone.request([.coarse, .fine])
        _ = try phone.answer(.whileUsing)
        _ = phone.engine.closeSession(1, at: phone.now)  // last used now
        let lastUse = phone.now.monotonic
        for _ in 1...5 {  // five checks: days 15…75 after the first session
            phone.monotonic += 15 * Self.day
            _ = phone.tick()
        }
        phone.monotonic = lastUse + 89 * Self.day
        _ = phone.engine.reviewUnusedApps(at: phone.now)
        #expect(phone.engine.android.apps[Self.app]?.grants.coarse == true)
        phone.monotonic = lastUse + 90 * Self.day
        let review = phone.engine.reviewUnusedApps(at: phone.now)
        #expect(review.contains(.persistAndroidPermission(app: Self.app, nil)))
        #expect(Self.deadlines(in: review) == [phone.now.monotonic + 15 * Self.day])
        #expect(phone.engine.android.apps[Self.app] == nil)
    }

    @Test("AN14: the check runs every 15 days from the first session: last used on day 0, kept by day 75's check, reset by day 90's")
    func testAN14_checkEveryFifteenDays() {
        let stored = AndroidAppPermissions(grants: AndroidGrants(coarse: true), updated: Timestamp(nanoseconds: 0))
        var phone = Phone(stored: [Self.app: stored])
        let opened = phone.now.monotonic
        _ = phone.engine.closeSession(1, at: phone.now)  // the app's last use
        let timers = phone.engine.androidFacets(of: Self.app).timers
        #expect(timers.contains { $0.name == .unusedAppsCheck && $0.deadline == opened + 15 * Self.day })
        for check in 1...5 {
            phone.monotonic = opened + Int64(check) * 15 * Self.day
            _ = phone.tick()
            #expect(phone.engine.android.apps[Self.app] != nil, "the check of day \(check * 15) keeps it")
        }
        phone.monotonic = opened + 90 * Self.day - 1
        _ = phone.tick()
        #expect(phone.engine.android.apps[Self.app] != nil, "no check runs between day 75 and day 90")
        phone.monotonic = opened + 90 * Self.day
        _ = phone.tick()
        #expect(phone.engine.android.apps[Self.app] == nil)
    }

    @Test("AN10: an app seen in the foreground after its deadline, before the check ran, has lost the grant")
    func testAN10_deadlinePassedBeforeForeground() throws {
        var phone = Phone()
        _ = phone.request([.coarse, .fine])
        _ = try phone.answer(.onlyThisTime)
        _ = phone.engine.setAppState(1, .background, at: phone.now)
        phone.advance(seconds: 60)
        _ = phone.engine.setAppState(1, .foreground, at: phone.now)
        #expect(phone.snapshot.status == .notDetermined)
    }

    @Test("AN3, L12: a policy answers the dialog with its nearest button: allowOnce at API 29 is While using")
    func testAN3_policyAtTwentyNine() {
        var phone = Phone(api: 29)
        _ = phone.engine.setPolicy(PromptPolicy(choice: .allowOnce))
        let effects = phone.request([.coarse, .fine])
        #expect(Self.reply(in: effects)?.status == .authorizedWhenInUse)
        #expect(phone.snapshot.android?.oneTime == false)
    }

    @Test("AN11, AN10: closed 10 s after leaving the foreground and back in the background 2 s later: the 60 s still count from the departure")
    func testAN11_reconnectInBackgroundKeepsTheCount() throws {
        var phone = Phone()
        _ = phone.request([.coarse, .fine])
        _ = try phone.answer(.onlyThisTime)
        let left = phone.now.monotonic
        _ = phone.engine.setAppState(1, .background, at: phone.now)
        phone.advance(seconds: 10)
        _ = phone.engine.closeSession(1, at: phone.now)
        phone.advance(seconds: 2)
        let reopened = phone.engine.openSession(2, app: Self.app, state: .background, at: phone.now)
        #expect(Self.deadlines(in: reopened).contains(left + 60 * Self.second))
        phone.monotonic = left + 59 * Self.second
        _ = phone.tick()
        #expect(phone.engine.authorization(of: 2).android?.oneTime == true)
        phone.monotonic = left + 60 * Self.second
        _ = phone.tick()
        #expect(phone.engine.authorization(of: 2).status == .notDetermined)
    }
}
