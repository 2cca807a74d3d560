/// `device.set`: values set by hand — a fix, a held acceleration or orientation, a hinge
/// angle. The daemon checks the values as it checks a trace's (``Params`` reads the shape).
public struct DeviceSet: RPCRequest, Equatable {
    public typealias Result = DeviceSetResult
    public static let method = Method.deviceSet

    /// The accelerometer held at a reading, or given back to the other sources.
    public enum HeldAcceleration: Sendable, Equatable {
        case reading(x: Double, y: Double, z: Double)
        case released
    }

    /// A fix without time or accuracy (the daemon stamps it).
    public var location: WireLocation?
    public var acceleration: HeldAcceleration?
    public var orientation: DeviceOrientation?
    public var hingeAngle: Double?
    /// `hingeAngle: null`: the hinge given back to the other sources.
    public var releasesHinge: Bool

    public init(
        location: WireLocation? = nil, acceleration: HeldAcceleration? = nil, orientation: DeviceOrientation? = nil, hingeAngle: Double? = nil,
        releasesHinge: Bool = false
    ) {
        self.location = location
        self.acceleration = acceleration
        self.orientation = orientation
        self.hingeAngle = hingeAngle
        self.releasesHinge = releasesHinge
    }

    public init(_ p: Params) throws(RPCError) {
        location = try p.object("location").map { (o) throws(RPCError) in try Self.location(o) }
        if case .some(.null) = p.members["acceleration"] {
            acceleration = .released
        } else if let a = try p.object("acceleration") {
            guard let x = try a.number("x"), let y = try a.number("y"), let z = try a.number("z") else {
                throw .invalidParams("\"acceleration\" needs x, y and z")
            }
            acceleration = .reading(x: x, y: y, z: z)
        }
        orientation = try p.name("orientation", as: DeviceOrientation.self)
        hingeAngle = try p.number("hingeAngle")
        releasesHinge = p.members["hingeAngle"] == .null
    }

    /// `device.set`'s `location`: lat and lon, then the numbers a fix may have.
    public static func location(_ o: Params) throws(RPCError) -> WireLocation {
        guard let lat = try o.number(LocationKey.latitude), let lon = try o.number(LocationKey.longitude) else {
            throw .invalidParams("\"location\" needs lat and lon")
        }
        let altitude = try o.number(LocationKey.altitude)
        let horizontalAccuracy = try o.number(LocationKey.horizontalAccuracy)
        return WireLocation(
            latitude: lat, longitude: lon, horizontalAccuracy: horizontalAccuracy, altitude: altitude,
            verticalAccuracy: try o.number(LocationKey.verticalAccuracy), speed: try o.number(LocationKey.speed),
            course: try o.number(LocationKey.course))
    }

    public var params: JSONValue {
        var o = WireObject()
        o["location"] = location?.json
        switch acceleration {
        case .none: break
        case .released: o["acceleration"] = .null
        case .reading(let x, let y, let z): o["acceleration"] = ["x": .double(x), "y": .double(y), "z": .double(z)]
        }
        o.set("orientation", orientation)
        o.set("hingeAngle", hingeAngle)
        if releasesHinge { o["hingeAngle"] = .null }
        return o.json
    }
}

/// `device.set`'s answer: the fix as the daemon took it (the accuracy it gave one set
/// without, the time it stamped), when a location was set; `{}` otherwise.
public struct DeviceSetResult: WireValue, Equatable {
    public var location: JSONValue?

    public init(location: JSONValue? = nil) { self.location = location }

    public init(json: JSONValue) throws(RPCError) {
        let p = try Params(json)
        location = try p.object("location") != nil ? json["location"] : nil
    }

    public var json: JSONValue {
        var o = WireObject()
        o["location"] = location
        return o.json
    }
}
