import SextantCore

/// The range a reading must be in before it reaches the hub: its kind's bounds
/// (``SensorField/bounds``).
///
/// sysfs values are finite, but `(raw + offset) × scale` and the mount matrix can still
/// overflow to ±∞, or give ±1e306 from a huge `scale` or `offset`: such a value would wreck
/// the orientation judge's filter (RULES O2) for as long as it remembers it. A real
/// accelerometer measures at most a few tens of g (phones and laptops ±2 to ±16 g, about
/// 157 m/s²); past its kind's ±1000 m/s² a reading is a broken driver or a bad attribute.
public enum IIOReadingCheck {
    /// Why a reading cannot be used, or nil when it can.
    public static func problem(_ value: SampleValue) -> String? {
        guard case .reading(let reading) = value, let kind = SensorKinds.all[reading.kind] else { return nil }
        return kind.rangeProblem(reading)
    }
}
