import SextantCore
import SextantProtocol

/// Writes a trace's locations as KML 2.2: a `gx:Track` (a time for every position, which
/// Google Earth plays back), and a plain LineString of the same path for viewers that do
/// not know the `gx` extension. Altitudes are absolute when the fixes have them.
public enum KMLWriter {
    public static func write(_ trace: Trace) -> String {
        let fixes = trace.locations.map(\.fix)
        let hasAltitude = fixes.contains { $0.altitude != nil }
        let mode = hasAltitude ? "<altitudeMode>absolute</altitudeMode>" : ""
        var out = """
            <?xml version="1.0" encoding="UTF-8"?>
            <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2">
            <Document><name>Sextant trace from \(trace.start.rfc3339)</name>
            <Placemark><name>track</name><gx:Track>\(mode)

            """
        for fix in fixes { out += "<when>\(fix.time.rfc3339)</when>\n" }
        for fix in fixes { out += "<gx:coord>\(coordinate(fix, separator: " "))</gx:coord>\n" }
        out += "</gx:Track></Placemark>\n<Placemark><name>path</name><LineString>\(mode)<coordinates>\n"
        out += fixes.map { coordinate($0, separator: ",") }.joined(separator: "\n")
        out += "\n</coordinates></LineString></Placemark>\n</Document>\n</kml>\n"
        return out
    }

    /// lon, lat, alt (0 when unknown, as KML wants three or two values alike).
    static func coordinate(_ fix: LocationFix, separator: String) -> String {
        [ExportNumber.degrees(fix.longitude), ExportNumber.degrees(fix.latitude), ExportNumber.fixed(fix.altitude ?? 0, 3)].joined(separator: separator)
    }
}
