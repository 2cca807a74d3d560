/// The proximity sensor: whether something (an ear, a pocket) is near the screen. Phones
/// report it near or far (iOS `proximityState`, iio-sensor-proxy's `ProximityNear`; Android's
/// `TYPE_PROXIMITY` gives a distance that most sensors make 0 or their maximum range).
extension AppTopic {
    /// `proximity.start`: near and far, on change.
    public static let proximity = AppTopic("proximity")
}

extension SensorKind {
    /// `{"prox":{"near":1}}`: 1 near, 0 far (a name of at most 8 bytes: `prox`); heard by apps
    /// as `proximity` and by iio-sensor-proxy's clients as `ProximityNear`.
    public static let proximity = SensorKind(
        name: "prox", noun: "proximity", topic: .proximity,
        fields: [SensorField(name: "near", unit: "", bounds: 0...1, problem: "prox.near must be 1 (near) or 0 (far)")])
}

extension SensorReading {
    /// A proximity reading: near or far.
    public init(near: Bool) { self.init(.proximity, near ? 1 : 0) }

    /// Whether something is near, when this is a proximity reading (a value over one half
    /// is near: a trace's 0 and 1, and anything between rounded).
    public var isNear: Bool? { kind == SensorKind.proximity.id ? value(0) > 0.5 : nil }
}

extension SampleValue {
    /// A proximity reading.
    public static func proximity(near: Bool) -> SampleValue { .reading(SensorReading(near: near)) }
}
