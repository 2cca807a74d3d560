/// An event (JSON-RPC notification) as apps and watchers receive it, decoded from its
/// method and params: the app events (sextant-protocol(7), "Events to apps") and the
/// control side's `prompt`, `promptClosed` and `replay`.
public enum SextantEvent: Sendable, Equatable {
    case location(WireLocation)
    case authorization(AuthorizationResult)
    case servicesEnabled(Bool)
    case deviceOrientation(DeviceOrientationEvent)
    case interfaceOrientation(InterfaceOrientationEvent)
    case posture(PostureEvent)
    case locationUnavailable(reason: String)
    /// A significant change (RULES S1–S3): a location, reduced where the app's accuracy is.
    case significantChange(WireLocation)
    case visit(WireVisit)
    case region(RegionEvent)
    /// Region monitoring stopped being available to the app (reduced accuracy).
    case regionUnavailable(reason: String)
    /// A prompt opened; its members as `prompts.list` gives them.
    case prompt(JSONValue)
    /// A prompt closed: the prompt's members with `choice` and `precise`, or `cancelled`.
    case promptClosed(JSONValue)
    case replay(ReplayStatus)
    case heading(WireHeading)
    case headingCalibration(HeadingCalibrationEvent)
    /// The satellites in view and used (RULES N8).
    case satellites(WireSky)
    /// An app session opened, closed or changed: its `apps.list` entry with `change`
    /// (`opened`, `changed`, `closed`; a closed one names the session only).
    case session(JSONValue)
    /// An accelerometer reading (RULES M1–M3).
    case motion(WireMotion)
    /// The device's time zone changed (RULES Z1–Z10).
    case timeZone(WireTimeZone)
    /// The device's activity changed (RULES A1–A5).
    case activity(WireActivity)
    /// An activity began or ended (Android's transitions, RULES A6).
    case activityTransition(WireActivityTransition)
    /// The steps since `pedometer.start` grew (RULES A7).
    case pedometer(WirePedometer)
    /// The ambient light, on change.
    case light(WireLight)
    /// Near or far, on change.
    case proximity(WireProximity)
    /// The altimeter, about once a second.
    case altitude(WireAltitude)
    /// The fused attitude with the rate, gravity and user acceleration (RULES D1–D6).
    case deviceMotion(WireDeviceMotion)
    /// The control side moved the device's clock (RULES C1–C10): watchers only.
    case clockChanged(DeviceClockState)
    /// Fixes held for a batch and delivered together, oldest first (Android profile, AN30).
    case locations([WireLocation])
    /// Why the session gets locations or not, on change (iOS profile, docs/platforms.md I13).
    case diagnostics(WireDiagnostics)

    /// Decodes a notification; an event of a name this client does not know is an error.
    public init(method: String, params: JSONValue) throws(RPCError) {
        switch method {
        case Event.location: self = .location(try WireLocation(json: params))
        case Event.authorization: self = .authorization(try AuthorizationResult(json: params))
        case Event.servicesEnabled: self = .servicesEnabled(try Params(result: params).requiredBool("enabled"))
        case Event.deviceOrientation: self = .deviceOrientation(try DeviceOrientationEvent(json: params))
        case Event.interfaceOrientation: self = .interfaceOrientation(try InterfaceOrientationEvent(json: params))
        case Event.posture: self = .posture(try PostureEvent(json: params))
        case Event.locationUnavailable: self = .locationUnavailable(reason: try Params(result: params).requiredString("reason"))
        case Event.significantChange: self = .significantChange(try WireLocation(json: params))
        case Event.visit: self = .visit(try WireVisit(json: params))
        case Event.region: self = .region(try RegionEvent(json: params))
        case Event.regionUnavailable: self = .regionUnavailable(reason: try Params(result: params).requiredString("reason"))
        case Event.prompt: self = .prompt(params)
        case Event.promptClosed: self = .promptClosed(params)
        case Event.replay: self = .replay(try ReplayStatus(json: params))
        case Event.heading: self = .heading(try WireHeading(json: params))
        case Event.headingCalibration: self = .headingCalibration(try HeadingCalibrationEvent(json: params))
        case Event.satellites: self = .satellites(try WireSky(json: params))
        case Event.session: self = .session(params)
        case Event.motion: self = .motion(try WireMotion(json: params))
        case Event.timeZone: self = .timeZone(try WireTimeZone(json: params))
        case Event.activity: self = .activity(try WireActivity(json: params))
        case Event.activityTransition: self = .activityTransition(try WireActivityTransition(json: params))
        case Event.pedometer: self = .pedometer(try WirePedometer(json: params))
        case Event.light: self = .light(try WireLight(json: params))
        case Event.proximity: self = .proximity(try WireProximity(json: params))
        case Event.altitude: self = .altitude(try WireAltitude(json: params))
        case Event.deviceMotion: self = .deviceMotion(try WireDeviceMotion(json: params))
        case Event.clockChanged: self = .clockChanged(try DeviceClockState(json: params))
        case Event.locations: self = .locations(try Self.locations(params))
        case Event.diagnostics: self = .diagnostics(try WireDiagnostics(json: params))
        default: throw .invalidParams("no event \"\(method)\"")
        }
    }

