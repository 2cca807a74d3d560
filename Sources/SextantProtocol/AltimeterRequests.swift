/// `altimeter.start` / `altimeter.stop`: `altitude` events about once a second (RULES B1–B3).
public struct AltimeterStart: ParameterlessRequest, Equatable {
    public typealias Result = EmptyResult
    public static let method = Method.altimeterStart
    public init() {}
}

public struct AltimeterStop: ParameterlessRequest, Equatable {
    public typealias Result = EmptyResult
    public static let method = Method.altimeterStop
    public init() {}
}

/// The `altitude` event's params: Core Motion's `CMAltitudeData` (`relativeAltitude` in m
/// since the stream's first event, `pressure` in kPa) and iOS 15's `CMAbsoluteAltitudeData`
/// (`altitude` in m above sea level and its `accuracy`, present only with location
/// authorization), whether the pressure was `derived` from the fix's altitude, and the time.
public struct WireAltitude: WireValue, Equatable {
    public var relativeAltitude: Double
    public var pressure: Double
    public var altitude: Double?
    public var accuracy: Double?
    public var derived: Bool
    public var time: Timestamp

    public init(relativeAltitude: Double, pressure: Double, altitude: Double?, accuracy: Double?, derived: Bool, time: Timestamp) {
        (self.relativeAltitude, self.pressure, self.altitude, self.accuracy, self.derived, self.time) =
            (relativeAltitude, pressure, altitude, accuracy, derived, time)
    }

    public init(json: JSONValue) throws(RPCError) {
        let p = try Params(result: json)
        guard let time = try p.timestamp("time") else { throw .invalidParams("\"time\" is required") }
        self.init(
            relativeAltitude: try p.requiredNumber("relativeAltitude"), pressure: try p.requiredNumber("pressure"),
            altitude: try p.number("altitude"), accuracy: try p.number("accuracy"), derived: try p.requiredBool("derived"), time: time)
    }

    public var json: JSONValue {
        var o = WireObject()
        o.set("relativeAltitude", relativeAltitude)
        o.set("pressure", pressure)
        o.set("altitude", altitude)
        o.set("accuracy", accuracy)
        o["derived"] = .bool(derived)
        o["time"] = .string(time.rfc3339)
        return o.json
    }
}
