/// An on-change stream (Android's `REPORTING_MODE_ON_CHANGE`, iio-sensor-proxy's
/// PropertiesChanged): the first value, then each that differs from the last one sent. The
/// light and proximity streams of each app, and the D-Bus face, keep one each.
public struct OnChangeStream<Value: Equatable>: Sendable where Value: Sendable {
    public private(set) var lastSent: Value?

    public init() {}

    /// Whether `value` goes out; it is the last sent when it does.
    public mutating func admits(_ value: Value) -> Bool {
        guard value != lastSent else { return false }
        lastSent = value
        return true
    }

    /// The next value goes out whatever it is (a stream started afresh).
    public mutating func reset() { lastSent = nil }
}

/// iio-sensor-proxy's near or far from a proximity sensor's raw level (its
/// `drv-iio-poll-proximity`): near above a threshold set around the device's near level by
/// the previous raw level — 0.9 × the near level after a level above it, 1.1 × it otherwise.
/// The margin moves only the first reading after a change: a level that holds is near
/// exactly when it is above the near level. Sextant decides as iio-sensor-proxy does so that
/// both say the same of the same sysfs values.
public struct ProximityThreshold: Sendable, Equatable {
    /// The raw level at which something counts as near (udev `PROXIMITY_NEAR_LEVEL`, else
    /// sysfs `in_proximity_nearlevel`).
    public let nearLevel: Double
    /// The previous raw level (0 before any, as iio-sensor-proxy starts).
    public private(set) var lastLevel: Double = 0

    public init(nearLevel: Double) { self.nearLevel = nearLevel }

    /// Whether `raw` is near, remembering it for the next.
    public mutating func isNear(_ raw: Double) -> Bool {
        let threshold = nearLevel * (lastLevel > nearLevel ? 0.9 : 1.1)
        lastLevel = raw
        return raw > threshold
    }
}
