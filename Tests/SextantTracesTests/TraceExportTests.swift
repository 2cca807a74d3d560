import Foundation
import SextantCore
import SextantProtocol
import SextantTraces
import Testing

/// The export formats: what each writes, and round trips through the readers within
/// each format's precision.
@Suite("Trace export")
struct TraceExportTests {
    static let log = "haicom-305N.log"
    static var logPath: String { URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path + "/Traces/gpsd/" + log }

    func nmeaTrace() throws -> Trace {
        try NMEAReader.read(try String(contentsOfFile: Self.logPath, encoding: .utf8), path: Self.logPath)
    }

    /// Positions to `degrees`, times to `seconds`, and the other values to their own tolerances.
    func expectClose(_ a: Trace, _ b: Trace, degrees: Double, seconds: Double, speed: Double, course: Double, accuracy: Double,
                     sourceLocation: SourceLocation = #_sourceLocation) {
        let x = a.locations, y = b.locations
        #expect(x.count == y.count, sourceLocation: sourceLocation)
        for (p, q) in zip(x, y) {
            #expect(abs(p.fix.latitude - q.fix.latitude) <= degrees && abs(p.fix.longitude - q.fix.longitude) <= degrees, "\(p.fix) vs \(q.fix)", sourceLocation: sourceLocation)
            #expect(abs(p.fix.time.seconds - q.fix.time.seconds) <= seconds, "\(p.fix.time) vs \(q.fix.time)", sourceLocation: sourceLocation)
            #expect((p.fix.altitude == nil) == (q.fix.altitude == nil) && abs((p.fix.altitude ?? 0) - (q.fix.altitude ?? 0)) <= 0.01, sourceLocation: sourceLocation)
            #expect(abs(p.fix.horizontalAccuracy - q.fix.horizontalAccuracy) <= accuracy, sourceLocation: sourceLocation)
            if let s = p.fix.speed { #expect(abs(s - (q.fix.speed ?? .infinity)) <= speed, sourceLocation: sourceLocation) }
            if let c = p.fix.course { #expect(abs(c - (q.fix.course ?? .infinity)) <= course, sourceLocation: sourceLocation) }
        }
    }

    @Test("NMEA → JSONL → GPX → JSONL keeps positions (1e-9°), times (1 ms), speed, course and accuracy")
    func nmeaJSONLGPXRoundTrip() throws {
        let nmea = try nmeaTrace()
        #expect(nmea.locations.count > 50)
        let jsonl = try SextantTraceFormat.read(SextantTraceFormat.write(nmea), path: "a.jsonl")
        #expect(jsonl == nmea, "JSONL holds every value exactly")
        let gpx = try GPXReader.read(GPXWriter.write(jsonl), path: "b.gpx")
        let back = try SextantTraceFormat.read(SextantTraceFormat.write(gpx), path: "c.jsonl")
        // GPX times are written to the millisecond, coordinates to 1e-9°, HDOP to 1e-4
        // (5e-4 m of accuracy), speed to 1 mm/s, course to 0.01°.
        expectClose(nmea, back, degrees: 1e-9, seconds: 0.001, speed: 0.0005, course: 0.005, accuracy: 0.0005)
    }

    @Test("JSONL → NMEA → NMEA reader keeps positions (1e-6′), times (10 ms), speed (0.001 kn) and course (0.01°)")
    func nmeaRoundTrip() throws {
        let route = try RoutePlanner(
            waypoints: [RouteWaypoint(latitude: -33.85, longitude: 151.21, altitude: 12), RouteWaypoint(latitude: -33.86, longitude: 151.19, altitude: 30)],
            speed: 13.7, spacing: .interval(seconds: 0.7), start: Timestamp(rfc3339: "2026-03-01T23:59:50.123Z")!, horizontalAccuracy: 3.3
        ).trace()
        let text = NMEAWriter.write(route)
        let back = try NMEAReader.read(text, path: "r.nmea")
        #expect(back.skipped.isEmpty, "every sentence reads: \(back.skipped)")
        // 1e-6 minute is 1.7e-8°; half a centisecond; half of 0.001 knot; half of 0.01°.
        expectClose(route, back, degrees: 1e-8, seconds: 0.005, speed: 0.0003, course: 0.005, accuracy: 0.03)
        #expect(back.locations.last!.fix.time > Timestamp(rfc3339: "2026-03-02T00:00:00Z")!, "the date rolls over at midnight")
    }

    @Test("NMEA sentences end in the XOR checksum of their body, worked out here, and CR LF")
    func nmeaChecksums() throws {
        let trace = try nmeaTrace()
        let text = NMEAWriter.write(trace)
        let lines = text.components(separatedBy: "\r\n").dropLast()
        #expect(lines.count == 3 * trace.locations.count)
        for line in lines {
            let parts = line.split(separator: "*")
            #expect(parts.count == 2 && line.hasPrefix("$"), "\(line)")
            let sum = parts[0].utf8.dropFirst().reduce(UInt8(0)) { $0 ^ $1 }
            #expect(String(parts[1]) == String(format: "%02X", sum), "\(line)")
            #expect(["$GPRMC", "$GPGGA", "$GPGSA"].contains(String(line.prefix(6))))
        }
    }

    @Test("GeoJSON: a LineString of [lon, lat, alt] and a Point a fix with its time")
    func geoJSON() throws {
        let trace = try nmeaTrace()
        let value = try JSONValue.parse(GeoJSONWriter.write(trace))
        let features = try #require(value["features"]?.arrayValue)
        #expect(value["type"] == "FeatureCollection")
        #expect(features.count == trace.locations.count + 1)
        let line = try #require(features[0]["geometry"]?["coordinates"]?.arrayValue)
        for (k, (_, fix)) in trace.locations.enumerated() {
            let position = try #require(line[k].arrayValue)
            #expect(abs(position[0].doubleValue! - fix.longitude) <= 1e-9 && abs(position[1].doubleValue! - fix.latitude) <= 1e-9)
            let point = features[k + 1]
            #expect(point["properties"]?["time"]?.stringValue == fix.time.rfc3339)
        }
    }

    @Test("KML: a gx:Track with a time and a coordinate a fix, and a LineString")
    func kml() throws {
        let trace = try nmeaTrace()
        let text = KMLWriter.write(trace)
        #expect(text.components(separatedBy: "<when>").count - 1 == trace.locations.count)
        #expect(text.components(separatedBy: "<gx:coord>").count - 1 == trace.locations.count)
        let first = trace.locations[0].fix
        #expect(text.contains("<gx:coord>\(String(format: "%.9f %.9f", first.longitude, first.latitude))"))
        #expect(text.contains("<LineString>"))
    }

    @Test("the output format: by extension, by --to, and unknown ones refused")
    func choosing() throws {
        #expect(try TraceExportFormat.choose(path: "a/b.GPX", named: nil) == .gpx)
        #expect(try TraceExportFormat.choose(path: "x.geojson", named: nil) == .geojson)
        #expect(try TraceExportFormat.choose(path: "x.log", named: nil) == .nmea)
        #expect(try TraceExportFormat.choose(path: "x.txt", named: "kml") == .kml)
        for (path, name) in [("x.json", nil), ("x.txt", nil), ("noextension", nil), (".hidden", nil), ("x.gpx", "shp")] as [(String, String?)] {
            #expect(throws: TraceExportError.self) { try TraceExportFormat.choose(path: path, named: name) }
        }
    }
}
