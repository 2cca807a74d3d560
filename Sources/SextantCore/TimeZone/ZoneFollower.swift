import SextantProtocol

/// What the time-zone engine decided on one fix: the device's zone from now on.
public struct ZoneDecision: Sendable, Equatable {
    public enum Reason: String, Sendable {
        /// The first fix with a zone (Z2).
        case first
        /// The device has been in another zone long enough (Z3).
        case zoneChanged
        /// Same zone, but its offset or daylight saving changed at the fix's time (Z5).
        case offsetChanged
    }

    public var zone: String
    public var previousZone: String?
    /// The offset at the fix's time; nil when the rules do not know the zone (no tzdata).
    public var offset: ZoneOffset?
    /// The time of the fix that decided it (trace time in a replay).
    public var time: Timestamp
    public var reason: Reason
}

/// The numbers of rules Z3 and Z4 (docs/sextant-rules.7.md, TIME ZONE).
public struct ZoneFollowerSettings: Sendable, Equatable {
    /// Consecutive fixes in the new zone before it is taken.
    public var confirmFixes: Int
    /// Seconds of fix time from the first of them.
    public var confirmSeconds: Double
    /// A fix less sure than this (hAcc, metres) decides nothing.
    public var maximumAccuracy: Double

    public static let standard = ZoneFollowerSettings(confirmFixes: 3, confirmSeconds: 30, maximumAccuracy: 500)

    public init(confirmFixes: Int, confirmSeconds: Double, maximumAccuracy: Double) {
        self.confirmFixes = confirmFixes
        self.confirmSeconds = confirmSeconds
        self.maximumAccuracy = maximumAccuracy
    }
}

/// Decides the device's time zone from its fixes: the zone at the true position (Z1), with
/// hysteresis at a border (Z3), the offset at the fix's own time (Z5). Pure: the table and
/// the rules are handed in; fix times are the only clock, so a replay decides the same at
/// any pace.
public struct ZoneFollower: Sendable {
    public let table: ZoneTable
    public let rules: any ZoneRules
    public let settings: ZoneFollowerSettings

    /// The zone taken, nil before the first fix (Z2).
    public private(set) var zone: String?
    public private(set) var offset: ZoneOffset?
    private var candidate: (zone: String, fixes: Int, since: Timestamp)?
    private var lastTime: Timestamp?

    public init(table: ZoneTable, rules: any ZoneRules, settings: ZoneFollowerSettings = .standard) {
        self.table = table
        self.rules = rules
        self.settings = settings
    }

    /// Takes one fix; returns a decision when the zone (or its offset) changes.
    public mutating func observe(_ fix: LocationFix) -> ZoneDecision? {
        if let last = lastTime, fix.time < last { candidate = nil }   // Z6: time went back
        lastTime = fix.time
        guard fix.horizontalAccuracy <= settings.maximumAccuracy,
              let here = table.zone(latitude: fix.latitude, longitude: fix.longitude) else { return nil }
        guard let current = zone else { return take(here, at: fix.time, reason: .first) }
        if here == current {
            candidate = nil
            return offsetCheck(at: fix.time)
        }
        let held = candidate.flatMap { $0.zone == here ? $0 : nil }
        let next = (zone: here, fixes: (held?.fixes ?? 0) + 1, since: held?.since ?? fix.time)
        candidate = next
        let seconds = Double(fix.time.nanoseconds - next.since.nanoseconds) / 1e9
        if next.fixes >= settings.confirmFixes, seconds >= settings.confirmSeconds {
            return take(here, at: fix.time, reason: .zoneChanged)
        }
        return offsetCheck(at: fix.time)
    }

    private mutating func take(_ newZone: String, at time: Timestamp, reason: ZoneDecision.Reason) -> ZoneDecision {
        let previous = zone
        zone = newZone
        offset = offsetOf(newZone, at: time)
        candidate = nil
        return ZoneDecision(zone: newZone, previousZone: previous, offset: offset, time: time, reason: reason)
    }

    /// Z5: the zone stays, but the fix's time is past one of its transitions.
    private mutating func offsetCheck(at time: Timestamp) -> ZoneDecision? {
        guard let current = zone else { return nil }
        let now = offsetOf(current, at: time)
        guard now != offset else { return nil }
        offset = now
        return ZoneDecision(zone: current, previousZone: current, offset: now, time: time, reason: .offsetChanged)
    }

    private func offsetOf(_ zone: String, at time: Timestamp) -> ZoneOffset? {
        rules.offset(zone: zone, at: time) ?? NauticalZone.offset(of: zone)
    }
}
