import SextantCore
import SextantProtocol
import SextantStore

/// Every app's regions and what was decided of them (``RegionMonitor``, RULES R1–R9),
/// changed only through the operations below: by the region methods and by each decided
/// fix (`Hub+Regions`).
final class RegionMonitoring {
    private(set) var monitor: RegionMonitor

    /// The stored regions are monitored again, every one: a lower `--max-regions` than
    /// when they were stored refuses only new ones (R12).
    init(maxRegionsPerApp: Int, stored: [StoredRegion]) {
        monitor = RegionMonitor(maxRegionsPerApp: maxRegionsPerApp)
        for entry in stored { monitor.restore(entry.region, for: entry.app) }
    }

    /// Monitors the region; returns the one it replaced, if any.
    func monitor(_ region: CircularRegion, for app: String) throws(RegionRefusal) -> CircularRegion? {
        let replaced = monitor.regions(of: app).first { $0.identifier == region.identifier }
        try monitor.monitor(region, for: app)
        return replaced
    }

    /// Puts back what `monitor` replaced, or removes what it added (its write failed).
    func undoMonitor(_ region: CircularRegion, replacing replaced: CircularRegion?, for app: String) {
        if let replaced { monitor.restore(replaced, for: app) } else { monitor.stop(region.identifier, for: app) }
    }

    func stop(_ identifier: String, for app: String) -> Bool { monitor.stop(identifier, for: app) }

    /// The transitions a decided fix makes, app by app.
    func evaluate(_ fix: LocationFix) -> [RegionTransition] { monitor.evaluate(fix) }

    func hasRegions(_ app: String) -> Bool { monitor.hasRegions(app) }
}

extension CircularRegion {
    /// The region as `region.list` answers it, with its state.
    func wire(state: RegionState?) -> WireRegion {
        WireRegion(
            identifier: identifier, latitude: latitude, longitude: longitude, radius: radius, notifyOnEntry: notifyOnEntry,
            notifyOnExit: notifyOnExit, loiteringDelay: loiteringDelay, notifyInitialState: notifyInitialState, hysteresis: hysteresis,
            state: state.map { RegionStateName(rawValue: $0.rawValue)! })
    }
}

extension RegionTransition {
    /// The `region` event's params: no coordinates.
    var wire: RegionEvent {
        let (name, state): (RegionTransitionName, RegionStateName)
        switch kind {
        case .enter: (name, state) = (.enter, .inside)
        case .exit: (name, state) = (.exit, .outside)
        case .dwell: (name, state) = (.dwell, .inside)
        case .state(let decided): (name, state) = (.state, RegionStateName(rawValue: decided.rawValue)!)
        }
        return RegionEvent(identifier: identifier, transition: name, state: state, time: time)
    }
}

extension RegionRefusal {
    var rpcError: RPCError {
        switch self {
        case .invalid(let message): return .invalidParams(message)
        case .tooMany(let limit): return RPCError(.tooManyRegions, "an app may monitor at most \(limit) regions; stop one first (region.stop)")
        }
    }
}
