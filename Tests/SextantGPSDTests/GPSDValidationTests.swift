import SextantCore
import SextantProtocol
import SextantTestSupport
import Testing

@testable import SextantGPSD

/// A gpsd is a network peer: what its TPVs say is range-checked like a trace's fields
/// (issue 9, points 6 and 10).
@Suite("gpsd values (TPV fields range-checked)")
struct GPSDValidationTests {
    let received = Timestamp(year: 2026, month: 3, day: 1, secondsOfDay: 8 * 3600)

    private func decode(_ fields: String) throws -> (GPSDReport, [String]) {
        var dropped: [String] = []
        let line = #"{"class":"TPV","mode":3,"lat":48.5,"lon":2.25,"# + fields + "}"
        return (try GPSDReport.decode(line: line, receivedAt: received, dropped: &dropped), dropped)
    }

    @Test("epx and epy of 1e200 m: the diagonal overflows no longer; an error over 20,040 km is no fix")
    func hugeErrorBox() throws {
        let (report, _) = try decode(#""epx":1e200,"epy":1e200,"time":"2026-03-01T08:00:00.000Z""#)
        guard case .unusableFix(let reason) = report else {
            Issue.record("expected an unusable fix, got \(report)")
            return
        }
        #expect(reason.contains("horizontal error"))
        #expect(try decode(#""eph":1e300"#).0 == .unusableFix(reason: "horizontal error 1e+300 m is not within 0...20040000 m"))
        // hypot still gives the 3-4-5 diagonal.
        guard case .position(let fix) = try decode(#""epx":3e3,"epy":4e3"#).0 else { throw GPSDReportError("no fix") }
        #expect(fix.horizontalAccuracy == 5e3)
    }

    @Test("Negative speed, track 99999 and a negative epv are dropped, and noted; the fix stays")
    func droppedFields() throws {
        let (report, dropped) = try decode(#""speed":-3,"track":99999,"epv":-1,"eph":12"#)
        #expect(report == .position(LocationFix(latitude: 48.5, longitude: 2.25, horizontalAccuracy: 12, time: received)))
        #expect(dropped == ["epv -1.0 is negative", "speed -3.0 is negative", "track 99999.0 is not within 0..<360"])
        let (kept, none) = try decode(#""speed":0,"track":359.9,"epv":0"#)
        #expect(kept == .position(LocationFix(latitude: 48.5, longitude: 2.25, verticalAccuracy: 0, speed: 0, course: 359.9, time: received)))
        #expect(none.isEmpty)
    }

    @Test(
        "A TPV time in year 3000, 0001 or 9999 is refused without a trap: the fix is unusable",
        arguments: ["3000-01-01T00:00:00.000Z", "0001-01-01T00:00:00.000Z", "9999-12-31T23:59:59.999Z", "2263-01-01T00:00:00Z", "1979-12-31T23:59:59Z"])
    func outOfRangeTime(time: String) throws {
        guard case .unusableFix(let reason) = try decode(#""time":"\#(time)""#).0 else {
            Issue.record("a fix dated \(time) was accepted")
            return
        }
        #expect(reason.contains("time"))
    }

    @Test("A TPV without fix dated out of range keeps the time it was received")
    func outOfRangeTimeWithoutFix() throws {
        let line = #"{"class":"TPV","mode":1,"time":"3000-01-01T00:00:00.000Z"}"#
        #expect(try GPSDReport.decode(line: line, receivedAt: received) == .noFix(time: received))
    }

    @Test("Times at the edges of the plausible years are kept")
    func edgeYears() throws {
        #expect(TPVFieldCheck.time(rfc3339: "1980-01-06T00:00:00Z") == Timestamp(year: 1980, month: 1, day: 6, secondsOfDay: 0))
        #expect(TPVFieldCheck.time(rfc3339: "2200-12-31T23:59:59.5Z") == Timestamp(year: 2200, month: 12, day: 31, secondsOfDay: 86399.5))
        #expect(TPVFieldCheck.time(rfc3339: "+3000-01-01T00:00:00Z") == nil)
        #expect(TPVFieldCheck.time(rfc3339: "20") == nil)
    }
}

@Suite("gpsd liveness (banner and silence time-outs)")
struct GPSDLivenessTests {
    let second: Int64 = 1_000_000_000
    let t0: Int64 = 7_000_000_000_000

    @Test("No VERSION within 5 s of connecting: the attempt has failed")
    func bannerTimeout() {
        var liveness = GPSDLiveness(connectedAt: t0)
        #expect(liveness.check(at: t0) == .checkAgain(at: t0 + 5 * second))
        // Bytes before the banner prove nothing.
        liveness.heard(at: t0 + 4 * second)
        guard case .giveUp(let reason) = liveness.check(at: t0 + 5 * second) else {
            Issue.record("no give-up at 5 s")
            return
        }
        #expect(reason.contains("VERSION"))
    }

    @Test("Quiet for 5 s: ask ?VERSION once; an answer keeps the link, none within 10 s of silence loses it")
    func silence() {
        var liveness = GPSDLiveness(connectedAt: t0)
        liveness.bannerReceived(at: t0 + second)
        #expect(!liveness.isAwaitingBanner)
        #expect(liveness.check(at: t0 + 2 * second) == .checkAgain(at: t0 + 6 * second))
        #expect(liveness.check(at: t0 + 6 * second) == .probe(thenCheckAt: t0 + 11 * second))
        #expect(liveness.check(at: t0 + 7 * second) == .checkAgain(at: t0 + 11 * second), "asked once, not at every check")
        // gpsd answers: the clock of silence starts again, and so may a new question.
        liveness.heard(at: t0 + 7 * second)
        #expect(liveness.check(at: t0 + 11 * second) == .checkAgain(at: t0 + 12 * second))
        #expect(liveness.check(at: t0 + 12 * second) == .probe(thenCheckAt: t0 + 17 * second))
        guard case .giveUp(let reason) = liveness.check(at: t0 + 17 * second) else {
            Issue.record("no give-up after 10 s of silence")
            return
        }
        #expect(reason.contains("10 s"))
    }

    @Test("A gpsd streaming reports every second is never asked anything")
    func streaming() {
        var liveness = GPSDLiveness(connectedAt: t0)
        liveness.bannerReceived(at: t0)
        for tick in 1...30 {
            liveness.heard(at: t0 + Int64(tick) * second)
            #expect(liveness.check(at: t0 + Int64(tick) * second) == .checkAgain(at: t0 + Int64(tick + 5) * second))
        }
    }
}

/// Random TPVs from a seeded generator: whatever the numbers and times, decoding never
/// traps, and every location it gives passes the checks above.
@Suite("gpsd values (seeded random TPVs)")
struct GPSDRandomTPVTests {
    /// A finite double from anywhere in the range: extremes, zeros, negatives, ordinary values.
    static func number(_ random: inout SplitMix64) -> String {
        switch random.next() % 4 {
        case 0: return "\(Double(bitPattern: random.next() & ~(0x7FF << 52) | (UInt64.random(in: 0..<0x7FF, using: &random) << 52)))"
        case 1: return ["0", "-0", "1e308", "-1e308", "5e-324", "99999", "360", "-1"][Int(random.next() % 8)]
        default: return "\(Double.random(in: -400...400, using: &random))"
        }
    }

    /// An RFC 3339 time, in any year 0000-9999 one time in four, else around Sextant's range.
    static func time(_ random: inout SplitMix64) -> String {
        let year = random.next() % 4 == 0 ? Int.random(in: 0...9999, using: &random) : Int.random(in: 1950...2300, using: &random)
        func padded(_ value: Int, _ width: Int) -> String { String(repeating: "0", count: max(0, width - String(value).count)) + String(value) }
        let month = Int.random(in: 1...12, using: &random), day = Int.random(in: 1...28, using: &random)
        return "\(padded(year, 4))-\(padded(month, 2))-\(padded(day, 2))T12:34:56.789Z"
    }

    @Test("10,000 random TPVs (seed 9): no trap; every location has finite, in-range fields")
    func randomTPVs() throws {
        var random = SplitMix64(seed: 9)
        let received = Timestamp(year: 2026, month: 3, day: 1, secondsOfDay: 0)
        var positions = 0
        for _ in 0..<10_000 {
            var fields = [#""class":"TPV""#, #""mode":\#(random.next() % 4)"#, #""time":"\#(Self.time(&random))""#]
            for key in ["lat", "lon"] where random.next() % 8 != 0 {
                fields.append(#""\#(key)":\#(Double.random(in: -200...200, using: &random))"#)
            }
            for key in ["altMSL", "eph", "epx", "epy", "epv", "speed", "track"] where random.next() % 3 != 0 {
                fields.append(#""\#(key)":\#(Self.number(&random))"#)
            }
            let line = "{" + fields.joined(separator: ",") + "}"
            guard case .position(let fix) = try GPSDReport.decode(line: line, receivedAt: received) else { continue }
            positions += 1
            #expect(LocationFix.problem(latitude: fix.latitude, longitude: fix.longitude) == nil, "\(line)")
            #expect(fix.horizontalAccuracy.isFinite && fix.horizontalAccuracy >= 0 && fix.horizontalAccuracy <= 20_040_000, "\(line)")
            #expect(fix.speed.map { $0 >= 0 } ?? true, "\(line)")
            #expect(fix.course.map { (0..<360).contains($0) } ?? true, "\(line)")
            #expect(fix.verticalAccuracy.map { $0 >= 0 } ?? true, "\(line)")
            #expect(fix.altitude.map(\.isFinite) ?? true, "\(line)")
            #expect(TPVFieldCheck.plausibleYears.contains(Timestamp.civil(fromDays: fix.time.nanoseconds / 86_400_000_000_000).year), "\(line)")
        }
        #expect(positions > 100, "the generator reaches the location path often enough to mean something")
    }
}
