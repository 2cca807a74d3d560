import SextantProtocol

/// Every app's regions and what the device's fixes decide of them (RULES R1–R9): a value,
/// no I/O, no clock; time is the fixes' own. The hub feeds it every decided fix, whatever
/// the source, and announces the transitions it returns, under the authorization rules.
public struct RegionMonitor: Sendable {
    /// How many regions one app may monitor (R8; iOS's 20, Android's 100).
    public var maxRegionsPerApp: Int
    /// Metres beyond the radius a fix must be to count as outside, for a region that
    /// does not say (R2).
    public var defaultHysteresis: Double

    /// Apps in the order they first monitored a region: transitions of one fix come out
    /// app by app in this order.
    private var apps: [AppRegions] = []
    private var index: [String: Int] = [:]
    /// The fix before the one being evaluated: a move between the two is a segment (R5).
    private var lastFix: LocationFix?

    public static let defaultMaxRegionsPerApp = 20
    public static let defaultHysteresisMetres = 20.0

    public init(maxRegionsPerApp: Int = defaultMaxRegionsPerApp, defaultHysteresis: Double = defaultHysteresisMetres) {
        self.maxRegionsPerApp = maxRegionsPerApp
        self.defaultHysteresis = defaultHysteresis
    }

    /// Starts monitoring `region` for `app`, replacing one of the same identifier (whose
    /// state is then unknown again, R4).
    public mutating func monitor(_ region: CircularRegion, for app: String) throws(RegionRefusal) {
        if let problem = region.problem { throw .invalid(problem) }
        let watch = RegionWatch(region, defaultHysteresis: defaultHysteresis)
        guard let slot = index[app] else {
            guard maxRegionsPerApp > 0 else { throw .tooMany(limit: maxRegionsPerApp) }
            index[app] = apps.count
            apps.append(AppRegions(app: app, watches: [watch]))
            return
        }
        if let existing = apps[slot].watches.firstIndex(where: { $0.region.identifier == region.identifier }) {
            apps[slot].watches[existing] = watch
            return
        }
        guard apps[slot].watches.count < maxRegionsPerApp else { throw .tooMany(limit: maxRegionsPerApp) }
        apps[slot].watches.append(watch)
    }

    /// Monitors a region read back from the store, past the limit if it must: what an app
    /// was told it monitors is never dropped for a lower limit (R12).
    public mutating func restore(_ region: CircularRegion, for app: String) {
        let limit = maxRegionsPerApp
        maxRegionsPerApp = .max
        defer { maxRegionsPerApp = limit }
        try? monitor(region, for: app)
    }

    /// Stops monitoring the app's region of that identifier; false when there was none.
    @discardableResult
    public mutating func stop(_ identifier: String, for app: String) -> Bool {
        guard let slot = index[app], let at = apps[slot].watches.firstIndex(where: { $0.region.identifier == identifier }) else {
            return false
        }
        apps[slot].watches.remove(at: at)
        if apps[slot].watches.isEmpty { removeApp(at: slot) }
        return true
    }

    /// Forgets every region of `app` (its permissions reset).
    public mutating func stopAll(for app: String) {
        if let slot = index[app] { removeApp(at: slot) }
    }

    /// The app's regions, in the order they were first monitored.
    public func regions(of app: String) -> [CircularRegion] {
        guard let slot = index[app] else { return [] }
        return apps[slot].watches.map(\.region)
    }

    /// Whether the app monitors any region.
    public func hasRegions(_ app: String) -> Bool { index[app] != nil }

    /// The apps with regions, in the order they first monitored one.
    public var appsMonitoring: [String] { apps.map(\.app) }

    /// How many regions are monitored, all apps together.
    public var count: Int { apps.reduce(0) { $0 + $1.watches.count } }

    /// What was last decided of the app's region; nil when it monitors none of that identifier.
    public func state(of identifier: String, for app: String) -> RegionState? {
        guard let slot = index[app] else { return nil }
        return apps[slot].watches.first { $0.region.identifier == identifier }?.state
    }

    /// The transitions `fix` decides, app by app, each app's in the order they happened
    /// along the move from the previous fix (R5). A fix older than the previous one (a new
    /// replay after live fixes) makes no segment.
    public mutating func evaluate(_ fix: LocationFix) -> [RegionTransition] {
        let previous = lastFix.flatMap { $0.time <= fix.time ? $0 : nil }
        lastFix = fix
        var out: [RegionTransition] = []
        for slot in apps.indices {
            var happened: [(kind: RegionTransitionKind, along: Double, order: Int, identifier: String)] = []
            for at in apps[slot].watches.indices {
                for (kind, along) in apps[slot].watches[at].evaluate(fix, after: previous) {
                    happened.append((kind, along, happened.count, apps[slot].watches[at].region.identifier))
                }
            }
            if happened.count > 1 { happened.sort { ($0.along, $0.order) < ($1.along, $1.order) } }
            for event in happened {
                out.append(RegionTransition(app: apps[slot].app, identifier: event.identifier, kind: event.kind, time: fix.time))
            }
        }
        return out
    }

    private mutating func removeApp(at slot: Int) {
        index[apps[slot].app] = nil
        apps.remove(at: slot)
        for moved in slot..<apps.count { index[apps[moved].app] = moved }
    }
}

/// One app's regions, in the order they were first monitored.
struct AppRegions: Sendable {
    let app: String
    var watches: [RegionWatch]
}
