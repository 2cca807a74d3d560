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

    /// Writes the fixes as they are read, in one pass.
    /// - Returns: how many locations it read.
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

extension GPXWriter: TraceWriterFormat {
    static let name = "gpx"
    static let extensions = ["gpx"]
}

extension TraceExportFormat {
    public static let gpx = TraceExportFormat(GPXWriter.self)
}
