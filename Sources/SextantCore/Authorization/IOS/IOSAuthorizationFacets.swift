import SextantProtocol

/// What the store keeps of an iOS app besides its status and accuracy (docs/platforms.md).
public struct IOSAppFacets: Sendable, Equatable {
    /// `authorizedAlways` given provisionally: While Using answered to an Always request (I2).
    /// The app reads `authorizedAlways`; Settings (`permissions list`) says While Using.
    public var provisional: Bool
    /// The app has had its one Always request of the install (I6): later ones change nothing.
    public var alwaysAsked: Bool

    public init(provisional: Bool = false, alwaysAsked: Bool = false) {
        self.provisional = provisional
        self.alwaysAsked = alwaysAsked
    }

    /// Nothing to keep: the row is deleted.
    public var isEmpty: Bool { !provisional && !alwaysAsked }
}

/// What one iOS app session brings and holds: what it declared at `hello`, and the purpose
/// keys granted full accuracy for as long as it is in use (I9). Goes with the session.
public struct IOSSessionFacets: Sendable, Equatable {
    public var declaration = IOSAppDeclaration()
    public var temporaryFullAccuracy: Set<String> = []
    /// A background location session the app started in the foreground with the indicator
    /// (`location.start {background: true, showsIndicator: true}`): in use while it runs (I8).
    public var indicatorSession = false
    /// Opened in the background and not in the foreground since: no grace to run (I8).
    public var launchedInBackground = false

    public init() {}
}

/// The iOS profile's state the authorization engine holds beside L1–L12's.
public struct IOSAuthorizationFacets: Sendable, Equatable {
    /// App id → its stored facets; an app with none is absent.
    public internal(set) var apps: [String: IOSAppFacets]

    public init(apps: [String: IOSAppFacets] = [:]) { self.apps = apps }

    /// How long an event that raised the upgrade prompt is kept for delivery should the
    /// person choose Always (I4). Apple publishes no number ("stored for a limited time…
    /// events that are too old are dropped", WWDC19 session 705): 5 minutes, chosen.
    public static let upgradeHoldLimit: Int64 = 300_000_000_000
    /// At most this many events are held per session while the upgrade prompt is open; the
    /// oldest goes first (a client cannot grow the daemon).
    public static let maxHeldEvents = 16
}

/// `authorization.requestTemporaryFullAccuracy` refused as iOS refuses it, with
/// `kCLErrorPromptDeclined` (I10): 1014 `promptDeclined`, saying which case.
public struct IOSPromptDeclined: Error, Sendable, Equatable {
    public var reason: String
    public init(_ reason: String) { self.reason = reason }
    public var rpcError: RPCError { RPCError(.promptDeclined, "prompt declined: \(reason)") }
}
