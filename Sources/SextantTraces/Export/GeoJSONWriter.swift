import SextantCore
import SextantProtocol

/// Writes a trace's locations as a GeoJSON (RFC 7946) FeatureCollection: one LineString of
/// the path, then one Point per fix whose properties hold its time, its offset `t`, and
/// `hAcc`, `vAcc`, `speed`, `course` when known. Positions are [lon, lat] or
/// [lon, lat, alt], as the RFC orders them.
public enum GeoJSONWriter {
    public static func write(_ trace: Trace) -> String {
        let fixes = trace.locations
        var features: [String] = []
        let line = fixes.map { position($0.fix) }.joined(separator: ",")
        features.append(#"{"type":"Feature","geometry":{"type":"LineString","coordinates":[\#(line)]},"properties":{"name":"path","start":"\#(trace.start.rfc3339)"}}"#)
        for (offset, fix) in fixes {
            var properties: [String: JSONValue] = [
                "time": .string(fix.time.rfc3339), "t": .double(Double(offset) / 1e9), "hAcc": .double(fix.horizontalAccuracy),
            ]
            if let vAcc = fix.verticalAccuracy { properties["vAcc"] = .double(vAcc) }
            if let speed = fix.speed { properties["speed"] = .double(speed) }
            if let course = fix.course { properties["course"] = .double(course) }
            features.append(#"{"type":"Feature","geometry":{"type":"Point","coordinates":\#(position(fix))},"properties":\#(JSONValue.object(properties).serialized())}"#)
        }
        return "{\"type\":\"FeatureCollection\",\"features\":[\n" + features.joined(separator: ",\n") + "\n]}\n"
    }

    static func position(_ fix: LocationFix) -> String {
        var parts = [ExportNumber.degrees(fix.longitude), ExportNumber.degrees(fix.latitude)]
        if let alt = fix.altitude { parts.append(ExportNumber.fixed(alt, 3)) }
        return "[" + parts.joined(separator: ",") + "]"
    }
}
