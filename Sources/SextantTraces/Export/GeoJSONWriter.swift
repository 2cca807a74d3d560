import SextantCore
import SextantProtocol

/// Writes a trace's locations as a GeoJSON (RFC 7946) FeatureCollection: one LineString of
/// the path, then one Point per fix whose properties hold its time, its offset `t`, and
/// `hAcc`, `vAcc`, `speed`, `course` when known. Positions are [lon, lat] or
/// [lon, lat, alt], as the RFC orders them.
public enum GeoJSONWriter {
    public static func write(_ trace: Trace) -> String { TraceExporter.render(trace, as: .geojson) }

    /// Reads the trace twice as it writes: once for the path, once for the points.
    /// - Returns: how many locations it read.
    static func write(_ trace: some ReplayableTrace, to output: ExportOutput) throws(TraceExportError) -> Int {
        try output.write(#"{"type":"FeatureCollection","features":["# + "\n" + #"{"type":"Feature","geometry":{"type":"LineString","coordinates":["#)
        var separator = ""
        let count = try trace.forEachLocation { _, fix throws(TraceExportError) in
            try output.write(separator + position(fix))
            separator = ","
        }
        try output.write(#"]},"properties":{"name":"path","start":"\#(trace.start.rfc3339)"}}"#)
        try trace.forEachLocation { offset, fix throws(TraceExportError) in try output.write(",\n" + point(fix, offset: offset)) }
        try output.write("\n]}\n")
        return count
    }

    static func point(_ fix: LocationFix, offset: Int64) -> String {
        var properties: [String: JSONValue] = [
            LocationKey.time: .string(fix.time.rfc3339), "t": .double(Double(offset) / 1e9),
            LocationKey.horizontalAccuracy: .double(fix.horizontalAccuracy),
        ]
        if let vAcc = fix.verticalAccuracy { properties[LocationKey.verticalAccuracy] = .double(vAcc) }
        if let speed = fix.speed { properties[LocationKey.speed] = .double(speed) }
        if let course = fix.course { properties[LocationKey.course] = .double(course) }
        return #"{"type":"Feature","geometry":{"type":"Point","coordinates":\#(position(fix))},"properties":\#(JSONValue.object(properties).serialized())}"#
    }

    static func position(_ fix: LocationFix) -> String {
        var parts = [ExportNumber.degrees(fix.longitude), ExportNumber.degrees(fix.latitude)]
        if let alt = fix.altitude { parts.append(ExportNumber.fixed(alt, 3)) }
        return "[" + parts.joined(separator: ",") + "]"
    }
}

extension GeoJSONWriter: TraceWriterFormat {
    static let name = "geojson"
    static let extensions = ["geojson"]
}

extension TraceExportFormat {
    public static let geojson = TraceExportFormat(GeoJSONWriter.self)
}
