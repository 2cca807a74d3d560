/// A UTC instant in whole nanoseconds since the Unix epoch.
///
/// The wire form is RFC 3339 with milliseconds, always in UTC: `2026-03-01T08:00:00.000Z`.
/// Formatting and parsing are done here by hand (civil-from-days), so the engines and the
/// trace readers never need a date formatter or the wall clock.
///
/// **Range.** An `Int64` of nanoseconds holds the instants from 1677-09-21T00:12:43.145Z
/// to 2262-04-11T23:47:16.854Z (`Timestamp.earliest`, `Timestamp.latest`). Parsing refuses
/// a time outside them (`RFC3339Error.outOfRange`); arithmetic never traps: `adding`
/// clamps to the range, `checkedAdding` says when it would leave it.
public struct Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var nanoseconds: Int64

    /// The earliest instant a timestamp holds (1677-09-21T00:12:43.145224192Z).
    public static let earliest = Timestamp(nanoseconds: .min)
    /// The latest instant a timestamp holds (2262-04-11T23:47:16.854775807Z).
    public static let latest = Timestamp(nanoseconds: .max)

    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    /// Seconds since the epoch, clamped to `earliest...latest`; NaN is the epoch.
    public init(seconds: Double) { self.nanoseconds = Timestamp.clampedNanoseconds(seconds * 1e9) }

    /// Seconds since the epoch, or nil when that instant is out of range (or not finite).
    public init?(exactlySeconds seconds: Double) {
        guard let ns = Timestamp.checkedNanoseconds(seconds * 1e9) else { return nil }
        self.nanoseconds = ns
    }

    public var seconds: Double { Double(nanoseconds) / 1e9 }

    public static func < (a: Timestamp, b: Timestamp) -> Bool { a.nanoseconds < b.nanoseconds }

    /// The instant `delta` nanoseconds later (earlier when negative), clamped to
    /// `earliest...latest`: time arithmetic on instants from outside never traps.
    public func adding(nanoseconds delta: Int64) -> Timestamp {
        checkedAdding(nanoseconds: delta) ?? (delta > 0 ? .latest : .earliest)
    }

    /// The instant `delta` nanoseconds later, or nil when it is out of range.
    public func checkedAdding(nanoseconds delta: Int64) -> Timestamp? {
        let (sum, overflow) = nanoseconds.addingReportingOverflow(delta)
        return overflow ? nil : Timestamp(nanoseconds: sum)
    }

    /// Nanoseconds from `earlier` to this instant, or nil when the difference does not fit
    /// in an `Int64` (instants more than 292 years apart).
    public func nanoseconds(since earlier: Timestamp) -> Int64? {
        let (difference, overflow) = nanoseconds.subtractingReportingOverflow(earlier.nanoseconds)
        return overflow ? nil : difference
    }

    /// A number of nanoseconds given as a `Double`, rounded, when an `Int64` holds it.
    public static func checkedNanoseconds(_ value: Double) -> Int64? {
        let rounded = value.rounded()
        // 2^63 is exactly representable as a Double; `Int64(exactly:)` refuses it and NaN.
        guard rounded.isFinite, rounded > -9.223372036854775808e18, rounded < 9.223372036854775808e18 else { return nil }
        return Int64(rounded)
    }

    /// A number of nanoseconds given as a `Double`, rounded and clamped to `Int64`; NaN is 0.
    public static func clampedNanoseconds(_ value: Double) -> Int64 {
        if let exact = checkedNanoseconds(value) { return exact }
        if value.isNaN { return 0 }
        return value > 0 ? .max : .min
    }

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ`, the millisecond rounded down.
    public var rfc3339: String {
        let (y, m, d, secOfDay, ms) = civilParts
        guard (0...9999).contains(y) else {
            return pad(y, 4) + "-" + pad(m, 2) + "-" + pad(d, 2) + "T" + pad(secOfDay / 3600, 2) + ":"
                + pad(secOfDay / 60 % 60, 2) + ":" + pad(secOfDay % 60, 2) + "." + pad(ms, 3) + "Z"
        }
        // Every event carries a time: its 24 bytes are written in place, not joined from
        // eight strings (a tenth of the time of encoding a location event).
        return String(unsafeUninitializedCapacity: Timestamp.rfc3339Width) { text in
            Timestamp.writeRFC3339(y, m, d, secOfDay, ms, into: UnsafeMutableRawBufferPointer(text))
        }
    }

    /// The bytes of `rfc3339` written at the start of `text` (at least `rfc3339Width`
    /// bytes), for the encoders that write an event straight into bytes. Answers how many
    /// bytes it wrote, or nil, writing nothing, for a year outside 0...9999 (then
    /// `rfc3339` is the longer text to write instead).
    public func writeRFC3339(into text: UnsafeMutableRawBufferPointer) -> Int? {
        let (y, m, d, secOfDay, ms) = civilParts
        guard (0...9999).contains(y) else { return nil }
        return Timestamp.writeRFC3339(y, m, d, secOfDay, ms, into: text)
    }

    /// The length of `rfc3339` for a year in 0...9999.
    public static let rfc3339Width = 24

    /// Year, month, day, second of the day and millisecond, the millisecond rounded down.
    private var civilParts: (Int, Int, Int, Int, Int) {
        let millis = floorDiv(nanoseconds, 1_000_000)
        let secs = floorDiv(millis, 1000)
        let ms = Int(millis - secs * 1000)
        let days = floorDiv(secs, 86_400)
        let secOfDay = Int(secs - days * 86_400)
        let (y, m, d) = Timestamp.civil(fromDays: days)
        return (y, m, d, secOfDay, ms)
    }

    private static func writeRFC3339(
        _ y: Int, _ m: Int, _ d: Int, _ secOfDay: Int, _ ms: Int, into text: UnsafeMutableRawBufferPointer
    ) -> Int {
        precondition(text.count >= rfc3339Width, "room for an RFC 3339 time")
        var at = 0
        func digits(_ value: Int, _ width: Int, then separator: UInt8) {
            var rest = value
            for place in stride(from: at + width - 1, through: at, by: -1) {
                text[place] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            text[at + width] = separator
            at += width + 1
        }
        digits(y, 4, then: UInt8(ascii: "-"))
        digits(m, 2, then: UInt8(ascii: "-"))
        digits(d, 2, then: UInt8(ascii: "T"))
        digits(secOfDay / 3600, 2, then: UInt8(ascii: ":"))
        digits(secOfDay / 60 % 60, 2, then: UInt8(ascii: ":"))
        digits(secOfDay % 60, 2, then: UInt8(ascii: "."))
        digits(ms, 3, then: UInt8(ascii: "Z"))
        return at
    }

    public var description: String { rfc3339 }

    /// Why a text is not an RFC 3339 time Sextant can hold.
    public enum RFC3339Error: Error, Sendable, Equatable, CustomStringConvertible {
        /// Not `YYYY-MM-DDTHH:MM:SS[.f](Z|±HH:MM)`, or an impossible date or time of day.
        case malformed
        /// A good time outside `Timestamp.earliest...Timestamp.latest`.
        case outOfRange

        public var description: String {
            switch self {
            case .malformed: return "not an RFC 3339 time"
            case .outOfRange: return "outside the times Sextant can hold (1677-09-21T00:12:43.145Z to 2262-04-11T23:47:16.854Z)"
            }
        }
    }

    /// Parses RFC 3339 (`T` or space, any fraction, `Z` or a `±HH:MM` offset); nil when
    /// malformed or out of range (`parse(rfc3339:)` says which).
    public init?(rfc3339 text: String) {
        guard let t = try? Timestamp.parse(rfc3339: text) else { return nil }
        self = t
    }

    /// Parses RFC 3339 (`T` or space, any fraction, `Z` or a `±HH:MM` offset).
    public static func parse(rfc3339 text: String) throws(RFC3339Error) -> Timestamp {
        let b = Array(text.utf8)
        func num(_ from: Int, _ count: Int) -> Int? {
            guard from + count <= b.count else { return nil }
            var v = 0
            for i in from..<(from + count) {
                guard b[i] >= 48, b[i] <= 57 else { return nil }
                v = v * 10 + Int(b[i] - 48)
            }
            return v
        }
        guard b.count >= 20, let year = num(0, 4), b[4] == UInt8(ascii: "-"), let month = num(5, 2),
            b[7] == UInt8(ascii: "-"), let day = num(8, 2),
            b[10] == UInt8(ascii: "T") || b[10] == UInt8(ascii: "t") || b[10] == UInt8(ascii: " "),
            let hour = num(11, 2), b[13] == UInt8(ascii: ":"), let minute = num(14, 2),
            b[16] == UInt8(ascii: ":"), let second = num(17, 2)
        else { throw .malformed }
        guard (1...12).contains(month), (1...Timestamp.daysIn(month: month, year: year)).contains(day),
            hour < 24, minute < 60, second <= 60
        else { throw .malformed }
        var i = 19
        var fractionNanos: Int64 = 0
        if i < b.count, b[i] == UInt8(ascii: ".") {
            i += 1
            var scale: Int64 = 100_000_000
            let start = i
            while i < b.count, b[i] >= 48, b[i] <= 57 {
                fractionNanos += Int64(b[i] - 48) * scale
                scale /= 10
                i += 1
            }
            guard i > start else { throw .malformed }
        }
        var offsetSeconds = 0
        guard i < b.count else { throw .malformed }
        if b[i] == UInt8(ascii: "Z") || b[i] == UInt8(ascii: "z") {
            i += 1
        } else if b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
            guard let oh = num(i + 1, 2), i + 3 < b.count, b[i + 3] == UInt8(ascii: ":"), let om = num(i + 4, 2) else {
                throw .malformed
            }
            offsetSeconds = (oh * 3600 + om * 60) * (b[i] == UInt8(ascii: "-") ? -1 : 1)
            i += 6
        } else {
            throw .malformed
        }
        guard i == b.count else { throw .malformed }
        // A four-digit year keeps the seconds far inside Int64; the nanoseconds may not be.
        let days = Timestamp.days(fromCivil: year, month, day)
        let secs = days * 86_400 + Int64(hour * 3600 + minute * 60 + second - offsetSeconds)
        // Before the epoch, go from the next whole second back: the earliest instant is
        // a fraction of a second after a whole second that Int64 nanoseconds cannot hold.
        let (wholeSeconds, fraction) = secs < 0 && fractionNanos > 0 ? (secs + 1, fractionNanos - 1_000_000_000) : (secs, fractionNanos)
        let (wholeNanos, overflow) = wholeSeconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { throw .outOfRange }
        let (nanos, overflowFraction) = wholeNanos.addingReportingOverflow(fraction)
        guard !overflowFraction else { throw .outOfRange }
        return Timestamp(nanoseconds: nanos)
    }

    /// Builds an instant from a UTC calendar date and time of day, clamped to
    /// `earliest...latest` like `adding`.
    public init(year: Int, month: Int, day: Int, secondsOfDay: Double) {
        let days = Timestamp.days(fromCivil: year, month, day)
        let (midnight, overflow) = days.multipliedReportingOverflow(by: 86_400_000_000_000)
        let base = overflow ? Timestamp(nanoseconds: days > 0 ? .max : .min) : Timestamp(nanoseconds: midnight)
        self = base.adding(nanoseconds: Timestamp.clampedNanoseconds(secondsOfDay * 1e9))
    }

    /// Days since 1970-01-01 for a proleptic Gregorian date (Howard Hinnant's algorithm).
    public static func days(fromCivil year: Int, _ month: Int, _ day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = floorDiv(y, 400)
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The calendar date of a day number since 1970-01-01.
    public static func civil(fromDays days: Int64) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = floorDiv(z, 146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        let y = yoe + era * 400 + (m <= 2 ? 1 : 0)
        return (Int(y), Int(m), Int(d))
    }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }
}

@inline(__always)
func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
}

private func pad(_ value: Int, _ width: Int) -> String {
    let s = String(value)
    return s.count >= width ? s : String(repeating: "0", count: width - s.count) + s
}
