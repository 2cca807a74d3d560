import SextantCore
import SextantProtocol
import Testing

/// The Motion & Fitness prompt and the ACTIVITY_RECOGNITION dialog in the authorization
/// engine (docs/motion.md A13–A16): calls in, effects out.
@Suite("Motion & Fitness and ACTIVITY_RECOGNITION prompts (A13–A16)")
struct MotionAuthorizationTests {
    static let app = "com.example.fit"
    static let now = EngineTime(monotonic: 0, wall: Timestamp(nanoseconds: 1_700_000_000_000_000_000))
    static let described = MotionDeclaration(motionUsageDescription: "Counts your steps")

    static func engine(_ platform: DevicePlatform, state: AppState = .foreground, policy: PromptPolicy = .ask) -> AuthorizationEngine {
        var engine = AuthorizationEngine(platform: platform, policy: policy)
        _ = engine.openSession(1, app: app, state: state, at: now)
        return engine
    }

    static func persisted(_ effects: [AuthorizationEffect]) -> [MotionAuthorizationStatus?] {
        effects.compactMap { if case .persistMotionPermission(_, let status) = $0 { return status } else { return nil } }
    }

    @Test("A13: iOS's first start from notDetermined opens the motionFitness prompt; a second call joins it; allow stores authorized")
    func testA13_iosPromptAllow() throws {
        var engine = Self.engine(.ios)
        let (first, effects) = engine.requestMotion(1, declaration: Self.described, explicit: false, at: Self.now)
        guard case .prompting(let id) = first else { Issue.record("no prompt: \(first)"); return }
        #expect(effects == [.promptOpened(engine.prompts[0])] && engine.prompts[0].kind == .motionFitness)
        #expect(engine.requestMotion(1, declaration: Self.described, explicit: false, at: Self.now).0 == .prompting(id), "joins")
        #expect(engine.prompts.count == 1)
        #expect(throws: AuthorizationEngine.AnswerError.self) { try engine.answer(id, choice: .allowWhileUsing, precise: true, at: Self.now) }
        let answer = try engine.answer(id, choice: .allow, precise: true, at: Self.now)
        #expect(Self.persisted(answer.effects) == [.authorized] && answer.effects.contains(.motionPermissionChanged(app: Self.app)))
        #expect(engine.motionStatus(of: Self.app) == .authorized && engine.prompts.isEmpty)
        #expect(engine.requestMotion(1, declaration: Self.described, explicit: false, at: Self.now).0 == .decided(.authorized, why: nil))
    }

    @Test("A13: Don't Allow stores denied; iOS never asks again (denied is answered at once)")
    func testA13_iosDontAllow() throws {
        var engine = Self.engine(.ios)
        guard case .prompting(let id) = engine.requestMotion(1, declaration: Self.described, explicit: false, at: Self.now).0 else { return }
        _ = try engine.answer(id, choice: .dontAllow, precise: true, at: Self.now)
        #expect(engine.motionStatus(of: Self.app) == .denied)
        #expect(engine.requestMotion(1, declaration: Self.described, explicit: true, at: Self.now).0 == .decided(.denied, why: nil))
    }

    @Test("A14: without NSMotionUsageDescription iOS opens no prompt and refuses, saying so; A13: nor from the background")
    func testA14_noUsageDescription() {
        var engine = Self.engine(.ios)
        guard case .decided(.notDetermined, let why?) = engine.requestMotion(1, declaration: MotionDeclaration(), explicit: false, at: Self.now).0 else {
            Issue.record("expected a refusal"); return
        }
        #expect(why.contains("NSMotionUsageDescription") && engine.prompts.isEmpty)
        var background = Self.engine(.ios, state: .background)
        guard case .decided(.notDetermined, let reason?) = background.requestMotion(1, declaration: Self.described, explicit: false, at: Self.now).0 else {
            Issue.record("expected a refusal"); return
        }
        #expect(reason.contains("foreground") && background.prompts.isEmpty)
    }

    @Test("A15: Android opens the dialog only on the explicit request, in the foreground, when the manifest declares ACTIVITY_RECOGNITION")
    func testA15_androidDialog() {
        var engine = Self.engine(.android(api: 34))
        guard case .decided(.notDetermined, let why?) = engine.requestMotion(1, declaration: MotionDeclaration(), explicit: false, at: Self.now).0 else {
            Issue.record("a start must not prompt on Android"); return
        }
        #expect(why.contains("activity.requestAuthorization"))
        let undeclared = MotionDeclaration(androidPermissions: ["HIGH_SAMPLING_RATE_SENSORS"])
        guard case .decided(_, let reason?) = engine.requestMotion(1, declaration: undeclared, explicit: true, at: Self.now).0 else { return }
        #expect(reason.contains("manifest") && engine.prompts.isEmpty)
        let declared = MotionDeclaration(androidPermissions: ["android.permission.ACTIVITY_RECOGNITION"])
        guard case .prompting = engine.requestMotion(1, declaration: declared, explicit: true, at: Self.now).0 else { Issue.record("no dialog"); return }
        #expect(engine.prompts.map(\.kind) == [.androidActivityRecognition])
    }

    @Test("A15: denied twice in a row, Android shows the dialog no more; the control side's notDetermined lets it ask again")
    func testA15_deniedTwice() throws {
        var engine = Self.engine(.android(api: 30))
        for _ in 0..<2 {
            guard case .prompting(let id) = engine.requestMotion(1, declaration: MotionDeclaration(), explicit: true, at: Self.now).0 else {
                Issue.record("no dialog"); return
            }
            _ = try engine.answer(id, choice: .dontAllow, precise: true, at: Self.now)
        }
        guard case .decided(.denied, let why?) = engine.requestMotion(1, declaration: MotionDeclaration(), explicit: true, at: Self.now).0 else { return }
        #expect(why.contains("twice") && engine.prompts.isEmpty)
        _ = engine.setMotionPermission(app: Self.app, .notDetermined)
        guard case .prompting = engine.requestMotion(1, declaration: MotionDeclaration(), explicit: true, at: Self.now).0 else {
            Issue.record("reset must let it ask"); return
        }
    }

    @Test("A16: a prompt policy answers at once (dontAllow as itself, any grant as allow); the background cancels an open prompt (L6)")
    func testA16_policyAndBackground() {
        var allowing = Self.engine(.ios, policy: PromptPolicy(choice: .allowWhileUsing))
        #expect(allowing.requestMotion(1, declaration: Self.described, explicit: false, at: Self.now).0 == .decided(.authorized, why: nil))
        var denying = Self.engine(.android(api: 36), policy: PromptPolicy(choice: .dontAllow))
        guard case .decided(.denied, _) = denying.requestMotion(1, declaration: MotionDeclaration(), explicit: true, at: Self.now).0 else {
            Issue.record("the policy did not answer"); return
        }
        var engine = Self.engine(.ios)
        _ = engine.requestMotion(1, declaration: Self.described, explicit: false, at: Self.now)
        let effects = engine.setAppState(1, .background, at: Self.now)
        #expect(effects.contains { if case .promptClosed(let p, .cancelled(.appInBackground)) = $0 { return p.kind == .motionFitness } else { return false } })
        #expect(engine.motionStatus(of: Self.app) == .notDetermined)
    }
}
