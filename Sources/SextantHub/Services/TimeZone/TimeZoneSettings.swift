import Foundation
import SextantCore
import SextantProtocol
import Synchronization

/// What the time-zone service reads of the command line: the boundary table loaded at start
/// (`--time-zone-table`; none: the zone stays unknown) and the zones' rules.
public struct TimeZoneSettings: Sendable {
    /// The table, read and checked once at start; nil when there is none.
    public var table: ZoneTable?
    /// Where it was read from, for `status`; nil when there is no table.
    public var tablePath: String?
    /// The offsets of the zones: the system's tzdata, asked only when the zone or the
    /// offset's interval changes (``SystemZoneRules``).
    public var rules: any ZoneRules = SystemZoneRules()

    /// Where the packages install the world table (docs/timezone.md).
    public static let installedTablePath = "/usr/share/sextant/tz/zones.sxtz"

    public init() {}
}

/// The system's tzdata (/usr/share/zoneinfo) through Foundation's `TimeZone`, which the
/// engine asks on every fix it judges (Z5). An offset holds from one transition of its zone
/// to the next, so the last answer is kept with the interval it holds for, and tzdata is
/// asked again only for another zone or an instant outside it (a transition passed, a
/// replay started again): a fix in the same zone costs a comparison, not a tzdata lookup.
public final class SystemZoneRules: ZoneRules {
    private struct Answer {
        var zone: String
        /// From the instant it was asked for (earlier instants are asked again) to the zone's next transition.
        var from: Timestamp
        var until: Timestamp
        var offset: ZoneOffset?
    }

    private let last = Mutex<Answer?>(nil)

    public init() {}

    public func offset(zone: String, at instant: Timestamp) -> ZoneOffset? {
        let kept: ZoneOffset?? = last.withLock { answer in
            guard let answer, answer.zone == zone, answer.from <= instant, instant < answer.until else { return .none }
            return .some(answer.offset)
        }
        if let kept { return kept }
        let answer = Self.lookUp(zone, at: instant)
        last.withLock { $0 = answer }
        return answer.offset
    }

    /// Whether the system's tzdata knows the zone (or it is a nautical one, which needs none).
    public static func knows(_ zone: String) -> Bool {
        NauticalZone.offset(of: zone) != nil || TimeZone(identifier: zone) != nil
    }

    private static func lookUp(_ zone: String, at instant: Timestamp) -> Answer {
        let never = Timestamp(nanoseconds: .max)
        guard let timeZone = TimeZone(identifier: zone) else { return Answer(zone: zone, from: instant, until: never, offset: nil) }
        let date = Date(timeIntervalSince1970: instant.seconds)
        let offset = ZoneOffset(seconds: timeZone.secondsFromGMT(for: date), isDaylightSaving: timeZone.isDaylightSavingTime(for: date))
        // ICU's next transition of any kind (standard offset or daylight saving).
        let next = timeZone.nextDaylightSavingTimeTransition(after: date).map { Timestamp(seconds: $0.timeIntervalSince1970) } ?? never
        return Answer(zone: zone, from: instant, until: next, offset: offset)
    }
}
