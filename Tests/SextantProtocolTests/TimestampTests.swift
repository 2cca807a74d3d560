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
