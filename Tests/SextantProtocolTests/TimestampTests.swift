import Foundation
import SextantProtocol
import Testing

@Suite("RFC 3339 times")
struct TimestampTests {
    @Test("Known instants format as UTC with milliseconds")
    func formats() {
        #expect(Timestamp(nanoseconds: 0).rfc3339 == "1970-01-01T00:00:00.000Z")
        // 2026-03-01T08:00:00Z = 1772352000 s (date -u -d @1772352000).
        #expect(Timestamp(nanoseconds: 1_772_352_000_123_999_999).rfc3339 == "2026-03-01T08:00:00.123Z")
        #expect(Timestamp(nanoseconds: 951_782_400_000_000_000).rfc3339 == "2000-02-29T00:00:00.000Z")
        #expect(Timestamp(nanoseconds: -1_000_000).rfc3339 == "1969-12-31T23:59:59.999Z")
    }

    @Test("Any instant formats as gmtime(3) and printf say, from the earliest to the latest (seeded)")
    func formatsAsGmtime() {
        var seed: UInt64 = 0x5EED
        var instants: [Int64] = [.min, .max, 0, -1, 1, -1_000_000, 999_999]
        for _ in 0..<2000 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            instants.append(Int64(bitPattern: seed))
        }
        for nanoseconds in instants {
            // Floor divisions (toward the past), without overflow at Int64.min.
            let millis = nanoseconds / 1_000_000 - (nanoseconds % 1_000_000 < 0 ? 1 : 0)
            let seconds = millis / 1000 - (millis % 1000 < 0 ? 1 : 0)
            var time = time_t(seconds)
            var parts = tm()
            gmtime_r(&time, &parts)
            let expected = String(
                format: "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", parts.tm_year + 1900, parts.tm_mon + 1, parts.tm_mday, parts.tm_hour, parts.tm_min,
                parts.tm_sec, Int32(millis - seconds * 1000))
            #expect(Timestamp(nanoseconds: nanoseconds).rfc3339 == expected, "\(nanoseconds)")
        }
    }

    @Test("Parses Z, offsets, any fraction; rejects impossible dates")
    func parses() {
        #expect(Timestamp(rfc3339: "2026-03-01T08:00:00.000Z")?.nanoseconds == 1_772_352_000_000_000_000)
        #expect(Timestamp(rfc3339: "2026-03-01T09:30:00+01:30")?.nanoseconds == 1_772_352_000_000_000_000)
        #expect(Timestamp(rfc3339: "2026-03-01T08:00:00.5Z")?.nanoseconds == 1_772_352_000_500_000_000)
        #expect(Timestamp(rfc3339: "2026-02-29T00:00:00Z") == nil)
        #expect(Timestamp(rfc3339: "2024-02-29T00:00:00Z") != nil)
        #expect(Timestamp(rfc3339: "2026-03-01 08:00:00Z") != nil)
        #expect(Timestamp(rfc3339: "2026-03-01T08:00:00") == nil)
        #expect(Timestamp(rfc3339: "yesterday") == nil)
    }

    @Test("Civil dates round-trip over four centuries")
    func civilRoundTrip() {
        for days in stride(from: Int64(-146_097), through: 146_097, by: 97) {
            let (y, m, d) = Timestamp.civil(fromDays: days)
            #expect(Timestamp.days(fromCivil: y, m, d) == days)
        }
    }
}

@Suite("Timestamps at the ends of Int64 nanoseconds")
struct TimestampRangeTests {
    @Test("Parsing refuses instants an Int64 of nanoseconds cannot hold, and says so", arguments: [
        "9999-12-31T23:59:59Z", "3000-01-01T00:00:00Z", "0001-01-01T00:00:00Z", "1677-09-21T00:12:43.145224191Z",
        "2262-04-11T23:47:16.854775808Z", "2262-04-11T23:00:00-01:00",
    ])
    func outOfRange(text: String) {
        #expect(Timestamp(rfc3339: text) == nil)
        #expect(throws: Timestamp.RFC3339Error.outOfRange) { try Timestamp.parse(rfc3339: text) }
    }

    @Test("The first and last instants parse to Int64.min and Int64.max nanoseconds")
    func ends() throws {
        #expect(try Timestamp.parse(rfc3339: "1677-09-21T00:12:43.145224192Z") == .earliest)
        #expect(try Timestamp.parse(rfc3339: "2262-04-11T23:47:16.854775807Z") == .latest)
        #expect(throws: Timestamp.RFC3339Error.malformed) { try Timestamp.parse(rfc3339: "2026-02-30T00:00:00Z") }
    }

    @Test("adding clamps at the ends, checkedAdding says it would leave them")
    func arithmetic() {
        #expect(Timestamp.latest.adding(nanoseconds: 1) == .latest)
        #expect(Timestamp.earliest.adding(nanoseconds: -1) == .earliest)
        #expect(Timestamp.latest.checkedAdding(nanoseconds: 1) == nil)
        #expect(Timestamp(nanoseconds: 5).checkedAdding(nanoseconds: -7) == Timestamp(nanoseconds: -2))
        #expect(Timestamp.latest.nanoseconds(since: .earliest) == nil)
        #expect(Timestamp(nanoseconds: 10).nanoseconds(since: Timestamp(nanoseconds: 4)) == 6)
    }

    @Test("Seconds out of range clamp (or are refused by exactlySeconds); NaN is the epoch")
    func seconds() {
        #expect(Timestamp(seconds: 1e300) == .latest)
        #expect(Timestamp(seconds: -.infinity) == .earliest)
        #expect(Timestamp(seconds: .nan) == Timestamp(nanoseconds: 0))
        #expect(Timestamp(exactlySeconds: 9.3e9) == nil)
        #expect(Timestamp(exactlySeconds: 1.5)?.nanoseconds == 1_500_000_000)
        #expect(Timestamp(year: 9999, month: 1, day: 1, secondsOfDay: 0) == .latest)
        #expect(Timestamp(year: 2026, month: 3, day: 1, secondsOfDay: 1e300) == .latest)
    }
}
