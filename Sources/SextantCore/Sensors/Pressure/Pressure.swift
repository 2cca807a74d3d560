/// A barometer: the air pressure in hPa, as Android's `TYPE_PRESSURE` gives it (iOS's
/// `CMAltitudeData.pressure` is the same in kPa).
extension AppTopic {
    /// `altimeter.start`: relative and absolute altitude, and the pressure, about once a second.
    public static let altimeter = AppTopic("altimeter")
}

extension SensorKind {
    /// `{"pressure":{"hPa":1013.25}}`: the static air pressure in hPa; the altimeter's input.
    public static let pressure = SensorKind(
        name: "pressure", noun: "pressure", topic: .altimeter,
        fields: [SensorField(name: "hPa", unit: "hPa", bounds: 0...1200, problem: "pressure.hPa must be within 0...1200 hPa")])
}

extension SensorReading {
    /// A barometer reading of `hPa`.
    public init(hectopascals hPa: Double) { self.init(.pressure, hPa) }

    /// The pressure in hPa, when this is a barometer reading.
    public var hectopascals: Double? { kind == SensorKind.pressure.id ? value(0) : nil }
}
