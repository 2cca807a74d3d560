import SextantCore
import SextantProtocol

/// One change to the store. A batch of changes is written in one transaction: all of it
/// or none of it is on disk.
public enum StoreChange: Sendable, Equatable {
    /// An app's decision (RULES L2); nil forgets it.
    case permission(app: String, StoredPermission?)
    /// The Location Services switch (L1).
    case servicesEnabled(Bool)
    /// The auto-answer policy (L12).
    case policy(PromptPolicy)
    /// An app's grid shift for reduced accuracy (L10), made once and kept.
    case gridOffset(app: String, LocationFudger)
    /// The uid an app id belongs to (docs/security.md); nil unbinds it.
    case owner(app: String, uid: UInt32?)
    /// A region an app monitors (RULES R12), replacing one of the same identifier.
    case region(app: String, CircularRegion)
    /// A region the app no longer monitors.
    case regionRemoved(app: String, identifier: String)
    /// The zone set by hand (RULES Z9); nil: the zone follows the position.
    case timeZoneOverride(String?)
    /// An app's Motion & Fitness status (RULES A11); nil forgets it.
    case motionPermission(app: String, MotionAuthorizationStatus?)
    /// Which phone the state directory's decisions belong to (`sextantd --platform`).
    case platform(DevicePlatform)
    /// An app's Android permissions (docs/platforms.md AN19); nil forgets them.
    case androidPermission(app: String, AndroidAppPermissions?)
    /// An iOS app's provisional and Always-asked facets (docs/platforms.md I2, I6); nil forgets them.
    case iosFacets(app: String, IOSAppFacets?)
    /// Android's ACTIVITY_RECOGNITION denials in a row, 1 or 2 (docs/platforms.md AN42); nil forgets them.
    case motionDenials(app: String, Int?)
}

extension StoreChange {
    /// The app this change keeps something of on disk, whose owner must be stored with it;
    /// nil for a change that holds nothing of an app (a forgotten decision, a removal).
    public var appHeld: String? {
        switch self {
        case .permission(let app, _?), .gridOffset(let app, _), .region(let app, _), .motionPermission(let app, _?), .androidPermission(let app, _?):
            return app
        case .permission(_, nil), .servicesEnabled, .policy, .owner, .regionRemoved, .timeZoneOverride, .motionPermission(_, nil), .platform,
            .androidPermission(_, nil):
            return nil
        case .iosFacets(let app, let facets): return facets == nil ? nil : app
        case .motionDenials(let app, let denials): return denials == nil ? nil : app
        }
    }
}

/// A region as stored: whose it is, and the region.
public struct StoredRegion: Sendable, Equatable {
    public var app: String
    public var region: CircularRegion

    public init(app: String, region: CircularRegion) {
        self.app = app
        self.region = region
    }
}

/// Everything the store holds, as read at start-up.
public struct StoreSnapshot: Sendable, Equatable {
    public var permissions: [String: StoredPermission]
    public var servicesEnabled: Bool
    public var policy: PromptPolicy
    public var fudgers: [String: LocationFudger]
    /// App id → the uid it is bound to.
    public var owners: [String: UInt32]
    /// Every app's regions, in the order they were first monitored.
    public var regions: [StoredRegion] = []
    /// The zone set by hand (RULES Z9), nil when automatic.
    public var timeZoneOverride: String? = nil
    /// App id → its Motion & Fitness status (RULES A11).
    public var motionPermissions: [String: MotionAuthorizationStatus] = [:]
    /// The phone the decisions were made on; nil in a store from before platforms existed.
    public var platform: DevicePlatform? = nil
    /// App id → its Android permissions (docs/platforms.md AN19).
    public var androidPermissions: [String: AndroidAppPermissions] = [:]
    /// App id → its iOS facets (docs/platforms.md I2, I6).
    public var iosFacets: [String: IOSAppFacets] = [:]
    /// App id → Android's ACTIVITY_RECOGNITION denials in a row (docs/platforms.md AN42).
    public var motionDenials: [String: Int] = [:]
}

/// A store that cannot be used. The daemon stops with this message; the store is never
/// reset behind the user's back.
public struct StoreError: Error, Sendable, CustomStringConvertible {
    public var path: String
    public var reason: String
    public var description: String { "permission store \(path): \(reason)" }

    public init(path: String, reason: String) {
        self.path = path
        self.reason = reason
    }
}
