import SextantProtocol

/// One position fix, as every source delivers it and every engine reads it.
public struct LocationFix: Sendable, Equatable {
    /// Degrees, WGS84.
    public var latitude: Double
    public var longitude: Double
    /// Metres above mean sea level (else above the ellipsoid), when known.
    public var altitude: Double?
    /// Horizontal accuracy radius in metres (`hAcc`).
    public var horizontalAccuracy: Double
    /// Vertical accuracy in metres (`vAcc`), when known.
    public var verticalAccuracy: Double?
    /// Metres per second over ground, when known.
    public var speed: Double?
    /// Degrees clockwise from true north, when known.
    public var course: Double?
    /// When the fix was taken (trace time in replay).
    public var time: Timestamp

    /// The accuracy a location sample gets when its source says nothing (PROTOCOL: 5 m).
    public static let defaultHorizontalAccuracy = 5.0

    public init(
        latitude: Double, longitude: Double, altitude: Double? = nil,
        horizontalAccuracy: Double = LocationFix.defaultHorizontalAccuracy, verticalAccuracy: Double? = nil,
        speed: Double? = nil, course: Double? = nil, time: Timestamp
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
        self.speed = speed
        self.course = course
        self.time = time
    }

    /// Why a set of values is not a usable fix, or nil when it is.
    public static func problem(latitude: Double, longitude: Double) -> String? {
        guard latitude.isFinite, (-90...90).contains(latitude) else { return "lat must be within -90...90" }
        guard longitude.isFinite, (-180...180).contains(longitude) else { return "lon must be within -180...180" }
        return nil
    }
}

/// Proper acceleration in m/s² in the device frame (RULES "Device orientation"):
/// x to the right of the screen, y to its top, z out of the screen; face up at rest
/// reads (0, 0, +9.81).
public struct Acceleration: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var z: Double

    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    public static let standardGravity = 9.80665

    public var magnitude: Double { (x * x + y * y + z * z).squareRoot() }

    /// The largest component a reading may have, in m/s²: about 100 g, beyond any phone's
    /// accelerometer, and small enough that the judge's arithmetic (squares, filters) stays
    /// exact and finite.
    public static let componentLimit = 1000.0

    /// Why three values are not a usable reading, or nil when they are.
    public static func problem(x: Double, y: Double, z: Double) -> String? {
        for (name, value) in [("x", x), ("y", y), ("z", z)] where !(value.isFinite && abs(value) <= componentLimit) {
            return "\(name) must be a number within ±\(Int(componentLimit)) m/s²"
        }
        return nil
    }
}

/// What a GPS source says about itself, as a trace records it (`{"gps":{"state":"lost"}}`).
public enum GPSSignal: String, Sendable, Equatable, CaseIterable {
    /// The source is gone (gpsd died, the receiver was unplugged).
    case lost
    /// The source is there but the receiver has no fix.
    case noFix
    /// The source is delivering fixes.
    case ok
}

/// One reading from any source.
public enum SampleValue: Sendable, Equatable {
    case location(LocationFix)
    case acceleration(Acceleration)
    /// Hinge angle in degrees, 0 (closed) to 180 (flat).
    case hingeAngle(Double)
    case gps(GPSSignal)
}

/// A reading stamped with the time it was taken.
public struct Sample: Sendable, Equatable {
    public var time: Timestamp
    public var value: SampleValue

    public init(time: Timestamp, value: SampleValue) {
        self.time = time
        self.value = value
    }
}
