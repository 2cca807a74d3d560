// The C math library: Foundation would cost every program that links SextantCore its
// 6 MiB of resident code.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SextantProtocol

/// A heading decided from one sample (RULES H1–H5), in the device's natural orientation.
public struct Heading: Sendable, Equatable {
    /// Degrees clockwise from magnetic north, 0 ..< 360.
    public var magnetic: Double
    /// A true heading the source itself reported (a compass that knows one); true headings
    /// for apps are otherwise magnetic + declination (H6).
    public var reportedTrue: Double?
    /// Degrees either side (Core Location's `headingAccuracy`); nil when the source says nothing.
    public var accuracy: Double?
    /// The field it was decided from, µT, device frame; nil for a compass reading.
    public var field: MagneticField?
    /// The sample's time (trace time in replay).
    public var time: Timestamp

    public init(
        magnetic: Double, reportedTrue: Double? = nil, accuracy: Double?, field: MagneticField?, time: Timestamp
    ) {
        (self.magnetic, self.reportedTrue, self.accuracy, self.field, self.time) =
            (magnetic, reportedTrue, accuracy, field, time)
    }
}

/// What one sample decided: the heading, and the calibration state when it changed (H5).
public struct HeadingDecision: Sendable, Equatable {
    public var heading: Heading
    /// iOS `shouldDisplayHeadingCalibration`: set when the state changed with this sample.
    public var calibrationChanged: Bool?
}

/// Decides magnetic headings from the magnetometer and the latest gravity, or takes a
/// compass's as it is, and judges the field's quality (RULES H1–H5). Pure: times come from
/// the samples, the model's expectation at the last known place from the caller.
public struct HeadingEngine: Sendable {
    /// H3: the accuracy of a clean field with gravity known, degrees.
    public static let cleanAccuracy = 5.0
    /// H3: with no accelerometer reading yet the device is taken as lying flat.
    public static let noGravityAccuracy = 45.0
    /// H3: the field's inclination more than this from the model's at the last known place.
    public static let inclinationTolerance = 10.0
    public static let inclinationOffAccuracy = 20.0
    /// H4: Earth's field is within these µT everywhere; more than `strengthTolerance` of the
    /// model's intensity at a known place is not Earth's field alone either.
    public static let earthStrength = 20.0...70.0
    public static let strengthTolerance = 0.25
    /// H4: a sudden change: strength or inclination this far from their recent average.
    public static let suddenStrengthChange = 10.0
    public static let suddenInclinationChange = 10.0
    /// H4: the recent average's time constant, and how long a sudden change counts.
    public static let averagingNanoseconds: Int64 = 2_000_000_000
    public static let disturbanceHoldNanoseconds: Int64 = 2_000_000_000
    /// H4, H5: the accuracy of a disturbed field; it raises the calibration state.
    public static let disturbedAccuracy = 30.0

    /// H5: whether the app should show the calibration prompt.
    public private(set) var needsCalibration = false
    /// The latest heading decided, nil before the first.
    public private(set) var latest: Heading?
    private var gravity: Acceleration?
    private var average: FieldAverage?
    private var lastDisturbance: Int64?
    /// The model's field at the last known place and date (H3, H4), set by the hub.
    public var expected: GeomagneticElements?

    public init() {}

    /// H1: the latest accelerometer reading is the device's attitude until the next one.
    public mutating func gravity(_ acceleration: Acceleration) {
        guard acceleration.magnitude > 0, acceleration.magnitude.isFinite else { return }
        gravity = acceleration
    }

