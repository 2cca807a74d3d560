import Foundation
import SextantCore
import SextantProtocol
import Testing

@testable import SextantHub

/// The daemon's zone rules (RULES Z5): the system's tzdata through Foundation, kept from one
/// transition to the next so that a fix in the same zone does not ask tzdata again.
@Suite struct SystemZoneRulesTests {
    /// Foundation asked afresh: what the kept answers must equal.
    static func direct(_ zone: String, _ instant: Timestamp) -> ZoneOffset? {
        guard let timeZone = TimeZone(identifier: zone) else { return nil }
        let date = Date(timeIntervalSince1970: instant.seconds)
        return ZoneOffset(seconds: timeZone.secondsFromGMT(for: date), isDaylightSaving: timeZone.isDaylightSavingTime(for: date))
    }

    /// Every 15 minutes of a year, forward then back (a replay started again), in zones with
    /// daylight saving, a half-hour one (Lord Howe), a standard-offset change without daylight
    /// saving (Caracas, 1 May 2016: −4:30 to −4:00) and a nautical one.
    @Test("Z5: the kept answers equal tzdata's at every quarter hour of 2016, forward and back, across every kind of transition")
    func keptAnswersEqualTzdata() {
        let rules = SystemZoneRules()
        let start = Timestamp(rfc3339: "2016-01-01T00:00:00.000Z")!
        let quarters = 366 * 96
        for zone in ["Europe/Lisbon", "America/Caracas", "Australia/Lord_Howe", "America/Phoenix", "Etc/GMT+2"] {
            var wrong = 0
            for step in Array(0..<quarters) + (0..<quarters).reversed() {
                let instant = start.adding(nanoseconds: Int64(step) * 900_000_000_000 + 7_000_000_000)
                if rules.offset(zone: zone, at: instant) != Self.direct(zone, instant) { wrong += 1 }
            }
            #expect(wrong == 0, "\(zone): \(wrong) quarter hours wrong")
        }
        #expect(rules.offset(zone: "Mars/Olympus_Mons", at: start) == nil)
    }

    @Test("Z5: the standard offset that changed without daylight saving (Caracas 2016) is seen the first fix after it")
    func caracasStandardOffsetChange() {
        let rules = SystemZoneRules()
        let before = rules.offset(zone: "America/Caracas", at: Timestamp(rfc3339: "2016-05-01T06:59:00.000Z")!)
        let after = rules.offset(zone: "America/Caracas", at: Timestamp(rfc3339: "2016-05-01T07:01:00.000Z")!)
        #expect(before?.seconds == -16200 && after?.seconds == -14400)
    }
}
