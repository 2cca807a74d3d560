import SextantCore
import SextantProtocol

/// `regions.list`: every app's regions, or one app's, with their states as decided.
struct RegionsListMethod: RPCMethod {
    static let name = Method.regionsList
    let app: String?

    init(_ p: Params) throws(RPCError) { app = try RegionsList(p).app }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        let monitor = call.hub.services(RegionsService.self).regions.monitor
        let apps = app.map { [$0] } ?? monitor.appsMonitoring
        let entries = apps.flatMap { app in
            monitor.regions(of: app).map { region in
                AppRegion(app: app, region: region.wire(state: monitor.state(of: region.identifier, for: app)))
            }
        }
        return .result(entries.json)
    }
}

/// `regions.add`: a region for any app, as a test sets up state; no authorization needed.
struct RegionsAddMethod: RPCMethod {
    static let name = Method.regionsAdd
    let app: String
    let region: CircularRegion

    init(_ p: Params) throws(RPCError) {
        let request = try RegionsAdd(p)
        app = request.app
        region = CircularRegion(request.region)
        if let problem = region.problem { throw .invalidParams(problem) }
    }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        .later(try call.hub.services(RegionsService.self).monitorRegion(region, for: app, from: .control).map { JSONValue.object([:]) })
    }
}

/// `regions.remove`.
struct RegionsRemoveMethod: RPCMethod {
    static let name = Method.regionsRemove
    let request: RegionsRemove

    init(_ p: Params) throws(RPCError) { request = try RegionsRemove(p) }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        .later(call.hub.services(RegionsService.self).stopRegion(request.identifier, for: request.app).map { RegionRemoved(removed: $0).json })
    }
}