    /// The event's name on the wire.
    public var method: String {
        switch self {
        case .location: return Event.location
        case .authorization: return Event.authorization
        case .servicesEnabled: return Event.servicesEnabled
        case .deviceOrientation: return Event.deviceOrientation
        case .interfaceOrientation: return Event.interfaceOrientation
        case .posture: return Event.posture
        case .locationUnavailable: return Event.locationUnavailable
        case .significantChange: return Event.significantChange
        case .visit: return Event.visit
        case .region: return Event.region
        case .regionUnavailable: return Event.regionUnavailable
        case .prompt: return Event.prompt
        case .promptClosed: return Event.promptClosed
        case .replay: return Event.replay
        case .heading: return Event.heading
        case .headingCalibration: return Event.headingCalibration
        case .satellites: return Event.satellites
        case .session: return Event.session
        case .motion: return Event.motion
        case .timeZone: return Event.timeZone
        case .activity: return Event.activity
        case .activityTransition: return Event.activityTransition
        case .pedometer: return Event.pedometer
        case .light: return Event.light
        case .proximity: return Event.proximity
        case .altitude: return Event.altitude
        case .deviceMotion: return Event.deviceMotion
        case .clockChanged: return Event.clockChanged
        case .locations: return Event.locations
        case .diagnostics: return Event.diagnostics
        }
    }

    /// The `locations` event's array, each a `location` event's params.
    private static func locations(_ params: JSONValue) throws(RPCError) -> [WireLocation] {
        guard let array = params["locations"]?.arrayValue else { throw .invalidParams("\"locations\" must be an array of locations") }
        var out: [WireLocation] = []
        for item in array { out.append(try WireLocation(json: item)) }
        return out
    }

    /// Its params on the wire.
    public var params: JSONValue {
        switch self {
        case .location(let location): return location.json
        case .authorization(let authorization): return authorization.json
        case .servicesEnabled(let enabled): return ["enabled": .bool(enabled)]
        case .deviceOrientation(let event): return event.json
        case .interfaceOrientation(let event): return event.json
        case .posture(let event): return event.json
        case .locationUnavailable(let reason), .regionUnavailable(let reason): return ["reason": .string(reason)]
        case .significantChange(let location): return location.json
        case .visit(let visit): return visit.json
        case .region(let event): return event.json
        case .prompt(let members), .promptClosed(let members): return members
        case .replay(let status): return status.json
        case .heading(let heading): return heading.json
        case .headingCalibration(let event): return event.json
        case .satellites(let sky): return sky.json
        case .session(let members): return members
        case .motion(let motion): return motion.json
        case .timeZone(let zone): return zone.json
        case .activity(let activity): return activity.json
        case .activityTransition(let transition): return transition.json
        case .pedometer(let pedometer): return pedometer.json
        case .light(let light): return light.json
        case .proximity(let proximity): return proximity.json
        case .altitude(let altitude): return altitude.json
        case .deviceMotion(let motion): return motion.json
        case .clockChanged(let clock): return clock.json
        case .locations(let locations): return ["locations": .array(locations.map(\.json))]
        case .diagnostics(let flags): return flags.json
        }
    }
}

/// The `deviceOrientation` event's params.
public struct DeviceOrientationEvent: WireValue, Equatable {
    public var orientation: DeviceOrientation
    public var previous: DeviceOrientation
    public var time: Timestamp

    public init(orientation: DeviceOrientation, previous: DeviceOrientation, time: Timestamp) {
        self.orientation = orientation
        self.previous = previous
        self.time = time
    }

