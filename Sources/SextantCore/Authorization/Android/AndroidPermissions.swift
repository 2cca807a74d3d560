import SextantProtocol

/// Android's numbers for the location permissions (docs/platforms.md AN1–AN19), each as
/// AOSP's PermissionController has it.
public enum AndroidPermissionNumbers {
    /// AN10: a one-time grant ends this long after the app leaves the foreground, unless a
    /// foreground service keeps it. PermissionController `permission/utils/Utils.java`,
    /// `ONE_TIME_PERMISSIONS_TIMEOUT_MILLIS` (1 minute).
    public static let oneTimeTimeout: Int64 = 60_000_000_000
    /// AN11: a one-time grant ends this long after the app's last process is gone.
    /// Same file, `ONE_TIME_PERMISSIONS_KILLED_DELAY_MILLIS` (5 s).
    public static let oneTimeKilledDelay: Int64 = 5_000_000_000
    /// AN14: an app unused this long has its permissions reset. PermissionController
    /// `hibernation/HibernationPolicy.kt` (and Android 11's `service/AutoRevokePermissions.kt`),
    /// `DEFAULT_UNUSED_THRESHOLD_MS` (90 days).
    public static let unusedThreshold: Int64 = 90 * day
    /// AN14: how often the unused-apps job runs. `AutoRevokePermissions.kt`,
    /// `DEFAULT_CHECK_FREQUENCY_MS` (15 days).
    public static let unusedCheckInterval: Int64 = 15 * day
    /// AN5: denials in a row after which a request fails without a dialog (USER_FIXED);
    /// developer.android.com/about/versions/11/privacy/permissions ("denies … more than once").
    public static let denialsForDontAskAgain = 2

    static let day: Int64 = 86_400_000_000_000
}

/// What an Android phone keeps of one app's location permissions (AN2, AN5, AN14), stored
/// with the other decisions: the one-time grant is not among them (AN12).
public struct AndroidAppPermissions: Sendable, Equatable {
    public var grants: AndroidGrants
    /// Denials in a row of the dialog: 1 is USER_SET, 2 or more USER_FIXED (AN5).
    public var denials: Int
    /// When the app was last in use (wall time): the unused-apps reset counts from it (AN14).
    public var lastUsed: Timestamp?
    public var updated: Timestamp

    public init(grants: AndroidGrants = .none, denials: Int = 0, lastUsed: Timestamp? = nil, updated: Timestamp) {
        self.grants = grants
        self.denials = denials
        self.lastUsed = lastUsed
        self.updated = updated
    }

    /// FLAG_PERMISSION_USER_SET: the user denied once; the app may ask again (AN5).
    public var userSet: Bool { denials >= 1 }
    /// FLAG_PERMISSION_USER_FIXED: "don't ask again" (AN5).
    public var userFixed: Bool { denials >= AndroidPermissionNumbers.denialsForDontAskAgain }

    /// Whether the app may be shown the dialog for `asked` (AN4, AN5).
    func needsDialog(for asked: Set<AndroidPermission>) -> Bool {
        !userFixed && asked.contains { !grants.holds($0) }
    }
}

/// An "Only this time" grant (AN10–AN12): the app's, not a session's, as Android's is its
/// package's; kept in memory only.
public struct AndroidOneTimeGrant: Sendable, Equatable {
    public var precise: Bool
    /// Monotonic time at which the app left the foreground: the 60 s count from it, even
    /// across a foreground service or a reconnect (AN10, AN13).
    public var leftForeground: Int64?
    /// Monotonic time at which it ends, while a timer runs: the app left the foreground
    /// (AN10) or its last session closed (AN11).
    public var deadline: Int64?
    /// What the running timer is: `oneTimeBackground` or `oneTimeSessionsClosed`.
    public var timer: AndroidTimerName?
}

/// A timer the Android rules run, as `permissions explain` names it.
public enum AndroidTimerName: String, Sendable, Equatable {
    /// AN10: 60 s after the app left the foreground.
    case oneTimeBackground
    /// AN11: 5 s after the app's last session closed.
    case oneTimeSessionsClosed
    /// AN14: the next unused-apps check.
    case unusedAppsCheck
}

/// The Android phone's permission state, read and changed only through `AuthorizationEngine`.
public struct AndroidPermissions: Sendable, Equatable {
    public internal(set) var apps: [String: AndroidAppPermissions]
    public internal(set) var oneTime: [String: AndroidOneTimeGrant] = [:]
    /// Sessions running a foreground service of type location that they started while
    /// visible (AN13): each keeps its app's one-time grant and its while-in-use delivery.
    public internal(set) var foregroundServices: Set<SessionID> = []
    /// When the unused-apps job runs next (monotonic, AN14); nil until the first review.
    public internal(set) var nextUnusedCheck: Int64?

    public init(apps: [String: AndroidAppPermissions] = [:]) { self.apps = apps }

    /// The app's grants with its one-time grant over them.
    public func grants(of app: String) -> AndroidGrants {
        if let once = oneTime[app] { return AndroidGrants(coarse: true, fine: once.precise, background: false) }
        return apps[app]?.grants ?? .none
    }

    /// AN2: what the rest of the daemon reads, as iOS's status and accuracy: background →
    /// authorizedAlways; coarse or fine → authorizedWhenInUse; fine → full, coarse only →
    /// reduced; a denial → denied; never asked → notDetermined.
    public func snapshot(of app: String) -> AuthorizationSnapshot {
        let grants = grants(of: app)
        var snapshot = AuthorizationSnapshot(status: .notDetermined, accuracy: .full)
        if grants.coarse || grants.fine {
            snapshot.status = grants.background ? .authorizedAlways : .authorizedWhenInUse
            snapshot.accuracy = grants.fine ? .full : .reduced
        } else if apps[app]?.userSet == true {
            snapshot.status = .denied
        }
        snapshot.android = AndroidSnapshotFacets(grants: grants, oneTime: oneTime[app] != nil)
        return snapshot
    }

    /// The decision stored for iOS-shaped readers (`permissions list`, the store's
    /// `permission` row): the persistent grants mapped as AN2 says, nil when never asked.
    func storedPermission(of app: String) -> StoredPermission? {
        guard let entry = apps[app], entry.grants != .none || entry.userSet else { return nil }
        var persistent = self
        persistent.oneTime[app] = nil
        let snapshot = persistent.snapshot(of: app)
        return StoredPermission(status: snapshot.status, accuracy: snapshot.accuracy, updated: entry.updated)
    }
}

/// The Android members of an `AuthorizationSnapshot` (AN2): the grants per permission and
/// whether they are one-time, carried to the app's answer and event.
public struct AndroidSnapshotFacets: Sendable, Equatable {
    public var grants: AndroidGrants
    public var oneTime: Bool
}
