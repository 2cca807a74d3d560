import SextantCore
import SextantProtocol

/// NMEA 0183 (version 2.3, talker GP) sentences of a fix: GGA (position, altitude), RMC
/// (time, date, position, speed, course) and GSA (fix mode), each with its checksum and CR
/// LF, in the order gpsd writes its own (pseudonmea.c: GGA before RMC). Readers that pair a
/// GGA with the RMC after it (gpsbabel) would otherwise give each second the position before.
/// The one encoder of both faces that write NMEA: `trace convert --to nmea` (``traceExport``)
/// and the gpsd face's `"nmea":true` watchers (``gpsdFace``), which differ only in their
/// ``Options``.
///
/// Precision is the format's: latitude and longitude to 1e-6 minute (2 mm), speed to 0.001
/// knot, course to 0.01°, altitude to 1 cm. A fix with an altitude is a 3D fix, one without
/// 2D. Unknown values leave their field empty, as NMEA allows.
public struct NMEAEncoder: Sendable {
    public struct Options: Sendable {
        /// Time of day to the centisecond, rounded (a receiver's log, read back by gpsd and
        /// by Sextant's reader), or to the millisecond, rounded down (the fix's own time as
        /// its `time` member says it, which is what gpsd clients compare).
        public enum TimePrecision: Sendable {
            case centiseconds, milliseconds
        }

        public var time: TimePrecision
        /// Satellites and dilutions worked out from the accuracies (HDOP = hAcc / 5 m, VDOP
        /// = vAcc / 5 m, eight placeholder PRNs), as a converted trace carries them for
        /// the readers to turn back; or left empty, since a fix carries neither.
        public var dilutions: Bool
        /// Whether a fix whose year RMC's two digits cannot say (before 1980, after 2079)
        /// is left out instead of written with those two digits.
        public var skipsUnsayableYears: Bool
    }

    public var options: Options

    /// `trace convert --to nmea`: a receiver's log, read back as the trace it came from.
    public static let traceExport = NMEAEncoder(options: Options(time: .centiseconds, dilutions: true, skipsUnsayableYears: true))
    /// The gpsd face: what gpsd itself relays of a fix, satellites and dilutions unknown.
    public static let gpsdFace = NMEAEncoder(options: Options(time: .milliseconds, dilutions: false, skipsUnsayableYears: false))

    /// Years RMC's `yy` can say (80–99 are 1980–1999, 00–79 2000–2079).
    static let years = 1980...2079

    /// The fix's GGA, RMC and GSA, each with its CR LF; empty for a fix left out.
    public func sentences(for fix: LocationFix) -> [String] {
        guard let time = clock(fix) else { return [] }
        return [Self.sentence(gga(fix, time)), Self.sentence(rmc(fix, time)), Self.sentence(gsa(fix))]
    }

    /// The three sentences as one text, or nil for a fix left out.
    public func cycle(for fix: LocationFix) -> String? {
        guard let time = clock(fix) else { return nil }
        return Self.sentence(gga(fix, time)) + Self.sentence(rmc(fix, time)) + Self.sentence(gsa(fix))
    }

    private func clock(_ fix: LocationFix) -> NMEAClock? {
        let time = NMEAClock(fix.time, options.time)
        return options.skipsUnsayableYears && !Self.years.contains(time.year) ? nil : time
    }

    /// `$BODY*CS\r\n`: the checksum is the XOR of the bytes between `$` and `*`, in two
    /// upper-case hex digits.
    public static func sentence(_ body: String) -> String {
        var sum: UInt8 = 0
        for byte in body.utf8 { sum ^= byte }
        return "$" + body + "*" + hexDigits[Int(sum >> 4)] + hexDigits[Int(sum & 0xF)] + "\r\n"
    }

    private static let hexDigits = (0..<16).map { String($0, radix: 16, uppercase: true) }

    // The sentences are put together with + rather than by joining arrays of fields: a
    // conversion writes three a fix, and the arrays were a fifth of its time.

    func rmc(_ fix: LocationFix, _ time: NMEAClock) -> String {
        let speed = fix.speed.map { ExportNumber.fixed($0 * 3600 / 1852, 3) } ?? ""
        let course = fix.course.map { ExportNumber.fixed($0, 2) } ?? ""
        return "GPRMC," + time.timeOfDay + ",A," + Self.latitude(fix.latitude) + "," + Self.longitude(fix.longitude) + "," + speed + ","
            + course + "," + time.date + ",,,A"
    }

    func gga(_ fix: LocationFix, _ time: NMEAClock) -> String {
        let altitude = fix.altitude.map { ExportNumber.fixed($0, 2) + ",M" } ?? ","
        let satellites = options.dilutions ? "08," + Self.dop(fix.horizontalAccuracy) : ","
        return "GPGGA," + time.timeOfDay + "," + Self.latitude(fix.latitude) + "," + Self.longitude(fix.longitude) + ",1," + satellites + ","
            + altitude + ",,,,"
    }

