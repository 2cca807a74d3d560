/// `light.start` / `light.stop`: `light` events, the ambient light in lux, on change.
public struct LightStart: ParameterlessRequest, Equatable {
    public typealias Result = EmptyResult
    public static let method = Method.lightStart
    public init() {}
}

public struct LightStop: ParameterlessRequest, Equatable {
    public typealias Result = EmptyResult
    public static let method = Method.lightStop
    public init() {}
}

/// `proximity.start` / `proximity.stop`: `proximity` events, near or far, on change.
public struct ProximityStart: ParameterlessRequest, Equatable {
    public typealias Result = EmptyResult
    public static let method = Method.proximityStart
    public init() {}
}

public struct ProximityStop: ParameterlessRequest, Equatable {
    public typealias Result = EmptyResult
    public static let method = Method.proximityStop
    public init() {}
}

/// The `light` event's params: the illuminance in lux and the reading's time.
public struct WireLight: WireValue, Equatable {
    public var lux: Double
    public var time: Timestamp

    public init(lux: Double, time: Timestamp) { (self.lux, self.time) = (lux, time) }

    public init(json: JSONValue) throws(RPCError) {
        let p = try Params(result: json)
        guard let time = try p.timestamp("time") else { throw .invalidParams("\"time\" is required") }
        self.init(lux: try p.requiredNumber("lux"), time: time)
    }

    public var json: JSONValue { ["lux": .double(lux), "time": .string(time.rfc3339)] }
}

/// The `proximity` event's params: whether something is near the screen, and the reading's time.
public struct WireProximity: WireValue, Equatable {
    public var near: Bool
    public var time: Timestamp

    public init(near: Bool, time: Timestamp) { (self.near, self.time) = (near, time) }

    public init(json: JSONValue) throws(RPCError) {
        let p = try Params(result: json)
        guard let time = try p.timestamp("time") else { throw .invalidParams("\"time\" is required") }
        self.init(near: try p.requiredBool("near"), time: time)
    }

    public var json: JSONValue { ["near": .bool(near), "time": .string(time.rfc3339)] }
}
