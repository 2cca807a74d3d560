/// An ambient light reading: illuminance in lux, as iio-sensor-proxy's `LightLevel` (with
/// `LightLevelUnit` "lux") and Android's `TYPE_LIGHT` give it.
public enum Illuminance {
    /// The largest reading taken, in lux: direct sunlight is about 100 000 lux; a sensor
    /// whose scale is wrong reads far beyond, and is refused rather than passed on.
    public static let limit = 1_000_000.0
}

extension AppTopic {
    /// `light.start`: the ambient light's readings, on change.
    public static let light = AppTopic("light")
}

extension SensorKind {
    /// The ambient light sensor: `{"light":{"lux":320}}`; heard by apps as `light` and by
    /// iio-sensor-proxy's clients as `LightLevel`.
    public static let light = SensorKind(
        name: "light", noun: "illuminance", topic: .light,
        fields: [SensorField(name: "lux", unit: "lx", bounds: 0...Illuminance.limit, problem: "light.lux must be within 0...\(Int(Illuminance.limit)) lux")])
}

extension SensorReading {
    /// A light reading of `lux`.
    public init(lux: Double) { self.init(.light, lux) }

    /// The illuminance in lux, when this is a light reading.
    public var lux: Double? { kind == SensorKind.light.id ? value(0) : nil }
}

extension SampleValue {
    /// An ambient light reading in lux.
    public static func illuminance(_ lux: Double) -> SampleValue { .reading(SensorReading(lux: lux)) }
}
