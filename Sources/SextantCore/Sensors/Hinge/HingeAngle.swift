extension SensorKind {
    /// A foldable's hinge: `{"hinge":{"angle":92.5}}`, degrees from 0 (closed) to 180
    /// (flat); the posture engine's input (RULES P1–P4), heard by apps as `posture`.
    public static let hinge = SensorKind(
        name: "hinge", noun: "hinge", topic: .posture,
        fields: [SensorField(name: "angle", unit: "degrees", bounds: 0...180, problem: "hinge.angle must be within 0...180 degrees")])
}

extension SensorReading {
    /// A hinge reading of `degrees`.
    public init(hingeAngle degrees: Double) { self.init(.hinge, degrees) }

    /// The angle in degrees, when this is a hinge reading.
    public var hingeAngle: Double? { kind == SensorKind.hinge.id ? value(0) : nil }
}

extension SampleValue {
    /// A hinge angle in degrees, 0 (closed) to 180 (flat).
    public static func hingeAngle(_ degrees: Double) -> SampleValue { .reading(SensorReading(hingeAngle: degrees)) }

    /// The hinge angle, when this is a hinge reading.
    public var hingeAngle: Double? {
        guard case .reading(let reading) = self else { return nil }
        return reading.hingeAngle
    }
}
