/// The members of a location as the wire and Sextant traces spell them: the `location`
/// event, `location.once`'s result, `device.set`'s `location`, a trace line's `location`.
public enum LocationKey {
    public static let latitude = "lat"
    public static let longitude = "lon"
    public static let altitude = "alt"
    public static let horizontalAccuracy = "hAcc"
    public static let verticalAccuracy = "vAcc"
    public static let speed = "speed"
    public static let course = "course"
    /// RFC 3339, on the wire only (a trace line gives its time as `t`).
    public static let time = "time"
    /// `full` or `reduced`, on the wire only.
    public static let accuracy = "accuracy"
    /// Whether the fix is made by software (RULES N7), on the wire only.
    public static let simulated = "simulated"

    /// The numbers of a location, in the order a trace line writes them.
    public static let numbers = [latitude, longitude, altitude, horizontalAccuracy, verticalAccuracy, speed, course]
}

/// A location as the wire carries it: the `location` event's params and `location.once`'s
/// result; without a time or an accuracy in `device.set`.
public struct WireLocation: WireValue, Equatable {
    public var latitude: Double
    public var longitude: Double
    public var horizontalAccuracy: Double?
    public var altitude: Double?
    public var verticalAccuracy: Double?
    public var speed: Double?
    public var course: Double?
    public var time: Timestamp?
    /// `reduced` when the app has reduced accuracy (RULES L10).
    public var accuracy: LocationAccuracy?
    /// Whether the fix is made by software (RULES N7); every fix the daemon sends says.
    public var simulated: Bool?

    public init(
        latitude: Double, longitude: Double, horizontalAccuracy: Double? = nil, altitude: Double? = nil, verticalAccuracy: Double? = nil,
        speed: Double? = nil, course: Double? = nil, time: Timestamp? = nil, accuracy: LocationAccuracy? = nil, simulated: Bool? = nil
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.horizontalAccuracy = horizontalAccuracy
        self.altitude = altitude
        self.verticalAccuracy = verticalAccuracy
        self.speed = speed
        self.course = course
        self.time = time
        self.accuracy = accuracy
        self.simulated = simulated
    }

    public init(json: JSONValue) throws(RPCError) {
        let p = try Params(result: json)
        guard let latitude = try p.number(LocationKey.latitude), let longitude = try p.number(LocationKey.longitude) else {
            throw .invalidParams("\"location\" needs lat and lon")
        }
        self.init(
            latitude: latitude, longitude: longitude, horizontalAccuracy: try p.number(LocationKey.horizontalAccuracy),
            altitude: try p.number(LocationKey.altitude), verticalAccuracy: try p.number(LocationKey.verticalAccuracy),
            speed: try p.number(LocationKey.speed), course: try p.number(LocationKey.course),
            time: try p.timestamp(LocationKey.time), accuracy: try p.name(LocationKey.accuracy, as: LocationAccuracy.self),
            simulated: try p.bool(LocationKey.simulated))
    }

    public var json: JSONValue {
        var o = WireObject()
        o.set(LocationKey.latitude, latitude)
        o.set(LocationKey.longitude, longitude)
        o.set(LocationKey.horizontalAccuracy, horizontalAccuracy)
        o.set(LocationKey.altitude, altitude)
        o.set(LocationKey.verticalAccuracy, verticalAccuracy)
        o.set(LocationKey.speed, speed)
        o.set(LocationKey.course, course)
        o.set(LocationKey.time, time?.rfc3339)
        o.set(LocationKey.accuracy, accuracy)
        o.set(LocationKey.simulated, simulated)
        return o.json
    }
}

extension Params {
    /// An RFC 3339 time.
    public func timestamp(_ key: String) throws(RPCError) -> Timestamp? {
        guard let text = try string(key) else { return nil }
        guard let time = Timestamp(rfc3339: text) else { throw .invalidParams("\"\(key)\" must be an RFC 3339 time") }
        return time
    }
}
