// The device's clock (sextant-protocol(7), "Control socket"; RULES C1–C10 in docs/platforms.md).
// Control socket only: apps never move time.

/// The device's clock: the answer of every `time.*` method and the `clockChanged` event's
/// params.
public struct DeviceClockState: WireValue, Equatable {
    /// The device's wall clock now.
    public var wall: Timestamp
    /// The device's wall clock minus the host's, in seconds (0 on host time).
    public var offsetSeconds: Double
    /// The device's monotonic clock, in seconds (the host's uptime plus its offset).
    public var monotonicSeconds: Double
    /// How far the device's monotonic clock runs ahead of the host's; never decreases (C2).
    public var monotonicOffsetSeconds: Double

    public init(wall: Timestamp, offsetSeconds: Double, monotonicSeconds: Double, monotonicOffsetSeconds: Double) {
        self.wall = wall
        self.offsetSeconds = offsetSeconds
        self.monotonicSeconds = monotonicSeconds
        self.monotonicOffsetSeconds = monotonicOffsetSeconds
    }

    public init(json: JSONValue) throws(RPCError) {
        let p = try Params(result: json)
        guard let wall = try p.timestamp("wall") else { throw .invalidParams("\"wall\" is required") }
        func required(_ key: String) throws(RPCError) -> Double {
            guard let value = try p.number(key) else { throw .invalidParams("\"\(key)\" is required") }
            return value
        }
        self.init(
            wall: wall, offsetSeconds: try required("offsetSeconds"), monotonicSeconds: try required("monotonicSeconds"),
            monotonicOffsetSeconds: try required("monotonicOffsetSeconds"))
    }

    public var json: JSONValue {
        [
            "wall": .string(wall.rfc3339), "offsetSeconds": .double(offsetSeconds), "monotonicSeconds": .double(monotonicSeconds),
            "monotonicOffsetSeconds": .double(monotonicOffsetSeconds),
        ]
    }
}

/// `time.get`: the device's clock.
public struct TimeGet: ParameterlessRequest, Equatable {
    public typealias Result = DeviceClockState
    public static let method = Method.timeGet
    public init() {}
}

/// `time.set`: the device's wall clock reads `wall` from now on (C4).
public struct TimeSet: RPCRequest, Equatable {
    public typealias Result = DeviceClockState
    public static let method = Method.timeSet
    public var wall: Timestamp

    public init(wall: Timestamp) { self.wall = wall }

    public init(_ p: Params) throws(RPCError) {
        guard let wall = try p.timestamp("wall") else { throw .invalidParams("\"wall\" is required (an RFC 3339 time)") }
        self.wall = wall
    }

    public var params: JSONValue { ["wall": .string(wall.rfc3339)] }
}

/// `time.advance`: both of the device's clocks move forward by `seconds` (C3).
public struct TimeAdvance: RPCRequest, Equatable {
    public typealias Result = DeviceClockState
    public static let method = Method.timeAdvance
    public var seconds: Double

    /// The most one call advances: 100 years.
    public static let longest: Double = 100 * 365.25 * 86_400

    public init(seconds: Double) { self.seconds = seconds }

    public init(_ p: Params) throws(RPCError) {
        guard let seconds = try p.number("seconds") else { throw .invalidParams("\"seconds\" is required") }
        guard seconds >= 0, seconds <= Self.longest else {
            throw .invalidParams("\"seconds\" must be from 0 to \(Int(Self.longest)) (100 years): time only advances; set an earlier wall with time.set")
        }
        self.seconds = seconds
    }

    public var params: JSONValue { ["seconds": .double(seconds)] }

    /// Seconds from a duration as people write one: a number with a unit, `s`, `m`, `h` or
    /// `d` (`61s`, `15m`, `2h`, `90d`), or a bare number of seconds; nil when it is neither.
    public static func seconds(parsing text: String) -> Double? {
        let units: [Character: Double] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        var number = Substring(text)
        var scale = 1.0
        if let last = text.last, let unit = units[last] {
            number = number.dropLast()
            scale = unit
        }
        guard !number.isEmpty, number.allSatisfy({ ("0"..."9").contains($0) || $0 == "." }), let value = Double(number), value.isFinite else { return nil }
        return value * scale
    }
}

/// `time.reset`: the device's wall clock is the host's again (C5).
public struct TimeReset: ParameterlessRequest, Equatable {
    public typealias Result = DeviceClockState
    public static let method = Method.timeReset
    public init() {}
}
