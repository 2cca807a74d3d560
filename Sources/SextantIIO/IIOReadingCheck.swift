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
