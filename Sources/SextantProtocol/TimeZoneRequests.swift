// The device's time zone (sextant-protocol(7), "Time zone"; RULES Z1–Z10).

/// Why the device's zone is what a `timeZone` event says.
public enum TimeZoneReason: String, Sendable, CaseIterable, Codable {
    /// The first fix with a zone since the zone was followed (Z2).
    case first
    /// The device has been in another zone long enough (Z3).
    case zoneChanged
    /// Same zone, another offset at the fix's time (Z5: a daylight-saving transition).
    case offsetChanged
    /// Set by hand (`timeZone.set`, `--time-zone`): "Set Automatically" off (Z9).
    case manual
    /// Back to the zone of the device's position (`timeZone.set` with `zone: null`).
    case automatic
}

/// The device's zone: the result of `timeZone.get`, `timeZone.start` and `timeZone.set`, and
/// the `timeZone` event's params. `zone` is null while no zone is known (no fix yet, no
/// table); `previous` and `reason` are only in events.
public struct WireTimeZone: WireValue, Equatable {
    /// An IANA id (`Europe/Lisbon`), at sea `Etc/GMT±N`.
    public var zone: String?
    public var previous: String?
    /// Seconds east of UTC at `time`; null when the system's tzdata does not know the zone.
    public var utcOffset: Int?
    public var isDST: Bool?
    /// The instant the offset is for: the deciding fix's time (trace time in a replay).
    public var time: Timestamp?
    /// False while a zone set by hand wins (Z9).
    public var automatic: Bool
    public var reason: TimeZoneReason?

    public init(
        zone: String?, previous: String? = nil, utcOffset: Int? = nil, isDST: Bool? = nil, time: Timestamp? = nil, automatic: Bool,
        reason: TimeZoneReason? = nil
    ) {
        self.zone = zone
        self.previous = previous
        self.utcOffset = utcOffset
        self.isDST = isDST
        self.time = time
        self.automatic = automatic
        self.reason = reason
    }

    public init(json: JSONValue) throws(RPCError) {
        let p = try Params(result: json)
        self.init(
            zone: try p.string("zone"), previous: try p.string("previous"), utcOffset: try p.integer("utcOffset"), isDST: try p.bool("isDST"),
            time: try p.timestamp("time"), automatic: try p.requiredBool("automatic"), reason: try p.name("reason", as: TimeZoneReason.self))
    }

    public var json: JSONValue {
        var o = WireObject()
        o["zone"] = JSONValue(zone)
        if reason != nil { o["previous"] = JSONValue(previous) }
        o["utcOffset"] = utcOffset.map { .int(Int64($0)) } ?? .null
        o["isDST"] = isDST.map(JSONValue.bool) ?? .null
        o["time"] = time.map { .string($0.rfc3339) } ?? .null
        o.set("automatic", automatic)
        o.set("reason", reason)
        return o.json
    }
}

/// `timeZone.get`: the device's zone now. Needs no location authorization (Z7).
public struct TimeZoneGet: ParameterlessRequest, Equatable {
    public typealias Result = WireTimeZone
    public static let method = Method.timeZoneGet
    public init() {}
}

/// `timeZone.start`: the session hears `timeZone` events; the result is the zone now.
public struct TimeZoneStart: ParameterlessRequest, Equatable {
    public typealias Result = WireTimeZone
    public static let method = Method.timeZoneStart
    public init() {}
}

public struct TimeZoneStop: ParameterlessRequest, Equatable {
    public typealias Result = EmptyResult
    public static let method = Method.timeZoneStop
    public init() {}
}

/// `timeZone.set` (control): a zone by hand, which wins over the position's (Z9), or
/// `zone: null` to follow the position again. Stored: it outlives the daemon.
public struct TimeZoneSet: RPCRequest, Equatable {
    public typealias Result = WireTimeZone
    public static let method = Method.timeZoneSet
    /// nil: automatic.
    public var zone: String?

    public init(zone: String?) { self.zone = zone }

    public init(_ p: Params) throws(RPCError) {
        guard p.members["zone"] != nil else { throw .invalidParams("\"zone\" is required (a zone id, or null for automatic)") }
        zone = try p.string("zone")
        if let zone, !TimeZoneID.isWellFormed(zone) { throw .invalidParams(TimeZoneID.problem(zone)) }
    }

    public var params: JSONValue { ["zone": JSONValue(zone)] }
}

/// What a zone id may be before anyone asks tzdata about it: 1 to 64 of `[A-Za-z0-9/_+-]`
/// (IANA's own alphabet), so that a file name or a terminal escape never passes as one.
public enum TimeZoneID {
    public static func isWellFormed(_ id: String) -> Bool {
        let utf8 = id.utf8
        guard (1...64).contains(utf8.count) else { return false }
        return utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == UInt8(ascii: "/") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-")
        }
    }

    public static func problem(_ id: String) -> String {
        "\"zone\" must be a zone id of 1 to 64 letters, digits and / _ + - such as Europe/Lisbon (got \"\(TerminalText.escaped(id))\")"
    }
}
