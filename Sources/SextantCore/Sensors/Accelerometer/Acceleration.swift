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

extension SensorKind {
    /// The accelerometer: `{"accel":{"x":0.02,"y":9.79,"z":0.31}}`, m/s² in the device frame;
    /// the orientation judge's input (RULES O1–O5), heard by apps as `orientation`.
    public static let accelerometer = SensorKind(
        name: "accel", noun: "acceleration", topic: .orientation,
        fields: SensorField.axes(of: "accel", unit: "m/s²", limit: Acceleration.componentLimit))
}

extension Acceleration {
    /// The acceleration a reading of the accelerometer holds; nil for another kind.
    public init?(_ reading: SensorReading) {
        guard reading.kind == SensorKind.accelerometer.id else { return nil }
        self.init(x: reading.value(0), y: reading.value(1), z: reading.value(2))
    }

    public var reading: SensorReading { SensorReading(.accelerometer, x, y, z) }

    /// The reading as a vector (device frame, m/s²).
    public var vector: Vector3 { Vector3(x, y, z) }
}

extension SampleValue {
    /// An accelerometer reading.
    public static func acceleration(_ a: Acceleration) -> SampleValue { .reading(a.reading) }

    /// The acceleration, when this is an accelerometer reading.
    public var acceleration: Acceleration? {
        guard case .reading(let reading) = self else { return nil }
        return Acceleration(reading)
    }
}
