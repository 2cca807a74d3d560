/// `device.set`: values set by hand — a fix, a held acceleration or orientation, a hinge
/// angle, a held magnetic field or heading. The daemon checks the values as it checks a trace's (``Params`` reads the shape).
public struct DeviceSet: RPCRequest, Equatable {
    public typealias Result = DeviceSetResult
    public static let method = Method.deviceSet

    /// A three-axis sensor (the accelerometer, the magnetometer) held at a reading, or given
    /// back to the other sources.
    public enum HeldVector: Sendable, Equatable {
        case reading(x: Double, y: Double, z: Double)
        case released
    }

    public typealias HeldAcceleration = HeldVector

    /// The compass held at a heading (degrees from magnetic or true north, either or both,
    /// and the accuracy), or given back to the other sources.
    public enum HeldHeading: Sendable, Equatable {
        case reading(magnetic: Double?, trueHeading: Double?, accuracy: Double?)
        case released
    }

    /// A fix without time or accuracy (the daemon stamps it).
    public var location: WireLocation?
    public var acceleration: HeldAcceleration?
    public var orientation: DeviceOrientation?
    public var hingeAngle: Double?
    /// `hingeAngle: null`: the hinge given back to the other sources.
    public var releasesHinge: Bool
    /// µT in the device frame, as a `magnet` sample.
    public var magneticField: HeldVector?
    public var heading: HeldHeading?
    /// The ambient light held at a level in lux, or given back.
    public var light: Held<Double>?
    /// The proximity sensor held near (true) or far, or given back.
    public var proximity: Held<Bool>?
    /// The barometer held at a pressure in hPa, or given back.
    public var pressure: Held<Double>?

    /// A one-value sensor held at a value, or given back to the other sources.
    public enum Held<Value: Sendable & Equatable>: Sendable, Equatable {
        case value(Value)
        case released
    }
    /// rad/s about the device's axes, as a `gyro` sample.
    public var rotationRate: HeldVector?

    public init(
        location: WireLocation? = nil, acceleration: HeldAcceleration? = nil, orientation: DeviceOrientation? = nil, hingeAngle: Double? = nil,
        releasesHinge: Bool = false, magneticField: HeldVector? = nil, heading: HeldHeading? = nil,
        light: Held<Double>? = nil, proximity: Held<Bool>? = nil, pressure: Held<Double>? = nil, rotationRate: HeldVector? = nil
    ) {
        self.pressure = pressure
        self.light = light
        self.proximity = proximity
        self.location = location
        self.acceleration = acceleration
        self.orientation = orientation
        self.hingeAngle = hingeAngle
        self.releasesHinge = releasesHinge
        self.magneticField = magneticField
        self.heading = heading
        self.rotationRate = rotationRate
    }

    public init(_ p: Params) throws(RPCError) {
        location = try p.object("location").map { (o) throws(RPCError) in try Self.location(o) }
        acceleration = try Self.vector("acceleration", in: p)
        orientation = try p.name("orientation", as: DeviceOrientation.self)
        hingeAngle = try p.number("hingeAngle")
        releasesHinge = p.members["hingeAngle"] == .null
        magneticField = try Self.vector("magneticField", in: p)
        if case .some(.null) = p.members["heading"] {
            heading = .released
        } else if let h = try p.object("heading") {
            heading = .reading(magnetic: try h.number("magnetic"), trueHeading: try h.number("true"), accuracy: try h.number("accuracy"))
        }
        light = p.members["light"] == .null ? .released : try p.number("light").map { .value($0) }
        proximity = p.members["proximity"] == .null ? .released : try p.bool("proximity").map { .value($0) }
        pressure = p.members["pressure"] == .null ? .released : try p.number("pressure").map { .value($0) }
        rotationRate = try Self.vector("rotationRate", in: p)
    }

    /// `key`: null (released), or an object with x, y and z.
    private static func vector(_ key: String, in p: Params) throws(RPCError) -> HeldVector? {
        if case .some(.null) = p.members[key] { return .released }
        guard let v = try p.object(key) else { return nil }
        guard let x = try v.number("x"), let y = try v.number("y"), let z = try v.number("z") else {
            throw .invalidParams("\"\(key)\" needs x, y and z")
        }
        return .reading(x: x, y: y, z: z)
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
        o["acceleration"] = Self.json(acceleration)
        o.set("orientation", orientation)
        o.set("hingeAngle", hingeAngle)
        if releasesHinge { o["hingeAngle"] = .null }
        o["magneticField"] = Self.json(magneticField)
        switch heading {
        case .none: break
        case .released: o["heading"] = .null
        case .reading(let magnetic, let trueHeading, let accuracy):
            var h = WireObject()
            h.set("magnetic", magnetic)
            h.set("true", trueHeading)
            h.set("accuracy", accuracy)
            o["heading"] = h.json
        }
        o["light"] = light.map { held in if case .value(let lux) = held { .double(lux) } else { .null } }
        o["proximity"] = proximity.map { held in if case .value(let near) = held { .bool(near) } else { .null } }
        o["pressure"] = pressure.map { held in if case .value(let hPa) = held { .double(hPa) } else { .null } }
        o["rotationRate"] = Self.json(rotationRate)
        return o.json
    }

    private static func json(_ vector: HeldVector?) -> JSONValue? {
        switch vector {
        case .none: nil
        case .released: .null
        case .reading(let x, let y, let z): ["x": .double(x), "y": .double(y), "z": .double(z)]
        }
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
