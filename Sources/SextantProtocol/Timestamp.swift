/// A UTC instant in whole nanoseconds since the Unix epoch.
///
/// The wire form is RFC 3339 with milliseconds, always in UTC: `2026-03-01T08:00:00.000Z`.
/// Formatting and parsing are done here by hand (civil-from-days), so the engines and the
/// trace readers never need a date formatter or the wall clock.
public struct Timestamp: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var nanoseconds: Int64

    public init(nanoseconds: Int64) { self.nanoseconds = nanoseconds }

    public init(seconds: Double) { self.nanoseconds = Int64((seconds * 1e9).rounded()) }

    public var seconds: Double { Double(nanoseconds) / 1e9 }

    public static func < (a: Timestamp, b: Timestamp) -> Bool { a.nanoseconds < b.nanoseconds }

    public func adding(nanoseconds delta: Int64) -> Timestamp { Timestamp(nanoseconds: nanoseconds + delta) }

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ`, the millisecond rounded down.
    public var rfc3339: String {
        let millis = floorDiv(nanoseconds, 1_000_000)
        let secs = floorDiv(millis, 1000)
        let ms = Int(millis - secs * 1000)
        let days = floorDiv(secs, 86_400)
        let secOfDay = Int(secs - days * 86_400)
        let (y, m, d) = Timestamp.civil(fromDays: days)
        return pad(y, 4) + "-" + pad(m, 2) + "-" + pad(d, 2) + "T" + pad(secOfDay / 3600, 2) + ":"
            + pad(secOfDay / 60 % 60, 2) + ":" + pad(secOfDay % 60, 2) + "." + pad(ms, 3) + "Z"
    }

    public var description: String { rfc3339 }

    /// Parses RFC 3339 (`T` or space, any fraction, `Z` or a `±HH:MM` offset).
    public init?(rfc3339 text: String) {
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
        else { return nil }
        guard (1...12).contains(month), (1...Timestamp.daysIn(month: month, year: year)).contains(day),
            hour < 24, minute < 60, second <= 60
        else { return nil }
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
            guard i > start else { return nil }
        }
        var offsetSeconds = 0
        guard i < b.count else { return nil }
        if b[i] == UInt8(ascii: "Z") || b[i] == UInt8(ascii: "z") {
            i += 1
        } else if b[i] == UInt8(ascii: "+") || b[i] == UInt8(ascii: "-") {
            guard let oh = num(i + 1, 2), i + 3 < b.count, b[i + 3] == UInt8(ascii: ":"), let om = num(i + 4, 2) else {
                return nil
            }
            offsetSeconds = (oh * 3600 + om * 60) * (b[i] == UInt8(ascii: "-") ? -1 : 1)
            i += 6
        } else {
            return nil
        }
        guard i == b.count else { return nil }
        let days = Timestamp.days(fromCivil: year, month, day)
        let secs = days * 86_400 + Int64(hour * 3600 + minute * 60 + second - offsetSeconds)
        self.nanoseconds = secs * 1_000_000_000 + fractionNanos
    }

    /// Builds an instant from a UTC calendar date and time of day.
    public init(year: Int, month: Int, day: Int, secondsOfDay: Double) {
        let days = Timestamp.days(fromCivil: year, month, day)
        self.nanoseconds = days * 86_400_000_000_000 + Int64((secondsOfDay * 1e9).rounded())
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