    func gsa(_ fix: LocationFix) -> String {
        let mode = "GPGSA,A," + (fix.altitude == nil ? "2" : "3")
        guard options.dilutions else { return mode + String(repeating: ",", count: 15) }
        let hdop = fix.horizontalAccuracy / TraceConventions.userEquivalentRangeError
        let vdop = fix.verticalAccuracy.map { $0 / TraceConventions.userEquivalentRangeError }
        let pdop = vdop.map { (hdop * hdop + $0 * $0).squareRoot() } ?? hdop
        // The satellites used are not recorded in a trace; eight placeholder PRNs stand
        // for the "08" satellites GGA says were used, then four empty slots.
        return mode + ",01,02,03,04,05,06,07,08,,,,," + ExportNumber.fixed(pdop, 2) + "," + ExportNumber.fixed(hdop, 2) + ","
            + (vdop.map { ExportNumber.fixed($0, 2) } ?? "")
    }

    /// A compass reading's `HDT` (true heading) and `HDG` (magnetic heading; the
    /// variation, true − magnetic within ±180°, when both are known), to 0.01°.
    public static func headings(_ heading: CompassReading) -> String {
        var text = ""
        if let trueHeading = heading.trueHeading { text += sentence("GPHDT," + ExportNumber.fixed(trueHeading, 2) + ",T") }
        if let magnetic = heading.magnetic {
            var variation = ","
            if let trueHeading = heading.trueHeading {
                var v = (trueHeading - magnetic).truncatingRemainder(dividingBy: 360)
                if v > 180 { v -= 360 } else if v < -180 { v += 360 }
                variation = ExportNumber.fixed(abs(v), 2) + (v < 0 ? ",W" : ",E")
            }
            text += sentence("GPHDG," + ExportNumber.fixed(magnetic, 2) + ",,," + variation)
        }
        return text
    }

    static func dop(_ accuracy: Double) -> String { ExportNumber.fixed(accuracy / TraceConventions.userEquivalentRangeError, 2) }

    /// `ddmm.mmmmmm,N`.
    static func latitude(_ degrees: Double) -> String { angle(degrees, wholeDigits: 2, positive: ",N", negative: ",S") }

    /// `dddmm.mmmmmm,E`.
    static func longitude(_ degrees: Double) -> String { angle(degrees, wholeDigits: 3, positive: ",E", negative: ",W") }

    /// Whole degrees then minutes to six decimals, rounded in integer micro-minutes so
    /// that 59.9999999' carries into the next degree instead of printing as 60'. Sources
    /// check positions at their edge; an angle no position has is written empty anyway.
    static func angle(_ degrees: Double, wholeDigits: Int, positive: String, negative: String) -> String {
        guard degrees.isFinite, abs(degrees) <= 180 else { return "," }
        let microMinutes = Int64((abs(degrees) * 60_000_000).rounded())
        let whole = microMinutes / 60_000_000, rest = microMinutes % 60_000_000
        let minutes = rest / 1_000_000, fraction = rest % 1_000_000
        return pad(whole, wholeDigits) + pad(minutes, 2) + "." + pad(fraction, 6) + (degrees < 0 ? negative : positive)
    }

    static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}

/// A fix's time as NMEA writes it: to the centisecond, rounded first so that 23:59:59.996
/// becomes the next day's 00:00:00.00, date included; or to the millisecond, rounded down
/// as RFC 3339 times are.
struct NMEAClock {
    let year: Int
    /// `hhmmss.ss` or `hhmmss.sss`
    let timeOfDay: String
    /// `ddmmyy`
    let date: String

    init(_ time: Timestamp, _ precision: NMEAEncoder.Options.TimePrecision) {
        let perSecond: Int64 = precision == .centiseconds ? 100 : 1000
        let units: Int64
        switch precision {
        case .centiseconds: units = Int64((Double(time.nanoseconds) / 1e7).rounded())
        case .milliseconds: units = Self.floorDiv(time.nanoseconds, 1_000_000)
        }
        let perDay = 86_400 * perSecond
        let days = Self.floorDiv(units, perDay)
        let ofDay = units - days * perDay
        let (y, m, d) = Timestamp.civil(fromDays: days)
        year = y
        let seconds = ofDay / perSecond
        timeOfDay = NMEAEncoder.pad(seconds / 3600, 2) + NMEAEncoder.pad(seconds / 60 % 60, 2) + NMEAEncoder.pad(seconds % 60, 2) + "."
            + NMEAEncoder.pad(ofDay % perSecond, precision == .centiseconds ? 2 : 3)
        date = NMEAEncoder.pad(Int64(d), 2) + NMEAEncoder.pad(Int64(m), 2) + NMEAEncoder.pad(Int64(y % 100), 2)
    }

    static func floorDiv(_ a: Int64, _ b: Int64) -> Int64 { a >= 0 ? a / b : (a - b + 1) / b }
}
