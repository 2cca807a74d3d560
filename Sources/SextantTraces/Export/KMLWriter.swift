import SextantCore
import SextantProtocol

/// Writes a trace's locations as KML 2.2: a `gx:Track` (a time for every position, which
/// Google Earth plays back), and a plain LineString of the same path for viewers that do
/// not know the `gx` extension. Altitudes are absolute when the fixes have them.
public enum KMLWriter {
    public static func write(_ trace: Trace) -> String { TraceExporter.render(trace, as: .kml) }

    /// Reads the trace as it writes, up to four times: until a fix with an altitude (the
    /// header says whether there is one), then for the times, the track's positions and
    /// the path's.
    /// - Returns: how many locations it read.
    static func write(_ trace: some ReplayableTrace, to output: ExportOutput) throws(TraceExportError) -> Int {
        let hasAltitude = try trace.containsLocation { $0.altitude != nil }
        let mode = hasAltitude ? "<altitudeMode>absolute</altitudeMode>" : ""
        try output.write("""
            <?xml version="1.0" encoding="UTF-8"?>
            <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2">
            <Document><name>Sextant trace from \(trace.start.rfc3339)</name>
            <Placemark><name>track</name><gx:Track>\(mode)

            """)
        let count = try trace.forEachLocation { _, fix throws(TraceExportError) in try output.write("<when>\(fix.time.rfc3339)</when>\n") }
        try trace.forEachLocation { _, fix throws(TraceExportError) in try output.write("<gx:coord>\(coordinate(fix, separator: " "))</gx:coord>\n") }
        try output.write("</gx:Track></Placemark>\n<Placemark><name>path</name><LineString>\(mode)<coordinates>\n")
        var separator = ""
        try trace.forEachLocation { _, fix throws(TraceExportError) in
            try output.write(separator + coordinate(fix, separator: ","))
            separator = "\n"
        }
        try output.write("\n</coordinates></LineString></Placemark>\n</Document>\n</kml>\n")
        return count
    }

    /// lon, lat, alt (0 when unknown, as KML wants three or two values alike).
    static func coordinate(_ fix: LocationFix, separator: String) -> String {
        [ExportNumber.degrees(fix.longitude), ExportNumber.degrees(fix.latitude), ExportNumber.fixed(fix.altitude ?? 0, 3)].joined(separator: separator)
    }
}

extension KMLWriter: TraceWriterFormat {
    static let name = "kml"
    static let extensions = ["kml"]
}

extension TraceExportFormat {
    public static let kml = TraceExportFormat(KMLWriter.self)
}