    public init(json: JSONValue) throws(RPCError) {
        let p = try Params(result: json)
        guard let time = try p.timestamp("time") else { throw .invalidParams("\"time\" is required") }
        self.init(
            orientation: try p.required("orientation", as: DeviceOrientation.self), previous: try p.required("previous", as: DeviceOrientation.self),
            time: time)
    }

    public var json: JSONValue {
        ["orientation": .string(orientation.rawValue), "previous": .string(previous.rawValue), "time": .string(time.rfc3339)]
    }
}

/// The `interfaceOrientation` event's params.
public struct InterfaceOrientationEvent: WireValue, Equatable {
    public var orientation: InterfaceOrientation
    public var previous: InterfaceOrientation?

    public init(orientation: InterfaceOrientation, previous: InterfaceOrientation?) {
        self.orientation = orientation
        self.previous = previous
    }

    public init(json: JSONValue) throws(RPCError) {
        let p = try Params(result: json)
        self.init(
            orientation: try p.required("orientation", as: InterfaceOrientation.self), previous: try p.name("previous", as: InterfaceOrientation.self))
    }

    public var json: JSONValue { ["orientation": .string(orientation.rawValue), "previous": JSONValue(previous?.rawValue)] }
}

/// The `posture` event's params (and `hello`'s `posture`).
public struct PostureEvent: WireValue, Equatable {
    public var state: PostureState
    public var previous: PostureState?
    public var hingeAngle: Double
    public var fold: FoldDirection
    public var time: Timestamp

    public init(state: PostureState, previous: PostureState?, hingeAngle: Double, fold: FoldDirection, time: Timestamp) {
        self.state = state
        self.previous = previous
        self.hingeAngle = hingeAngle
        self.fold = fold
        self.time = time
    }

    public init(json: JSONValue) throws(RPCError) {
        let p = try Params(result: json)
        guard let time = try p.timestamp("time") else { throw .invalidParams("\"time\" is required") }
        self.init(
            state: try p.required("state", as: PostureState.self), previous: try p.name("previous", as: PostureState.self),
            hingeAngle: try p.requiredNumber("hingeAngle"), fold: try p.required("fold", as: FoldDirection.self), time: time)
    }

    public var json: JSONValue {
        [
            "state": .string(state.rawValue), "previous": JSONValue(previous?.rawValue), "hingeAngle": .double(hingeAngle),
            "fold": .string(fold.rawValue), "time": .string(time.rfc3339),
        ]
    }
}

/// The `visit` event's params (RULES V1–V5): where the device stayed, reduced where the
/// app's accuracy is, and when. `departure` is null while the device is still there (an
/// arrival: `CLVisit`'s `distantFuture`).
public struct WireVisit: WireValue, Equatable {
    public var latitude: Double
    public var longitude: Double
    public var horizontalAccuracy: Double
    public var arrival: Timestamp
    public var departure: Timestamp?
    public var accuracy: LocationAccuracy

    public init(latitude: Double, longitude: Double, horizontalAccuracy: Double, arrival: Timestamp, departure: Timestamp?, accuracy: LocationAccuracy) {
        self.latitude = latitude
        self.longitude = longitude
        self.horizontalAccuracy = horizontalAccuracy
        self.arrival = arrival
        self.departure = departure
        self.accuracy = accuracy
    }

    public init(json: JSONValue) throws(RPCError) {
        let p = try Params(result: json)
        guard let arrival = try p.timestamp("arrival") else { throw .invalidParams("\"arrival\" is required") }
        self.init(
            latitude: try p.requiredNumber(LocationKey.latitude), longitude: try p.requiredNumber(LocationKey.longitude),
            horizontalAccuracy: try p.requiredNumber(LocationKey.horizontalAccuracy), arrival: arrival, departure: try p.timestamp("departure"),
            accuracy: try p.required(LocationKey.accuracy, as: LocationAccuracy.self))
    }

    public var json: JSONValue {
        [
            LocationKey.latitude: .double(latitude), LocationKey.longitude: .double(longitude),
            LocationKey.horizontalAccuracy: .double(horizontalAccuracy), "arrival": .string(arrival.rfc3339),
            "departure": departure.map { .string($0.rfc3339) } ?? .null, LocationKey.accuracy: .string(accuracy.rawValue),
        ]
    }
}
