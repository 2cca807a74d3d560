/// The rate of rotation in rad/s about the device's axes (RULES "Device orientation", the
/// accelerometer's frame: x to the right of the screen, y to its top, z out of the screen),
/// counter-clockwise positive seen from the axis's positive end: Android's `TYPE_GYROSCOPE`
/// and Core Motion's `rotationRate` alike. A phone lying still reads about (0, 0, 0); turned
/// on a table to its left at a quarter turn a second it reads (0, 0, +π/2).
public struct RotationRate: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var z: Double

    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// The largest component a reading may have, in rad/s: phones' gyroscopes measure up to
    /// ±2000 °/s (about ±35 rad/s; BMI260, LSM6DSO); ±100 leaves room for any and keeps the
    /// attitude's integration finite.
    public static let componentLimit = 100.0

    /// Its length in rad/s: how fast the device turns, whatever the axis.
    public var magnitude: Double { (x * x + y * y + z * z).squareRoot() }
}

extension AppTopic {
    /// `deviceMotion.start`: the fused attitude with the rotation rate, gravity and user
    /// acceleration (RULES D1–D6).
    public static let deviceMotion = AppTopic("deviceMotion")
}

extension SensorKind {
    /// The gyroscope: `{"gyro":{"x":0.01,"y":-0.02,"z":1.57}}`, rad/s about the device's
    /// axes; the attitude engine's input, heard by apps as `deviceMotion`.
    public static let gyroscope = SensorKind(
        name: "gyro", noun: "rotation rate", topic: .deviceMotion,
        fields: SensorField.axes(of: "gyro", unit: "rad/s", limit: RotationRate.componentLimit))
}

extension RotationRate {
    /// The rate a gyroscope reading holds; nil for another kind.
    public init?(_ reading: SensorReading) {
        guard reading.kind == SensorKind.gyroscope.id else { return nil }
        self.init(x: reading.value(0), y: reading.value(1), z: reading.value(2))
    }

    public var reading: SensorReading { SensorReading(.gyroscope, x, y, z) }
}

extension SampleValue {
    /// A gyroscope reading.
    public static func rotationRate(_ rate: RotationRate) -> SampleValue { .reading(rate.reading) }

    /// The rate, when this is a gyroscope reading.
    public var rotationRate: RotationRate? {
        guard case .reading(let reading) = self else { return nil }
        return RotationRate(reading)
    }
}