    /// Judges one magnetometer reading (µT, device frame) taken at `time`.
    public mutating func judge(_ field: MagneticField, at time: Timestamp) -> HeadingDecision? {
        let attitude = gravity ?? Acceleration(x: 0, y: 0, z: 1)
        guard let magnetic = HeadingMath.magneticHeading(field: field, gravity: attitude) else { return nil }
        let disturbed = isDisturbed(field, attitude: attitude, at: time.nanoseconds)
        var accuracy = gravity == nil ? Self.noGravityAccuracy : Self.cleanAccuracy
        if let expected, gravity != nil, let inclination = HeadingMath.inclination(field: field, gravity: attitude),
            abs(inclination - expected.inclination) > Self.inclinationTolerance
        {
            accuracy = max(accuracy, Self.inclinationOffAccuracy)
        }
        if disturbed { accuracy = max(accuracy, Self.disturbedAccuracy) }
        let heading = Heading(magnetic: magnetic, accuracy: accuracy, field: field, time: time)
        return decided(heading, calibration: disturbed)
    }

    /// H1: a compass reading is taken as it is; one with only a true heading needs the
    /// declination at the last known place (`expected`), and without it decides nothing.
    public mutating func judge(_ compass: CompassReading, at time: Timestamp) -> HeadingDecision? {
        guard let magnetic = compass.magnetic ?? compass.trueHeading.flatMap({ t in
            expected.map { HeadingMath.normalized(t - $0.declination) }
        }) else { return nil }
        let heading = Heading(
            magnetic: HeadingMath.normalized(magnetic), reportedTrue: compass.trueHeading,
            accuracy: compass.accuracy, field: nil, time: time)
        return decided(heading, calibration: false)
    }

    /// Nothing feeds the heading any more: no latest until the next reading.
    public mutating func forgetLatest() { latest = nil }

    private mutating func decided(_ heading: Heading, calibration: Bool) -> HeadingDecision {
        latest = heading
        guard calibration != needsCalibration else { return HeadingDecision(heading: heading) }
        needsCalibration = calibration
        return HeadingDecision(heading: heading, calibrationChanged: calibration)
    }

    /// H4: out of Earth's range, far from the model's intensity, or a sudden change of
    /// strength or inclination within the last `disturbanceHoldNanoseconds`.
    private mutating func isDisturbed(_ field: MagneticField, attitude: Acceleration, at now: Int64) -> Bool {
        let strength = field.strength
        let inclination = gravity == nil ? nil : HeadingMath.inclination(field: field, gravity: attitude)
        if let average, average.isSudden(strength: strength, inclination: inclination, at: now) {
            lastDisturbance = now
        }
        average = (average ?? FieldAverage(strength: strength, inclination: inclination, time: now))
            .updated(strength: strength, inclination: inclination, at: now)
        if let last = lastDisturbance, last > now { lastDisturbance = nil }
        let recentlySudden = lastDisturbance.map { now - $0 < Self.disturbanceHoldNanoseconds } ?? false
        var outOfRange = !Self.earthStrength.contains(strength)
        if let expected {
            let model = expected.total / 1000
            outOfRange = outOfRange || abs(strength - model) > Self.strengthTolerance * model
        }
        return recentlySudden || outOfRange
    }
}

/// H4: the field's recent strength and inclination, averaged with a time constant of
/// `HeadingEngine.averagingNanoseconds` so that the rule does not depend on the sample rate.
struct FieldAverage: Sendable {
    var strength: Double
    var inclination: Double?
    var time: Int64

    func isSudden(strength s: Double, inclination i: Double?, at now: Int64) -> Bool {
        guard now >= time else { return false }
        if abs(s - strength) >= HeadingEngine.suddenStrengthChange { return true }
        guard let i, let inclination else { return false }
        return abs(i - inclination) >= HeadingEngine.suddenInclinationChange
    }

    func updated(strength s: Double, inclination i: Double?, at now: Int64) -> FieldAverage {
        // Time going backwards (a new replay) or a first sample: start from this one.
        guard now > time else { return FieldAverage(strength: s, inclination: i, time: now) }
        let alpha = 1 - exp(-Double(now - time) / Double(HeadingEngine.averagingNanoseconds))
        let blended = inclination.flatMap { old in i.map { old + alpha * ($0 - old) } } ?? i
        return FieldAverage(strength: strength + alpha * (s - strength), inclination: blended, time: now)
    }
}
