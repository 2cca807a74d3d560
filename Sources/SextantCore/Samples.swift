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
    /// Made by software, not measured (iOS `isSimulatedBySoftware`, Android `isMock`): the
    /// hub sets it by the fix's source and `--simulated-flag`.
    public var simulated: Bool
    /// A recording's own word on whether the fix was mock (GnssLogger's `MockLocation`),
    /// nil where the trace says nothing: under `--simulated-flag auto` it decides (RULES N7).
    public var recordedSimulated: Bool?

    /// The accuracy a location sample gets when its source says nothing (PROTOCOL: 5 m).
    public static let defaultHorizontalAccuracy = 5.0

    public init(
        latitude: Double, longitude: Double, altitude: Double? = nil,
        horizontalAccuracy: Double = LocationFix.defaultHorizontalAccuracy, verticalAccuracy: Double? = nil,
        speed: Double? = nil, course: Double? = nil, time: Timestamp, simulated: Bool = false, recordedSimulated: Bool? = nil
    ) {
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
        self.speed = speed
        self.course = course
        self.time = time
        self.simulated = simulated
        self.recordedSimulated = recordedSimulated
    }

    /// The widest altitudes a fix may carry, in metres: a deep mine to a low orbit.
    public static let altitudeRange: ClosedRange<Double> = -100_000...1_000_000
    /// The largest accuracy radius (`hAcc`, `vAcc`) in metres: half the Earth's girth.
    public static let maximumAccuracy = 20_000_000.0
    /// The fastest speed a fix may carry, in m/s: well above an orbit's 7.8 km/s.
    public static let maximumSpeed = 100_000.0

    /// Why a set of values is not a usable fix, or nil when it is. The one validator of a
    /// fix's values, whoever brings them (a trace, a control request, gpsd): every value
    /// finite and in range; the reason names the wire field (`lat`, `hAcc`, …).
    public static func problem(
        latitude: Double, longitude: Double, altitude: Double? = nil, horizontalAccuracy: Double? = nil,
        verticalAccuracy: Double? = nil, speed: Double? = nil, course: Double? = nil
    ) -> String? {
        guard isAcceptable(latitude: latitude) else { return "\(LocationKey.latitude) must be within -90...90" }
        guard isAcceptable(longitude: longitude) else { return "\(LocationKey.longitude) must be within -180...180" }
        if let altitude, !isAcceptable(altitude: altitude) {
            return "\(LocationKey.altitude) must be within \(Int(altitudeRange.lowerBound))...\(Int(altitudeRange.upperBound)) m"
        }
        if let horizontalAccuracy, !isAcceptable(accuracy: horizontalAccuracy) {
            return "\(LocationKey.horizontalAccuracy) must be within 0...\(Int(maximumAccuracy)) m"
        }
        if let verticalAccuracy, !isAcceptable(accuracy: verticalAccuracy) {
            return "\(LocationKey.verticalAccuracy) must be within 0...\(Int(maximumAccuracy)) m"
        }
        if let speed, !isAcceptable(speed: speed) { return "\(LocationKey.speed) must be within 0...\(Int(maximumSpeed)) m/s" }
        if let course, !isAcceptable(course: course) { return "\(LocationKey.course) must be within 0..<360 degrees" }
        return nil
    }

    // The ranges of `problem`, one value at a time, for a reader that drops a bad value
    // and keeps the fix (NMEA) without building a reason it will not show.
    public static func isAcceptable(latitude: Double) -> Bool { latitude.isFinite && (-90...90).contains(latitude) }
    public static func isAcceptable(longitude: Double) -> Bool { longitude.isFinite && (-180...180).contains(longitude) }
    public static func isAcceptable(altitude: Double) -> Bool { altitude.isFinite && altitudeRange.contains(altitude) }
    /// `hAcc` and `vAcc`.
    public static func isAcceptable(accuracy: Double) -> Bool { accuracy.isFinite && (0...maximumAccuracy).contains(accuracy) }
    public static func isAcceptable(speed: Double) -> Bool { speed.isFinite && (0...maximumSpeed).contains(speed) }
    public static func isAcceptable(course: Double) -> Bool { course.isFinite && (0..<360).contains(course) }

    /// Why this fix is not usable, or nil (`problem(latitude:…)` on every field).
    public var problem: String? {
        LocationFix.problem(
            latitude: latitude, longitude: longitude, altitude: altitude, horizontalAccuracy: horizontalAccuracy,
            verticalAccuracy: verticalAccuracy, speed: speed, course: course)
    }

    /// The fix's members as the wire and Sextant traces write them (`lat`, `lon`, `hAcc`,
    /// and `alt`, `vAcc`, `speed`, `course` when known); `time` only when asked for, since
    /// a trace line gives its time as `t`. The one encoder of a fix.
    public func jsonMembers(includingTime: Bool) -> [String: JSONValue] {
        var o: [String: JSONValue] = [
            LocationKey.latitude: .double(latitude), LocationKey.longitude: .double(longitude),
            LocationKey.horizontalAccuracy: .double(horizontalAccuracy),
        ]
        if includingTime { o[LocationKey.time] = .string(time.rfc3339) }
        if let altitude { o[LocationKey.altitude] = .double(altitude) }
        if let verticalAccuracy { o[LocationKey.verticalAccuracy] = .double(verticalAccuracy) }
        if let speed { o[LocationKey.speed] = .double(speed) }
        if let course { o[LocationKey.course] = .double(course) }
        return o
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

/// One reading from any source: a fix, a GPS source's state (neither is arbitrated nor
/// judged by an engine of motion), a sensor's reading, whatever its kind (``SensorKinds``),
/// or a record of some kind (``RecordKinds``: the satellites it sees).
public enum SampleValue: Sendable, Equatable {
    case location(LocationFix)
    case reading(SensorReading)
    case gps(GPSSignal)
    /// A non-scalar sample, whatever its kind (`SampleValue.sky`).
    case record(SampleRecord)
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
