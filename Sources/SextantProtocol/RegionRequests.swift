// The app socket's region methods and the `region` event (sextant-protocol(7), "Regions").

/// A circular region as apps send it and `region.list` answers it (RULES R1–R8).
public struct WireRegion: WireValue, Equatable {
    public var identifier: String
    public var latitude: Double
    public var longitude: Double
    /// Metres.
    public var radius: Double
    public var notifyOnEntry: Bool
    public var notifyOnExit: Bool
    /// Seconds inside before a `dwell`; nil: no dwell.
    public var loiteringDelay: Double?
    public var notifyInitialState: Bool
    /// Metres beyond the radius before a fix is outside; nil: the daemon's default.
    public var hysteresis: Double?
    /// Only in answers: what was last decided.
    public var state: RegionStateName?

    public init(
        identifier: String, latitude: Double, longitude: Double, radius: Double, notifyOnEntry: Bool = true, notifyOnExit: Bool = true,
        loiteringDelay: Double? = nil, notifyInitialState: Bool = false, hysteresis: Double? = nil, state: RegionStateName? = nil
    ) {
        self.identifier = identifier
        self.latitude = latitude
        self.longitude = longitude
        self.radius = radius
        self.notifyOnEntry = notifyOnEntry
        self.notifyOnExit = notifyOnExit
        self.loiteringDelay = loiteringDelay
        self.notifyInitialState = notifyInitialState
        self.hysteresis = hysteresis
        self.state = state
    }

    public init(json: JSONValue) throws(RPCError) { try self.init(Params(result: json)) }

    /// Reads the members; their bounds are the engine's (RULES R8), checked where the region is monitored.
    public init(_ p: Params) throws(RPCError) {
        identifier = try p.requiredString("identifier")
        latitude = try p.requiredNumber("lat")
        longitude = try p.requiredNumber("lon")
        radius = try p.requiredNumber("radius")
        notifyOnEntry = try p.bool("notifyOnEntry") ?? true
        notifyOnExit = try p.bool("notifyOnExit") ?? true
        loiteringDelay = try p.number("loiteringDelay")
        notifyInitialState = try p.bool("notifyInitialState") ?? false
        hysteresis = try p.number("hysteresis")
        state = try p.name("state", as: RegionStateName.self)
    }

    public var json: JSONValue {
        var o = WireObject()
        o.set("identifier", identifier)
        o.set("lat", latitude)
        o.set("lon", longitude)
        o.set("radius", radius)
        o.set("notifyOnEntry", notifyOnEntry)
        o.set("notifyOnExit", notifyOnExit)
        o.set("loiteringDelay", loiteringDelay)
        o.set("notifyInitialState", notifyInitialState)
        o.set("hysteresis", hysteresis)
        o.set("state", state)
        return o.json
    }
}

/// Where the device is with respect to a region, as last decided.
public enum RegionStateName: String, Sendable, CaseIterable, Codable {
    case inside, outside, unknown
}

/// What a `region` event says happened.
public enum RegionTransitionName: String, Sendable, CaseIterable, Codable {
    case enter, exit, dwell, state
}

/// `region.monitor`: start monitoring a region; the same identifier replaces it.
public struct MonitorRegion: RPCRequest, Equatable {
    public typealias Result = EmptyResult
    public static let method = Method.regionMonitor
    public var region: WireRegion

    public init(_ region: WireRegion) { self.region = region }
    public init(_ p: Params) throws(RPCError) { region = try WireRegion(p) }
    public var params: JSONValue { region.json }
}

/// `region.stop`: stop monitoring a region; `removed` says whether there was one.
public struct StopMonitoringRegion: RPCRequest, Equatable {
    public typealias Result = RegionRemoved
    public static let method = Method.regionStop
    public var identifier: String

    public init(identifier: String) { self.identifier = identifier }
    public init(_ p: Params) throws(RPCError) { identifier = try p.requiredString("identifier") }
    public var params: JSONValue { ["identifier": .string(identifier)] }
}

/// `region.stop`'s and `regions.remove`'s answer.
public struct RegionRemoved: WireValue, Equatable {
    public var removed: Bool
    public init(removed: Bool) { self.removed = removed }
    public init(json: JSONValue) throws(RPCError) { removed = try Params(result: json).requiredBool("removed") }
    public var json: JSONValue { ["removed": .bool(removed)] }
}

/// `region.list`: the app's regions, each with its state.
public struct ListRegions: ParameterlessRequest, Equatable {
    public typealias Result = RegionList
    public static let method = Method.regionList
    public init() {}
}

