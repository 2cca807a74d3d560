import SextantProtocol

/// A zone's UTC offset at one instant.
public struct ZoneOffset: Sendable, Equatable {
    /// Seconds east of UTC (Asia/Kabul: +16200; America/Phoenix: −25200).
    public var seconds: Int
    /// Whether daylight-saving time is in force then.
    public var isDaylightSaving: Bool

    public init(seconds: Int, isDaylightSaving: Bool) {
        self.seconds = seconds
        self.isDaylightSaving = isDaylightSaving
    }
}

/// The rules of the zones by id: the system's tzdata in the daemon (Foundation's `TimeZone`
/// reads /usr/share/zoneinfo), a fixed table in a test. Kept out of the engine so that it
/// stays pure: no file, no clock.
public protocol ZoneRules: Sendable {
    /// The offset in force in `zone` at `instant`, or nil when the zone is not known.
    func offset(zone: String, at instant: Timestamp) -> ZoneOffset?
}

/// The nautical zones' offsets, which tzdata also holds but which need no table:
/// Etc/GMT+N is N hours *west* of UTC (POSIX's sign), never with daylight saving.
public enum NauticalZone {
    public static func offset(of zone: String) -> ZoneOffset? {
        guard zone.hasPrefix("Etc/GMT") else { return nil }
        let rest = zone.dropFirst("Etc/GMT".count)
        if rest.isEmpty { return ZoneOffset(seconds: 0, isDaylightSaving: false) }
        guard let sign = rest.first, sign == "+" || sign == "-", let hours = Int(rest.dropFirst()),
              (0...14).contains(hours) else { return nil }
        return ZoneOffset(seconds: (sign == "+" ? -1 : 1) * hours * 3600, isDaylightSaving: false)
    }
}
