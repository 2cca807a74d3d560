/// The magnetic field in µT in the device frame, the accelerometer's (RULES "Device
/// orientation", Android's sensor frame): x to the right of the screen, y to its top, z out
/// of the screen. Earth's field is about 20–70 µT; a phone's magnetometer saturates near
/// ±5000 µT (AK09918: ±4912), which bounds what a reading may say.
public struct MagneticField: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var z: Double

    public init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// The largest component a reading may have, in µT.
    public static let componentLimit = 5000.0

    public var strength: Double { (x * x + y * y + z * z).squareRoot() }
}

extension SensorKind {
    /// The magnetometer: `{"magnet":{"x":22.1,"y":5.3,"z":-40.2}}`, µT in the device frame;
    /// the heading engine's input with the accelerometer's gravity, heard by apps as `heading`.
    public static let magnetometer = SensorKind(
        name: "magnet", noun: "magnetic field", topic: .heading,
        fields: SensorField.axes(of: "magnet", unit: "µT", limit: MagneticField.componentLimit))
}

extension MagneticField {
    /// The field a magnetometer reading holds; nil for another kind.
    public init?(_ reading: SensorReading) {
        guard reading.kind == SensorKind.magnetometer.id else { return nil }
        self.init(x: reading.value(0), y: reading.value(1), z: reading.value(2))
    }

    public var reading: SensorReading { SensorReading(.magnetometer, x, y, z) }
}

extension SampleValue {
    /// A magnetometer reading.
    public static func magneticField(_ field: MagneticField) -> SampleValue { .reading(field.reading) }

    /// The field, when this is a magnetometer reading.
    public var magneticField: MagneticField? {
        guard case .reading(let reading) = self else { return nil }
        return MagneticField(reading)
    }
}
