import Foundation
import SextantCore
import SextantProtocol

/// NMEA 0183 sentences made from a fix, for gpsd clients that watch with `"nmea":true`:
/// RMC, GGA and GSA, talker GP, each with its checksum and CR LF. Sextant's fixes carry no
/// satellites or dilutions: those fields are left empty, as NMEA allows for unknown values.
enum NMEASentences {
    static func sentences(for fix: LocationFix) -> [String] {
        let clock = Self.clock(fix.time)
        let latitude = Self.angle(fix.latitude, degreeDigits: 2, positive: "N", negative: "S")
        let longitude = Self.angle(fix.longitude, degreeDigits: 3, positive: "E", negative: "W")
        let knots = fix.speed.map { String(format: "%.3f", $0 * 3600 / 1852) } ?? ""
        let course = fix.course.map { String(format: "%.2f", $0) } ?? ""
        let altitude = fix.altitude.map { String(format: "%.2f", $0) } ?? ""
        let rmc = ["GPRMC", clock.time, "A", latitude.value, latitude.hemisphere, longitude.value, longitude.hemisphere, knots, course, clock.date, "", "", "A"]
        let gga = ["GPGGA", clock.time, latitude.value, latitude.hemisphere, longitude.value, longitude.hemisphere, "1", "", "", altitude, altitude.isEmpty ? "" : "M", "", "", "", ""]
        let gsa = ["GPGSA", "A", fix.altitude == nil ? "2" : "3"] + Array(repeating: "", count: 12) + ["", "", ""]
        return [rmc, gga, gsa].map { sentence($0.joined(separator: ",")) }
    }

    /// `$BODY*CS\r\n`: the checksum is the XOR of the body's bytes, in two upper-case hex digits.
    static func sentence(_ body: String) -> String {
        let checksum = body.utf8.reduce(UInt8(0), ^)
        return "$" + body + "*" + String(format: "%02X", checksum) + "\r\n"
    }

    /// `hhmmss.sss` and `ddmmyy` from the fix's UTC time.
    static func clock(_ time: Timestamp) -> (time: String, date: String) {
        // RFC 3339 as Sextant writes it: YYYY-MM-DDThh:mm:ss.mmmZ.
        let text = Array(time.rfc3339)
        guard text.count == 24 else { return ("", "") }
        let part = { (from: Int, count: Int) in String(text[from..<(from + count)]) }
        return (part(11, 2) + part(14, 2) + part(17, 6), part(8, 2) + part(5, 2) + part(2, 2))
    }

    /// `ddmm.mmmmmm` (`dddmm.mmmmmm` for longitudes) and its hemisphere: six decimals of
    /// a minute keep the position to about 2e-8 degrees.
    static func angle(_ degrees: Double, degreeDigits: Int, positive: String, negative: String) -> (value: String, hemisphere: String) {
        // Sources check positions at their edge; this check keeps the conversion safe anyway.
        guard degrees.isFinite, abs(degrees) <= 180 else { return ("", "") }
        let micro = Int64((abs(degrees) * 60_000_000).rounded())
        let whole = micro / 60_000_000
        let minutes = micro % 60_000_000
        let value = String(format: "%0\(degreeDigits)lld%02lld.%06lld", whole, minutes / 1_000_000, minutes % 1_000_000)
        return (value, degrees < 0 ? negative : positive)
    }
}
