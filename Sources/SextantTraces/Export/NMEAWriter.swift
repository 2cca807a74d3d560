import SextantCore
import SextantProtocol

/// Writes a trace's locations as NMEA 0183 (version 2.3, talker GP), one cycle per fix:
/// RMC (time, date, position, speed, course), GGA (position, HDOP, altitude) and GSA
/// (fix mode, DOPs), each with its checksum and CR LF, as a receiver sends them.
///
/// Precision is the format's: the time of day to 10 ms (rounded), latitude and longitude
/// to 1e-6 minute (2 mm), speed to 0.001 knot, course to 0.01°, altitude to 1 cm. The
/// accuracies become DOPs as the readers turn them back (HDOP = hAcc / 5 m, VDOP = vAcc /
/// 5 m); a fix with an altitude is a 3D fix, one without 2D. RMC carries a two-digit year:
/// times before 1980 or after 2079 cannot be written as NMEA and are not.
public enum NMEAWriter {
    /// Years RMC's `yy` can say (80–99 are 1980–1999, 00–79 2000–2079).
    static let years = 1980...2079

    public static func write(_ trace: Trace) -> String { TraceExporter.render(trace, as: .nmea) }

    /// Writes the fixes as they are read, in one pass.
    /// - Returns: how many locations it read.
    static func write(_ trace: some ReplayableTrace, to output: ExportOutput) throws(TraceExportError) -> Int {
        try trace.forEachLocation { _, fix throws(TraceExportError) in
            let time = NMEAClock(fix.time)
            guard years.contains(time.year) else { return }
            try output.write(sentence(rmc(fix, time)) + sentence(gga(fix, time)) + sentence(gsa(fix)))
        }
    }

    /// `$BODY*CS\r\n`: the checksum is the XOR of the bytes between `$` and `*`.
    static func sentence(_ body: String) -> String {
        var sum: UInt8 = 0
        for byte in body.utf8 { sum ^= byte }
        return "$" + body + "*" + hexDigits[Int(sum >> 4)] + hexDigits[Int(sum & 0xF)] + "\r\n"
    }

    private static let hexDigits = (0..<16).map { String($0, radix: 16, uppercase: true) }

    // The sentences are put together with + rather than by joining arrays of fields: a
    // conversion writes three a fix, and the arrays were a fifth of its time.

    static func rmc(_ fix: LocationFix, _ time: NMEAClock) -> String {
        let speed = fix.speed.map { ExportNumber.fixed($0 * 3600 / 1852, 3) } ?? ""
        let course = fix.course.map { ExportNumber.fixed($0, 2) } ?? ""
        return "GPRMC," + time.timeOfDay + ",A," + latitude(fix.latitude) + "," + longitude(fix.longitude) + "," + speed + "," + course
            + "," + time.date + ",,,A"
    }

    static func gga(_ fix: LocationFix, _ time: NMEAClock) -> String {
        let altitude = fix.altitude.map { ExportNumber.fixed($0, 2) + ",M" } ?? ","
        return "GPGGA," + time.timeOfDay + "," + latitude(fix.latitude) + "," + longitude(fix.longitude) + ",1,08," + dop(fix.horizontalAccuracy)
            + "," + altitude + ",,,,"
    }

    static func gsa(_ fix: LocationFix) -> String {
        let hdop = fix.horizontalAccuracy / TraceConventions.userEquivalentRangeError
        let vdop = fix.verticalAccuracy.map { $0 / TraceConventions.userEquivalentRangeError }
        let pdop = vdop.map { (hdop * hdop + $0 * $0).squareRoot() } ?? hdop
        // The satellites used are not recorded in a trace; eight placeholder PRNs stand
        // for the "08" satellites GGA says were used, then four empty slots.
        return "GPGSA,A," + (fix.altitude == nil ? "2" : "3") + ",01,02,03,04,05,06,07,08,,,,," + ExportNumber.fixed(pdop, 2) + ","
            + ExportNumber.fixed(hdop, 2) + "," + (vdop.map { ExportNumber.fixed($0, 2) } ?? "")
    }

    static func dop(_ accuracy: Double) -> String { ExportNumber.fixed(accuracy / TraceConventions.userEquivalentRangeError, 2) }

    /// `ddmm.mmmmmm,N`.
    static func latitude(_ degrees: Double) -> String { angle(abs(degrees), wholeDigits: 2) + (degrees < 0 ? ",S" : ",N") }

    /// `dddmm.mmmmmm,E`.
    static func longitude(_ degrees: Double) -> String { angle(abs(degrees), wholeDigits: 3) + (degrees < 0 ? ",W" : ",E") }

    /// Whole degrees then minutes to six decimals, rounded in integer micro-minutes so
    /// that 59.9999999' carries into the next degree instead of printing as 60'.
    static func angle(_ degrees: Double, wholeDigits: Int) -> String {
        let microMinutes = Int64((degrees * 60_000_000).rounded())
        let whole = microMinutes / 60_000_000, rest = microMinutes % 60_000_000
        let minutes = rest / 1_000_000, fraction = rest % 1_000_000
        return pad(whole, wholeDigits) + pad(minutes, 2) + "." + pad(fraction, 6)
    }

    static func pad(_ value: Int64, _ width: Int) -> String {
        let text = String(value)
        return String(repeating: "0", count: max(0, width - text.count)) + text
    }
}

/// A fix's time as NMEA writes it: rounded to the centisecond first, so that a time of
/// 23:59:59.996 becomes the next day's 00:00:00.00, date included.
struct NMEAClock {
    let year: Int
    /// `hhmmss.ss`
    let timeOfDay: String
    /// `ddmmyy`
    let date: String

    init(_ time: Timestamp) {
        let centiseconds = Int64((Double(time.nanoseconds) / 1e7).rounded())
        let days = centiseconds >= 0 ? centiseconds / 8_640_000 : (centiseconds - 8_639_999) / 8_640_000
        let ofDay = centiseconds - days * 8_640_000
        let (y, m, d) = Timestamp.civil(fromDays: days)
        year = y
        let seconds = ofDay / 100
        timeOfDay = NMEAWriter.pad(seconds / 3600, 2) + NMEAWriter.pad(seconds / 60 % 60, 2) + NMEAWriter.pad(seconds % 60, 2) + "."
            + NMEAWriter.pad(ofDay % 100, 2)
        date = NMEAWriter.pad(Int64(d), 2) + NMEAWriter.pad(Int64(m), 2) + NMEAWriter.pad(Int64(y % 100), 2)
    }
}
