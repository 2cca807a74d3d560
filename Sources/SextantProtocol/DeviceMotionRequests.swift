/// The reference frames an attitude is given in (RULES D2): Core Motion's four
/// `CMAttitudeReferenceFrame`s and Android's two rotation vectors, by their names on the wire.
public enum AttitudeReferenceFrame: String, CaseIterable, Sendable {
    /// Core Motion: z up, x wherever the yaw started; gyroscope and accelerometer only (the
    /// yaw drifts with the gyroscope's bias).
    case xArbitraryZVertical
    /// Core Motion: z up, x arbitrary but held there by the magnetometer (no drift).
    case xArbitraryCorrectedZVertical
    /// Core Motion: z up, x to magnetic north (so y to the west).
    case xMagneticNorthZVertical
    /// Core Motion: z up, x to true north, through the declination the heading uses (H3).
    case xTrueNorthZVertical
    /// Android `TYPE_ROTATION_VECTOR`: x east, y magnetic north, z up (SensorManager's world
    /// frame: "Y points towards magnetic north").
    case rotationVector
    /// Android `TYPE_GAME_ROTATION_VECTOR`: x and y arbitrary in the horizontal, z up.
    case gameRotationVector
}

/// `deviceMotion.start`: `deviceMotion` events (RULES D1–D6) at most one each `interval`.
public struct DeviceMotionStart: RPCRequest, Equatable {
    public typealias Result = EmptyResult
    public static let method = Method.deviceMotionStart
    /// Seconds of the readings' clock between two events (Core Motion's
    /// `deviceMotionUpdateInterval`); 0 sends one per fused reading; `MotionStart`'s default
    /// when absent.
    public var interval: Double?
    /// Core Motion's default for `startDeviceMotionUpdates` when absent.
    public var referenceFrame: AttitudeReferenceFrame?

    public static let defaultFrame = AttitudeReferenceFrame.xArbitraryZVertical

    public init(interval: Double? = nil, referenceFrame: AttitudeReferenceFrame? = nil) {
        (self.interval, self.referenceFrame) = (interval, referenceFrame)
    }

    public init(_ p: Params) throws(RPCError) {
        interval = try MotionStart(p).interval
        referenceFrame = try p.name("referenceFrame", as: AttitudeReferenceFrame.self)
    }

    public var params: JSONValue {
        var o = WireObject()
        o.set("interval", interval)
        o.set("referenceFrame", referenceFrame?.rawValue)
        return o.json
    }
}

public struct DeviceMotionStop: ParameterlessRequest, Equatable {
    public typealias Result = EmptyResult
    public static let method = Method.deviceMotionStop
    public init() {}
}

/// Three numbers in the device frame (x right of the screen, y to its top, z out of it).
public struct WireVector: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var z: Double

    public init(x: Double, y: Double, z: Double) { (self.x, self.y, self.z) = (x, y, z) }

    init(_ p: Params, _ key: String) throws(RPCError) {
        guard let v = try p.object(key) else { throw .invalidParams("\"\(key)\" is required") }
        self.init(x: try v.requiredNumber("x"), y: try v.requiredNumber("y"), z: try v.requiredNumber("z"))
    }

    public var json: JSONValue { ["x": .double(x), "y": .double(y), "z": .double(z)] }
}

/// The `deviceMotion` event's params (Core Motion's `CMDeviceMotion`, Android's rotation
/// vector, gravity, linear acceleration and gyroscope in one): the attitude as a unit
/// quaternion rotating device-frame vectors into `referenceFrame`; the gyroscope's rate
/// (rad/s, null without a gyroscope); gravity as the accelerometer reads it at rest and the
/// rest of the reading (m/s², device frame: Android's `TYPE_GRAVITY` and
/// `TYPE_LINEAR_ACCELERATION`; Core Motion's `gravity` and `userAcceleration` are these
/// divided by −9.80665, in g with its opposite sign); and the reading's time.
public struct WireDeviceMotion: WireValue, Equatable {
    public var attitude: (w: Double, x: Double, y: Double, z: Double)
    public var referenceFrame: AttitudeReferenceFrame
    public var rotationRate: WireVector?
    public var gravity: WireVector
    public var userAcceleration: WireVector
    public var time: Timestamp

    public init(
        attitude: (w: Double, x: Double, y: Double, z: Double), referenceFrame: AttitudeReferenceFrame, rotationRate: WireVector?,
        gravity: WireVector, userAcceleration: WireVector, time: Timestamp
    ) {
        (self.attitude, self.referenceFrame, self.rotationRate) = (attitude, referenceFrame, rotationRate)
        (self.gravity, self.userAcceleration, self.time) = (gravity, userAcceleration, time)
    }

    public init(json: JSONValue) throws(RPCError) {
        let p = try Params(result: json)
        guard let time = try p.timestamp("time") else { throw .invalidParams("\"time\" is required") }
        guard let q = try p.object("attitude") else { throw .invalidParams("\"attitude\" is required") }
        guard let frame = try p.name("referenceFrame", as: AttitudeReferenceFrame.self) else { throw .invalidParams("\"referenceFrame\" is required") }
        let rate: WireVector? = try p.object("rotationRate") == nil ? nil : try WireVector(p, "rotationRate")
        self.init(
            attitude: (try q.requiredNumber("w"), try q.requiredNumber("x"), try q.requiredNumber("y"), try q.requiredNumber("z")),
            referenceFrame: frame, rotationRate: rate, gravity: try WireVector(p, "gravity"),
            userAcceleration: try WireVector(p, "userAcceleration"), time: time)
    }

    public var json: JSONValue {
        [
            "attitude": ["w": .double(attitude.w), "x": .double(attitude.x), "y": .double(attitude.y), "z": .double(attitude.z)],
            "referenceFrame": .string(referenceFrame.rawValue), "rotationRate": rotationRate?.json ?? .null,
            "gravity": gravity.json, "userAcceleration": userAcceleration.json, "time": .string(time.rfc3339),
        ]
    }

    public static func == (a: WireDeviceMotion, b: WireDeviceMotion) -> Bool {
        a.attitude == b.attitude && a.referenceFrame == b.referenceFrame && a.rotationRate == b.rotationRate && a.gravity == b.gravity
            && a.userAcceleration == b.userAcceleration && a.time == b.time
    }
}