/// `region.list`'s answer.
public struct RegionList: WireValue, Equatable {
    public var regions: [WireRegion]
    public init(regions: [WireRegion]) { self.regions = regions }
    public init(json: JSONValue) throws(RPCError) {
        let p = try Params(result: json)
        regions = try [WireRegion](json: p.members["regions"] ?? .null)
    }
    public var json: JSONValue { ["regions": regions.json] }
}

/// `region.state`: what was last decided of one region.
public struct RequestRegionState: RPCRequest, Equatable {
    public typealias Result = RegionStateResult
    public static let method = Method.regionState
    public var identifier: String

    public init(identifier: String) { self.identifier = identifier }
    public init(_ p: Params) throws(RPCError) { identifier = try p.requiredString("identifier") }
    public var params: JSONValue { ["identifier": .string(identifier)] }
}

public struct RegionStateResult: WireValue, Equatable {
    public var state: RegionStateName
    public init(state: RegionStateName) { self.state = state }
    public init(json: JSONValue) throws(RPCError) { state = try Params(result: json).required("state", as: RegionStateName.self) }
    public var json: JSONValue { ["state": .string(state.rawValue)] }
}

/// The `region` event's params: which region, what happened, the state it left, and the
/// time of the fix that decided it. No coordinates.
public struct RegionEvent: WireValue, Equatable {
    public var identifier: String
    public var transition: RegionTransitionName
    public var state: RegionStateName
    public var time: Timestamp

    public init(identifier: String, transition: RegionTransitionName, state: RegionStateName, time: Timestamp) {
        self.identifier = identifier
        self.transition = transition
        self.state = state
        self.time = time
    }

    public init(json: JSONValue) throws(RPCError) {
        let p = try Params(result: json)
        identifier = try p.requiredString("identifier")
        transition = try p.required("transition", as: RegionTransitionName.self)
        state = try p.required("state", as: RegionStateName.self)
        guard let time = try p.timestamp("time") else { throw .invalidParams("\"time\" is required") }
        self.time = time
    }

    public var json: JSONValue {
        [
            "identifier": .string(identifier), "transition": .string(transition.rawValue), "state": .string(state.rawValue),
            "time": .string(time.rfc3339),
        ]
    }
}

// The control socket's region methods: any app's regions, as a test sets up state.

/// `regions.list`: every app's regions (or one app's), each with its state.
public struct RegionsList: RPCRequest, Equatable {
    public typealias Result = [AppRegion]
    public static let method = Method.regionsList
    public var app: String?

    public init(app: String? = nil) { self.app = app }
    public init(_ p: Params) throws(RPCError) { app = p.has("app") ? try p.appID("app") : nil }
    public var params: JSONValue {
        var o = WireObject()
        o.set("app", app)
        return o.json
    }
}

/// One entry of `regions.list`: the app and its region.
public struct AppRegion: WireValue, Equatable {
    public var app: String
    public var region: WireRegion

    public init(app: String, region: WireRegion) {
        self.app = app
        self.region = region
    }

    public init(json: JSONValue) throws(RPCError) {
        let p = try Params(result: json)
        app = try p.requiredString("app")
        region = try WireRegion(p)
    }

    public var json: JSONValue {
        var members = region.json.objectValue ?? [:]
        members["app"] = .string(app)
        return .object(members)
    }
}

/// `regions.add`: monitors a region for an app, whatever its authorization.
public struct RegionsAdd: RPCRequest, Equatable {
    public typealias Result = EmptyResult
    public static let method = Method.regionsAdd
    public var app: String
    public var region: WireRegion

    public init(app: String, region: WireRegion) {
        self.app = app
        self.region = region
    }

    public init(_ p: Params) throws(RPCError) {
        app = try p.appID("app")
        region = try WireRegion(p)
    }

    public var params: JSONValue { AppRegion(app: app, region: region).json }
}

/// `regions.remove`: stops monitoring an app's region.
public struct RegionsRemove: RPCRequest, Equatable {
    public typealias Result = RegionRemoved
    public static let method = Method.regionsRemove
    public var app: String
    public var identifier: String

    public init(app: String, identifier: String) {
        self.app = app
        self.identifier = identifier
    }

    public init(_ p: Params) throws(RPCError) {
        app = try p.appID("app")
        identifier = try p.requiredString("identifier")
    }

    public var params: JSONValue { ["app": .string(app), "identifier": .string(identifier)] }
}
