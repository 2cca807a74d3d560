import Foundation
import SextantCore
import SextantProtocol
import SextantTraces

extension PanelMethods {
    /// At most this many waypoints in a drawn route.
    static let maximumWaypoints = 1000

    /// `panel.route`: the waypoints walked at `speed` as `sextantctl location route` walks
    /// them, written to a private file and played with `replay.start` (its answer); the
    /// file goes once the daemon has loaded it.
    func route(_ params: JSONValue?) async -> Result<JSONValue, RPCError> {
        let trace: Trace
        switch Self.routeTrace(params, now: Date().timeIntervalSince1970.rounded(.down)) {
        case .success(let planned): trace = planned
        case .failure(let error): return .failure(error)
        }
        var template = Array((NSTemporaryDirectory() + "/sextant-panel-route.XXXXXX").utf8CString)
        guard template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) != nil else {
            return .failure(.internalError("cannot create a temporary directory: \(String(cString: strerror(errno)))"))
        }
        let directory = String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/route.jsonl"
        do {
            _ = try TraceExporter.write(trace, as: .sextant, to: path)
        } catch {
            return .failure(.internalError("cannot write the route: \(error)"))
        }
        let loop = params?["loop"]?.boolValue
        return await daemon.call(ReplayStart.method, ReplayStart(path: path, speed: .factor(1), loop: loop).params)
    }

    /// The route's trace, or what is wrong with the params.
    static func routeTrace(_ params: JSONValue?, now: Double) -> Result<Trace, RPCError> {
        guard let points = params?["waypoints"]?.arrayValue else {
            return .failure(.invalidParams("panel.route needs waypoints, a list of {\"lat\", \"lon\"}"))
        }
        guard (2...maximumWaypoints).contains(points.count) else {
            return .failure(.invalidParams("panel.route needs 2 to \(maximumWaypoints) waypoints, not \(points.count)"))
        }
        var waypoints: [RouteWaypoint] = []
        for (index, point) in points.enumerated() {
            guard let lat = point["lat"]?.doubleValue, let lon = point["lon"]?.doubleValue, (-90...90).contains(lat), (-180...180).contains(lon) else {
                return .failure(.invalidParams("waypoint \(index + 1) is not {\"lat\": -90…90, \"lon\": -180…180}"))
            }
            waypoints.append(RouteWaypoint(latitude: lat, longitude: lon))
        }
        let speed = params?["speed"]?.doubleValue ?? GPXReader.defaultSpeed
        guard speed.isFinite, speed > 0, speed <= 1000 else {
            return .failure(.invalidParams("speed must be a number of metres per second above 0 and at most 1000"))
        }
        let planner = RoutePlanner(waypoints: waypoints, speed: speed, spacing: .interval(seconds: 1), start: Timestamp(seconds: now))
        do {
            return .success(try planner.trace())
        } catch {
            return .failure(.invalidParams(error.description))
        }
    }
}
