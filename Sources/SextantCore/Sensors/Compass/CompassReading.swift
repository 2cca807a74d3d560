/// A heading read from a device that reports one, not a field: the HID sensor hub's
/// tilt-compensated compass (`magn_3d`'s `rot_from_north_magnetic_tilt_comp`, what
/// iio-sensor-proxy reads), NMEA `HDG`/`HDT`, a phone recording's orientation. Degrees
/// clockwise from north of the direction the top of the device points (its y axis) when
/// held in its natural orientation; magnetic, true, or both, and an accuracy when known.
public struct CompassReading: Sendable, Equatable {
    /// From magnetic north, 0 ..< 360.
    public var magnetic: Double?
    /// From true (geographic) north, 0 ..< 360.
    public var trueHeading: Double?
    /// Degrees either side within which the heading is, as Core Location's
    /// `headingAccuracy`.
    public var accuracy: Double?

    public init(magnetic: Double? = nil, trueHeading: Double? = nil, accuracy: Double? = nil) {
        precondition(magnetic != nil || trueHeading != nil, "a compass reading carries a heading")
        self.magnetic = magnetic
        self.trueHeading = trueHeading
        self.accuracy = accuracy
    }
}

extension SensorKind {
    /// A compass: `{"compass":{"magnetic":87.5,"accuracy":10}}` or `{"compass":{"true":91.2}}`,
    /// degrees; heard by apps as `heading` through the heading engine.
    public static let compass = SensorKind(
        name: "compass", noun: "compass heading", topic: .heading,
        fields: [
            SensorField(
                name: "magnetic", unit: "degrees", bounds: 0...360, isRequired: false,
                problem: "compass.magnetic must be within 0...360 degrees"),
            SensorField(
                name: "true", unit: "degrees", bounds: 0...360, isRequired: false,
                problem: "compass.true must be within 0...360 degrees"),
            SensorField(
                name: "accuracy", unit: "degrees", bounds: 0...180, isRequired: false,
                problem: "compass.accuracy must be within 0...180 degrees"),
        ],
        oneOf: ["magnetic", "true"])
}

extension CompassReading {
    /// The heading a compass reading holds; nil for another kind.
    public init?(_ reading: SensorReading) {
        guard reading.kind == SensorKind.compass.id, reading[0] != nil || reading[1] != nil else { return nil }
        self.init(magnetic: reading[0], trueHeading: reading[1], accuracy: reading[2])
    }

    public var reading: SensorReading {
        var reading = SensorReading(kind: SensorKind.compass.id)
        if let magnetic { reading.set(0, magnetic) }
        if let trueHeading { reading.set(1, trueHeading) }
        if let accuracy { reading.set(2, accuracy) }
        return reading
    }
}

extension SampleValue {
    /// A compass reading.
    public static func compass(_ heading: CompassReading) -> SampleValue { .reading(heading.reading) }

    /// The heading, when this is a compass reading.
    public var compass: CompassReading? {
        guard case .reading(let reading) = self else { return nil }
        return CompassReading(reading)
    }
}
