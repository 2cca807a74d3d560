import SextantCore

/// The range a reading must be in before it reaches the hub.
///
/// sysfs values are finite, but `(raw + offset) × scale` and the mount matrix can still
/// overflow to ±∞, or give ±1e306 from a huge `scale` or `offset`: such a value would wreck
/// the orientation judge's filter (RULES O2) for as long as it remembers it. A real
/// accelerometer measures at most a few tens of g (phones and laptops ±2 to ±16 g, about
/// 157 m/s²); past ``maximumAcceleration`` a reading is a broken driver or a bad attribute.
public enum IIOReadingCheck {
    /// m/s² on any axis: about 102 g.
    public static let maximumAcceleration = 1000.0

    /// Why a reading cannot be used, or nil when it can.
    public static func problem(_ value: SampleValue) -> String? {
        switch value {
        case .acceleration(let a):
            for (axis, component) in [("x", a.x), ("y", a.y), ("z", a.z)] {
                guard component.isFinite, abs(component) <= maximumAcceleration else {
                    return "acceleration \(axis) \(component) m/s² is not within ±\(Int(maximumAcceleration)) m/s²"
                }
            }
            return nil
        case .hingeAngle(let degrees):
            // Clamped to 0...180 already, except NaN ((raw + offset) overflowing to ∞ times a 0 scale).
            return degrees.isFinite ? nil : "hinge angle \(degrees) is not a number of degrees"
        case .location, .gps:
            return nil
        }
    }
}

/// Says a repeated warning once, then at most once per `interval` with the count of those
/// held back, so that a sensor broken at 50 Hz fills no log.
struct RateLimitedWarnings {
    /// Monotonic nanoseconds between two warnings about the same thing.
    let interval: Int64
    private var entries: [String: (lastSaid: Int64, heldBack: Int)] = [:]

    init(interval: Int64) { self.interval = interval }

    /// Notes one occurrence of `key` at `now`: nil when it is held back, else how many were
    /// held back since the last warning said (0 for the first).
    mutating func note(_ key: String, at now: Int64) -> Int? {
        guard let entry = entries[key] else {
            entries[key] = (now, 0)
            return 0
        }
        guard now - entry.lastSaid >= interval else {
            entries[key] = (entry.lastSaid, entry.heldBack + 1)
            return nil
        }
        entries[key] = (now, 0)
        return entry.heldBack
    }

    /// Forgets `key` (its sensor was removed): a sensor plugged in again is warned about afresh.
    mutating func forget(_ key: String) { entries[key] = nil }
}
