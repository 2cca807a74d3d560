import Foundation
#if canImport(Glibc)
import Glibc
#endif
import SextantCore
import SextantProtocol

/// Writes a trace's locations as a GPX 1.1 track (one `trk`, one `trkseg`).
///
/// Each point has its `ele`, its `time` (to the millisecond), `hdop`/`vdop` (the accuracy
/// / 5 m, as `GPXReader` and the NMEA reader read them back), and its speed and course in
/// Garmin's TrackPointExtension v2 (GPX 1.1 has no element for them; readers that do not
/// know the extension derive them from the points).
public enum GPXWriter {
    public static func write(_ trace: Trace) -> String { TraceExporter.render(trace, as: .gpx) }

    /// Writes the fixes as they are read, one pass. - Returns: how many locations it read.
    static func write(_ trace: some ReplayableTrace, to output: ExportOutput) throws(TraceExportError) -> Int {
        try output.write("""
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="Sextant" xmlns="http://www.topografix.com/GPX/1/1" \
            xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2">
              <metadata><time>\(trace.start.rfc3339)</time></metadata>
              <trk><name>Sextant trace</name><trkseg>

            """)
        let count = try trace.forEachLocation { _, fix throws(TraceExportError) in try output.write(point(fix)) }
        try output.write("  </trkseg></trk>\n</gpx>\n")
        return count
    }

    static func point(_ fix: LocationFix) -> String {
        var s = "    <trkpt lat=\"\(ExportNumber.degrees(fix.latitude))\" lon=\"\(ExportNumber.degrees(fix.longitude))\">"
        if let alt = fix.altitude { s += "<ele>\(ExportNumber.fixed(alt, 3))</ele>" }
        s += "<time>\(fix.time.rfc3339)</time>"
        s += "<hdop>\(ExportNumber.fixed(fix.horizontalAccuracy / TraceConventions.userEquivalentRangeError, 4))</hdop>"
        if let vAcc = fix.verticalAccuracy { s += "<vdop>\(ExportNumber.fixed(vAcc / TraceConventions.userEquivalentRangeError, 4))</vdop>" }
        if fix.speed != nil || fix.course != nil {
            s += "<extensions><gpxtpx:TrackPointExtension>"
            if let speed = fix.speed { s += "<gpxtpx:speed>\(ExportNumber.fixed(speed, 3))</gpxtpx:speed>" }
            if let course = fix.course { s += "<gpxtpx:course>\(ExportNumber.fixed(course, 2))</gpxtpx:course>" }
            s += "</gpxtpx:TrackPointExtension></extensions>"
        }
        return s + "</trkpt>\n"
    }
}

/// Numbers as the text formats write them: fixed decimals, never exponents, no `-0`.
enum ExportNumber {
    static func fixed(_ value: Double, _ digits: Int) -> String {
        // printf's %.*f straight into a stack buffer: String(format:) gives the same digits
        // through Foundation's formatter, at several times the cost (a conversion writes
        // ten numbers a fix). 352 bytes hold any double to 9 decimals.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 352) { buffer in
            let count = withVaList([Int32(digits), value]) { arguments in
                buffer.withMemoryRebound(to: CChar.self) { vsnprintf($0.baseAddress, $0.count, "%.*f", arguments) }
            }
            guard count > 0, Int(count) < buffer.count else { return String(format: "%.\(digits)f", value) }
            var text = UnsafeBufferPointer(rebasing: buffer[0..<Int(count)])
            // "-0.000" for a tiny negative value reads as a sign error to a person.
            if text.first == UInt8(ascii: "-"), text.dropFirst().allSatisfy({ $0 == UInt8(ascii: "0") || $0 == UInt8(ascii: ".") }) {
                text = UnsafeBufferPointer(rebasing: text.dropFirst())
            }
            return String(decoding: text, as: UTF8.self)
        }
    }

    /// Degrees to 1e-9 (0.1 mm), beyond any receiver.
    static func degrees(_ value: Double) -> String { fixed(value, 9) }
}
