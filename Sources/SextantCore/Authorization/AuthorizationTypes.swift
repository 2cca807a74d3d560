import SextantProtocol

/// Identifies one app session: one connection that said `hello`.
public typealias SessionID = UInt64

/// Correlates a pending `authorization.request` with its eventual answer.
public typealias RequestToken = UInt64

/// The two clocks the authorization engine reads, both handed in by the caller.
public struct EngineTime: Sendable, Equatable {
    /// Monotonic nanoseconds: for durations (allowOnce's 60 s in the background).
    public var monotonic: Int64
    /// Wall time: for the `updated` and `created` stamps people read.
    public var wall: Timestamp

    public init(monotonic: Int64, wall: Timestamp) {
        self.monotonic = monotonic
        self.wall = wall
    }
}

/// A per-app decision as the store keeps it (RULES L2).
public struct StoredPermission: Sendable, Equatable {
    public var status: AuthorizationStatus
    public var accuracy: LocationAccuracy
    public var updated: Timestamp

    public init(status: AuthorizationStatus, accuracy: LocationAccuracy, updated: Timestamp) {
        self.status = status
        self.accuracy = accuracy
        self.updated = updated
    }
}

/// What an app sees of its authorization.
public struct AuthorizationSnapshot: Sendable, Equatable {
    public var status: AuthorizationStatus
    public var accuracy: LocationAccuracy
    /// On an Android phone: the grants behind the status (docs/platforms.md AN2).
    public var android: AndroidSnapshotFacets?

    public init(status: AuthorizationStatus, accuracy: LocationAccuracy) {
        self.status = status
        self.accuracy = accuracy
    }
}

/// The auto-answer policy (RULES L12): `ask` leaves prompts to a person.
public struct PromptPolicy: Sendable, Equatable {
    /// nil means `ask`; otherwise the choice every new authorization prompt gets at once.
    public var choice: PromptChoice?
    public var precise: Bool

    public init(choice: PromptChoice?, precise: Bool = true) {
        self.choice = choice
        self.precise = precise
    }

    public static let ask = PromptPolicy(choice: nil)

    /// `ask` or a choice name, as `--prompt-policy` and `prompts.policy` take it.
    public init?(mode: String, precise: Bool = true) {
        if mode == "ask" {
            self.init(choice: nil, precise: precise)
            return
        }
        guard let choice = PromptChoice(rawValue: mode), choice.isAuthorizationChoice else { return nil }
        self.init(choice: choice, precise: precise)
    }

    public var mode: String { choice?.rawValue ?? "ask" }

    public static let validModes = ["ask"] + PromptChoice.allCases.filter(\.isAuthorizationChoice).map(\.rawValue)
}

/// A prompt or alert waiting for an answer.
public struct Prompt: Sendable, Equatable {
    public var id: String
    public var session: SessionID
    public var app: String
    public var kind: PromptKind
    /// The level asked for; nil for a services-off alert raised by `location.start`.
    public var level: AuthorizationLevel?
    public var created: Timestamp
    /// An Android dialog's permissions and buttons (docs/platforms.md AN3).
    public var android: AndroidDialog? = nil
    /// A temporary full-accuracy prompt's purpose key (docs/platforms.md I9).
    public var purposeKey: String? = nil
}

/// How a prompt ended.
public enum PromptOutcome: Sendable, Equatable {
    case answered(PromptChoice, precise: Bool)
    /// Closed unanswered, and why: a tester who sees a prompt vanish is told what closed it.
    case cancelled(PromptCancellation)
}

/// Why a prompt closed unanswered (its `reason` on the control side).
public enum PromptCancellation: String, Sendable, Equatable {
    /// The app went to the background (L6: the Home button cancels an open prompt).
    case appInBackground
    /// The app's session ended.
    case sessionEnded
}

/// What the engine asks its owner to do. The owner performs effects in order.
public enum AuthorizationEffect: Sendable, Equatable {
    /// The session's effective authorization changed: send it an `authorization` event,
    /// and stop delivering locations at once if it no longer may receive them (L9).
    case authorizationChanged(SessionID, AuthorizationSnapshot)
    /// Answer a pending `authorization.request`.
    case reply(RequestToken, AuthorizationSnapshot)
    case promptOpened(Prompt)
    case promptClosed(Prompt, PromptOutcome)
    /// Persist (or, with nil, delete) an app's stored decision.
    case persistPermission(app: String, StoredPermission?)
    case persistServicesEnabled(Bool)
    case persistPolicy(PromptPolicy)
    /// Every session hears of a switch change (`servicesEnabled` event).
    case servicesEnabledChanged(Bool)
    /// Call `expireAllowOnce(at:)` at this monotonic time.
    case scheduleExpiryCheck(at: Int64)
    /// Persist (or, with nil, delete) an app's Android permissions (docs/platforms.md AN19).
    case persistAndroidPermission(app: String, AndroidAppPermissions?)
    /// Persist (or, with nil, delete) an iOS app's stored facets (docs/platforms.md I2, I7).
    case persistIOSFacets(app: String, IOSAppFacets?)
    /// Persist (or, with nil, delete) an app's Motion & Fitness status (docs/motion.md A11).
    case persistMotionPermission(app: String, MotionAuthorizationStatus?)
    /// An app's Motion & Fitness status changed: what it started may end, what waits may go on (A11–A16).
    case motionPermissionChanged(app: String)
    /// Persist (or, with nil, delete) Android's ACTIVITY_RECOGNITION denials in a row (docs/platforms.md AN42).
    case persistMotionDenials(app: String, Int?)
}

/// Why an app call was refused.
/// Who moves an app between foreground and background: the app itself (`app.update`), or
/// the control side playing the system (`apps.update`), whose word holds (RULES L8a).
public enum AppStateChanger: Sendable, Equatable {
    case app
    case control
}

/// What an app's call came to: the refusal to answer it with, if any, and the effects the
/// owner performs either way (a refused call can still raise the services-off alert, L7).
public struct AuthorizationOutcome: Sendable, Equatable {
    public var refusal: AuthorizationRefusal?
    public var effects: [AuthorizationEffect]

    public init(refusal: AuthorizationRefusal? = nil, effects: [AuthorizationEffect] = []) {
        self.refusal = refusal
        self.effects = effects
    }

    /// The effects of a call that was not refused; the refusal otherwise.
    public func get() throws(AuthorizationRefusal) -> [AuthorizationEffect] {
        if let refusal { throw refusal }
        return effects
    }
}

public enum AuthorizationRefusal: Error, Sendable, Equatable {
    case servicesDisabled
    case notAuthorized

    public var rpcError: RPCError {
        switch self {
        case .servicesDisabled: return RPCError(.servicesDisabled, "Location Services is off")
        case .notAuthorized: return RPCError(.notAuthorized, "the app is not authorized to receive locations")
        }
    }
}

extension AuthorizationEngine {
    /// What answering a prompt came to (`answer(_:choice:precise:at:)`).
    public struct AnswerResult: Sendable, Equatable {
        public var prompt: Prompt
        public var choice: PromptChoice
        /// For an authorization prompt: what the app now has.
        public var authorization: AuthorizationSnapshot?
        public var effects: [AuthorizationEffect]
    }

    public enum AnswerError: Error, Sendable, Equatable {
        case noSuchPrompt(String)
        case invalidChoice(String)
    }
}
