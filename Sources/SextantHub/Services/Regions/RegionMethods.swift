import SextantCore
import SextantProtocol

/// `region.monitor`: start monitoring a circular region for the app (RULES R1–R10); the
/// same identifier replaces the region.
struct RegionMonitorMethod: RPCMethod {
    static let name = Method.regionMonitor
    static let requiresSession = true
    let region: CircularRegion

    init(_ p: Params) throws(RPCError) {
        region = CircularRegion(try MonitorRegion(p).region)
        if let problem = region.problem { throw .invalidParams(problem) }
    }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        try call.hub.services(RegionsService.self).checkRegionMonitoring(call.session)
        return .later(try call.hub.services(RegionsService.self).monitorRegion(region, for: call.session.app, from: .app).map { JSONValue.object([:]) })
    }
}

/// `region.stop`: stop monitoring one of the app's regions.
struct RegionStopMethod: RPCMethod {
    static let name = Method.regionStop
    static let requiresSession = true
    let identifier: String

    init(_ p: Params) throws(RPCError) { identifier = try StopMonitoringRegion(p).identifier }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        .later(call.hub.services(RegionsService.self).stopRegion(identifier, for: call.session.app).map { RegionRemoved(removed: $0).json })
    }
}

/// `region.list`: the app's regions, each with its state (R4), `unknown` while the app may
/// not have full-accuracy locations (R10).
struct RegionListMethod: RPCMethod {
    static let name = Method.regionList
    static let requiresSession = true

    init(_ p: Params) throws(RPCError) { _ = try ListRegions(p) }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        let hub = call.hub, session = call.session!
        let monitor = hub.services(RegionsService.self).regions.monitor
        let regions = monitor.regions(of: session.app).map { region in
            region.wire(state: hub.services(RegionsService.self).revealedState(of: region.identifier, for: session))
        }
        return .result(RegionList(regions: regions).json)
    }
}

/// `region.state`: what was last decided of one region (R4, R10).
struct RegionStateMethod: RPCMethod {
    static let name = Method.regionState
    static let requiresSession = true
    let identifier: String

    init(_ p: Params) throws(RPCError) { identifier = try RequestRegionState(p).identifier }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        guard let state = call.hub.services(RegionsService.self).revealedState(of: identifier, for: call.session) else {
            throw .invalidParams("this app monitors no region \"\(identifier)\"")
        }
        return .result(RegionStateResult(state: RegionStateName(rawValue: state.rawValue)!).json)
    }
}
