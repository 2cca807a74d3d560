/// Which uid each app id belongs to (docs/security.md "App ids and uids"), and what that
/// costs each uid: a value, changed only by Hub+Store.
///
/// A binding is stored (table `app_owner`) in the same transaction as the first thing the
/// app id holds on disk: a decision, a grid shift, a region. Until then it is held here
/// only, for as long as the app id has a live session, and forgotten with its last one: an
/// app id that says `hello` and stores nothing costs nothing durable.
struct AppOwners {
    /// Bindings on disk, or in a write that is on its way.
    private(set) var stored: [String: UInt32]
    /// Bindings of app ids with a live session and nothing on disk.
    private(set) var unwritten: [String: UInt32] = [:]
    /// Stored bindings whose first write has not completed: every write of the app's
    /// carries its binding again until one has, so that no row of the app reaches the disk
    /// without its owner.
    private(set) var confirming: Set<String> = []
    /// How many stored bindings each uid holds.
    private(set) var storedCount: [UInt32: Int] = [:]
    /// Every app id bound to each uid, stored or not.
    private(set) var appsByUID: [UInt32: Set<String>] = [:]

    init(stored: [String: UInt32]) {
        self.stored = stored
        for (app, uid) in stored {
            storedCount[uid, default: 0] += 1
            appsByUID[uid, default: []].insert(app)
        }
    }

    /// The uid an app id is bound to, stored or not.
    func owner(of app: String) -> UInt32? { stored[app] ?? unwritten[app] }

    /// The stored binding of an app id.
    subscript(app: String) -> UInt32? { stored[app] }

    func apps(of uid: UInt32) -> Set<String> { appsByUID[uid] ?? [] }

    func storedCount(of uid: UInt32) -> Int { storedCount[uid] ?? 0 }

    /// Binds an app id that is bound to no one, in memory only.
    mutating func bindUnwritten(_ app: String, to uid: UInt32) {
        guard owner(of: app) == nil else { return }
        unwritten[app] = uid
        appsByUID[uid, default: []].insert(app)
    }

    /// Its last session ended: an unwritten binding goes.
    mutating func forgetUnwritten(_ app: String) {
        guard let uid = unwritten.removeValue(forKey: app) else { return }
        removeFromUID(app, uid)
    }

    /// The binding goes into a write: counted as stored from now on.
    mutating func beginStoring(_ app: String, as uid: UInt32) {
        if unwritten.removeValue(forKey: app) == nil { appsByUID[uid, default: []].insert(app) }
        stored[app] = uid
        storedCount[uid, default: 0] += 1
        confirming.insert(app)
    }

    /// A write that carried the binding is on disk.
    mutating func confirm(_ app: String, as uid: UInt32) {
        confirming.remove(app)
        guard stored[app] == nil, unwritten[app] == nil || unwritten[app] == uid else { return }
        // An earlier write that carried it failed after this one was asked for.
        unwritten[app] = nil
        beginStoring(app, as: uid)
        confirming.remove(app)
    }

    /// The write that first carried the binding failed: it is unwritten again while the
    /// app id has a session (`live`), else forgotten.
    mutating func storingFailed(_ app: String, as uid: UInt32, live: Bool) {
        guard confirming.remove(app) != nil, stored[app] == uid else { return }
        stored[app] = nil
        storedCount[uid, default: 1] -= 1
        if storedCount[uid] == 0 { storedCount[uid] = nil }
        if live { unwritten[app] = uid } else { removeFromUID(app, uid) }
    }

    /// `permissions.unbind`, once written: no binding of any kind is left.
    mutating func unbind(_ app: String) {
        if let uid = stored.removeValue(forKey: app) {
            storedCount[uid, default: 1] -= 1
            if storedCount[uid] == 0 { storedCount[uid] = nil }
            removeFromUID(app, uid)
        }
        confirming.remove(app)
        forgetUnwritten(app)
    }

    private mutating func removeFromUID(_ app: String, _ uid: UInt32) {
        appsByUID[uid]?.remove(app)
        if appsByUID[uid]?.isEmpty == true { appsByUID[uid] = nil }
    }
}

extension HubConfiguration {
    /// How many app ids with something stored one uid other than root and the daemon's own
    /// may hold: far more than one user's apps, far less than a store to fill a disk.
    public static let defaultMaxAppsPerUID = 256
}
