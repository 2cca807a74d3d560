/// `motion.start`: `motion` events, the accelerometer's readings as they are (RULES M1–M3,
/// sextant-rules(7) "MOTION"), at most one per `interval`.
public struct MotionStart: RPCRequest, Equatable {
    public typealias Result = EmptyResult
    public static let method = Method.motionStart
    /// The least time between two events, in seconds of the readings' clock (Core Motion's
    /// `accelerometerUpdateInterval`, Android's sampling period); 0 sends every reading;
    /// ``defaultInterval`` when absent.
    public var interval: Double?

    /// 0.1 s: Android's `SENSOR_DELAY_NORMAL` is 0.2 s, `SENSOR_DELAY_UI` 0.06 s; 10 a second
    /// is what a page or a UI follows without a backlog on a slow reader.
    public static let defaultInterval = 0.1
    /// The longest interval: a reading an hour old says nothing of how the device is held.
    public static let intervalLimit = 3600.0

    public init(interval: Double? = nil) { self.interval = interval }

    public init(_ p: Params) throws(RPCError) {
        interval = try p.number("interval")
        if let interval, !(0...Self.intervalLimit).contains(interval) {
            throw .invalidParams("\"interval\" must be within 0...\(Int(Self.intervalLimit)) seconds, got \(interval)")
        }
    }

    public var params: JSONValue {
        var o = WireObject()
        o.set("interval", interval)
        return o.json
    }
}

public struct MotionStop: ParameterlessRequest, Equatable {
    public typealias Result = EmptyResult
    public static let method = Method.motionStop
    public init() {}
}

/// The `motion` event's params: proper acceleration (gravity included) in m/s² in the
/// device frame of RULES "Device orientation" — x to the right of the screen, y to its
/// top, z out of it; face up at rest (0, 0, +9.81) — and the reading's time.
public struct WireMotion: WireValue, Equatable {
    public var x: Double
    public var y: Double
    public var z: Double
    public var time: Timestamp

    public init(x: Double, y: Double, z: Double, time: Timestamp) {
        (self.x, self.y, self.z, self.time) = (x, y, z, time)
    }

    public init(json: JSONValue) throws(RPCError) {
        let p = try Params(result: json)
        guard let time = try p.timestamp("time") else { throw .invalidParams("\"time\" is required") }
        self.init(x: try p.requiredNumber("x"), y: try p.requiredNumber("y"), z: try p.requiredNumber("z"), time: time)
    }

    public var json: JSONValue { ["x": .double(x), "y": .double(y), "z": .double(z), "time": .string(time.rfc3339)] }
}
