/// `satellites.start`: the session hears `satellites` events (the sky beside each second of
/// fixes, RULES N8) while the rules let it have full-accuracy locations.
public struct SatellitesStart: ParameterlessRequest, Equatable {
    public typealias Result = EmptyResult
    public static let method = Method.satellitesStart
    public init() {}
}

public struct SatellitesStop: ParameterlessRequest, Equatable {
    public typealias Result = EmptyResult
    public static let method = Method.satellitesStop
    public init() {}
}

/// The `satellites` event's params: the sky (`satellites`, `inView`, `used`) and its time.
public struct WireSky: WireValue, Equatable {
    public var sky: SkyView
    public var time: Timestamp

    public init(sky: SkyView, time: Timestamp) {
        self.sky = sky
        self.time = time
    }

    public init(json: JSONValue) throws(RPCError) {
        let p = try Params(result: json)
        guard let time = try p.timestamp("time") else { throw .invalidParams("\"time\" is required") }
        switch SkyView.read(json) {
        case .success(let sky): self.init(sky: sky, time: time)
        case .failure(let problem): throw .invalidParams(problem.description)
        }
    }

    public var json: JSONValue {
        var members = sky.jsonValue.objectValue ?? [:]
        members["time"] = .string(time.rfc3339)
        return .object(members)
    }
}
