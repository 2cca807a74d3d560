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
    /// Every region by its number: numbers are handed out in order and kept by a region
    /// replaced in place, so (app's number, region's number) is the order transitions come in.
    private var watches: [Int: MonitoredWatch] = [:]
    private var nextNumber = 0
    /// Where the regions are: a fix is checked against those near it (``RegionGrid``).
    private var grid = RegionGrid()
    /// Regions not known to be outside (unknown, or inside): checked on every fix, wherever
    /// they are, so that an exit or a first determination is never missed.
    private var unsettled: Set<Int> = []
    /// The fix before the one being evaluated: a move between the two is a segment (R5).
    private var lastFix: LocationFix?
    /// false: every fix is checked against every region, as a reference to compare with.
    public var indexed = true
    /// How many regions the last fix was checked against.
    public private(set) var lastLookedAt = 0

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
            apps.append(AppRegions(app: app, number: nextNumber, numbers: []))
            apps[apps.count - 1].numbers.append(add(watch, app: apps[apps.count - 1]))
            return
        }
        if let existing = apps[slot].numbers.first(where: { watches[$0]?.watch.region.identifier == region.identifier }) {
            forget(existing)
            place(watch, number: existing, app: apps[slot])
            return
        }
        guard apps[slot].numbers.count < maxRegionsPerApp else { throw .tooMany(limit: maxRegionsPerApp) }
        apps[slot].numbers.append(add(watch, app: apps[slot]))
    }

    /// A new region's number, the region held under it.
    private mutating func add(_ watch: RegionWatch, app: AppRegions) -> Int {
        let number = nextNumber
        nextNumber += 1
        place(watch, number: number, app: app)
        return number
    }

    private mutating func place(_ watch: RegionWatch, number: Int, app: AppRegions) {
        watches[number] = MonitoredWatch(watch: watch, app: app.number, appName: app.app)
        grid.insert(number, latitude: watch.region.latitude, longitude: watch.region.longitude, outer: watch.outer)
        if watch.state != .outside { unsettled.insert(number) }
    }

    private mutating func forget(_ number: Int) {
        guard let held = watches.removeValue(forKey: number) else { return }
        grid.remove(number, latitude: held.watch.region.latitude, longitude: held.watch.region.longitude, outer: held.watch.outer)
        unsettled.remove(number)
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
        guard let slot = index[app], let at = apps[slot].numbers.firstIndex(where: { watches[$0]?.watch.region.identifier == identifier })
        else { return false }
        forget(apps[slot].numbers.remove(at: at))
        if apps[slot].numbers.isEmpty { removeApp(at: slot) }
        return true
    }

    /// Forgets every region of `app` (its permissions reset).
    public mutating func stopAll(for app: String) {
        guard let slot = index[app] else { return }
        for number in apps[slot].numbers { forget(number) }
        removeApp(at: slot)
    }

    /// The app's regions, in the order they were first monitored.
    public func regions(of app: String) -> [CircularRegion] {
        guard let slot = index[app] else { return [] }
        return apps[slot].numbers.compactMap { watches[$0]?.watch.region }
    }

    /// How many regions the app monitors.
    public func count(of app: String) -> Int { index[app].map { apps[$0].numbers.count } ?? 0 }

    /// Whether the app monitors any region.
    public func hasRegions(_ app: String) -> Bool { index[app] != nil }

    /// The apps with regions, in the order they first monitored one.
    public var appsMonitoring: [String] { apps.map(\.app) }

    /// How many regions are monitored, all apps together.
    public var count: Int { watches.count }

    /// What was last decided of the app's region; nil when it monitors none of that identifier.
    public func state(of identifier: String, for app: String) -> RegionState? {
        guard let slot = index[app] else { return nil }
        return apps[slot].numbers.lazy.compactMap { self.watches[$0]?.watch }.first { $0.region.identifier == identifier }?.state
    }

    /// The transitions `fix` decides, app by app, each app's in the order they happened
    /// along the move from the previous fix (R5). A fix older than the previous one (a new
    /// replay after live fixes) makes no segment.
    ///
    /// Only the regions that could change are looked at: those near the fix or the move to
    /// it (``RegionGrid``) and those not known to be outside. Any other is outside and stays
    /// so: the fix is wholly beyond its outer circle (R2), and the move passed nowhere near.
    public mutating func evaluate(_ fix: LocationFix) -> [RegionTransition] {
        let previous = lastFix.flatMap { $0.time <= fix.time ? $0 : nil }
        lastFix = fix
        var out: [RegionTransition] = []
        var happened: [(kind: RegionTransitionKind, along: Double, order: Int, identifier: String)] = []
        var app: (number: Int, name: String)?
        let numbers = candidates(fix, previous)
        lastLookedAt = numbers.count
        for number in numbers {
            guard var held = watches[number] else { continue }
            if held.app != app?.number {
                announce(&happened, app: app?.name, time: fix.time, into: &out)
                app = (held.app, held.appName)
            }
            for (kind, along) in held.watch.evaluate(fix, after: previous) {
                happened.append((kind, along, happened.count, held.watch.region.identifier))
            }
            if held.watch.state == .outside { unsettled.remove(number) } else { unsettled.insert(number) }
            watches[number] = held
        }
        announce(&happened, app: app?.name, time: fix.time, into: &out)
        return out
    }

    /// The regions to look at for a fix, in the order transitions come out: app by app in
    /// the order the apps first monitored, each app's in its regions' order.
    private func candidates(_ fix: LocationFix, _ previous: LocationFix?) -> [Int] {
        let from = previous ?? fix
        let area = RegionGrid.Area(
            south: min(from.latitude, fix.latitude), north: max(from.latitude, fix.latitude),
            west: min(from.longitude, fix.longitude), east: max(from.longitude, fix.longitude),
            margin: max(from.horizontalAccuracy, fix.horizontalAccuracy))
        guard indexed, let near = grid.near(area) else {
            return apps.flatMap(\.numbers)
        }
        var numbers = Set(near)
        numbers.formUnion(unsettled)
        return numbers.sorted { (watches[$0]?.app ?? 0, $0) < (watches[$1]?.app ?? 0, $1) }
    }

    /// One app's transitions of a fix, in the order they happened along the move.
    private func announce(
        _ happened: inout [(kind: RegionTransitionKind, along: Double, order: Int, identifier: String)], app: String?, time: Timestamp,
        into out: inout [RegionTransition]
    ) {
        defer { happened.removeAll(keepingCapacity: true) }
        guard !happened.isEmpty, let app else { return }
        if happened.count > 1 { happened.sort { ($0.along, $0.order) < ($1.along, $1.order) } }
        for event in happened {
            out.append(RegionTransition(app: app, identifier: event.identifier, kind: event.kind, time: time))
        }
    }

    private mutating func removeApp(at slot: Int) {
        index[apps[slot].app] = nil
        apps.remove(at: slot)
        for moved in slot..<apps.count { index[apps[moved].app] = moved }
    }
}

/// One app's regions, in the order they were first monitored. Its number is that of its
/// first region: apps that come later have larger numbers.
struct AppRegions: Sendable {
    let app: String
    let number: Int
    var numbers: [Int]
}

/// A region with the app that monitors it, and that app's number.
struct MonitoredWatch: Sendable {
    var watch: RegionWatch
    let app: Int
    let appName: String
}
