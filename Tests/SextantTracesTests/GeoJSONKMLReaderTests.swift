import Foundation
import SextantCore
import SextantProtocol
import SextantTestSupport
@testable import SextantTraces
import Testing

/// GeoJSON and KML in (issue 23.2): what the writers write reads back, as GPX does, and
/// the plain forms other tools write.
extension TraceExportTests {
    func readBack(_ text: String, as name: String) throws -> Trace {
        let scratch = try TemporaryDirectory("geo-read")
        let path = try scratch.write(name, text)
        let (trace, format) = try TraceLoader.loadDetectingFormat(path: path)
        #expect(format.name == (name.hasSuffix(".kml") ? "kml" : "geojson"))
        let replay = try TraceLoader.openForReplay(path: path)
        #expect(try (0..<replay.sampleCount).map { try replay.traceSample(at: $0) } == trace.samples)
        #expect(try TraceLoader.summarize(path: path).summary == TraceSummary(trace))
        return trace
    }

    @Test("NMEA → GeoJSON → GeoJSON reader keeps positions (1e-9°), times (1 ms), altitude, accuracy, speed and course")
    func geoJSONRoundTrip() throws {
        let nmea = try nmeaTrace()
        let back = try readBack(GeoJSONWriter.write(nmea), as: "walk.geojson")
        // Coordinates to 1e-9°, times to the millisecond; hAcc, vAcc, speed and course as JSON numbers.
        expectClose(nmea, back, degrees: 1e-9, seconds: 0.001, speed: 1e-9, course: 1e-9, accuracy: 1e-9)
        #expect(back.locations.map(\.fix.verticalAccuracy) == nmea.locations.map(\.fix.verticalAccuracy))
    }

    @Test("NMEA → KML → KML reader keeps positions (1e-9°), times (1 ms) and altitude; speed and course come from the legs")
    func kmlRoundTrip() throws {
        let nmea = try nmeaTrace()
        let back = try readBack(KMLWriter.write(nmea), as: "walk.kml")
        #expect(back.locations.count == nmea.locations.count)
        for (p, q) in zip(nmea.locations, back.locations) {
            #expect(abs(p.fix.latitude - q.fix.latitude) <= 1e-9 && abs(p.fix.longitude - q.fix.longitude) <= 1e-9)
            #expect(abs(p.fix.time.seconds - q.fix.time.seconds) <= 0.001)
            #expect(abs((p.fix.altitude ?? 0) - (q.fix.altitude ?? 0)) <= 0.001)
        }
    }

    @Test("A KML of fixes without altitude reads back without altitude (KML's clampToGround)")
    func kmlWithoutAltitude() throws {
        let start = Timestamp(rfc3339: "2026-03-01T10:00:00Z")!
        let fixes = (0..<3).map { k in
            TraceSample(offset: Int64(k) * 1_000_000_000, value: .location(LocationFix(latitude: 48.85 + Double(k) * 1e-4, longitude: 2.35, time: start.adding(nanoseconds: Int64(k) * 1_000_000_000))))
        }
        let back = try readBack(KMLWriter.write(Trace(start: start, samples: fixes)), as: "x.kml")
        #expect(back.locations.map(\.fix.altitude) == [nil, nil, nil])
        #expect(back.locations.map(\.fix.time) == fixes.map { $0.offset }.map { start.adding(nanoseconds: $0) })
    }

    @Test("A GeoJSON LineString without times is walked as a GPX route (1.4 m/s from 2000-01-01)")
    func geoJSONRoute() throws {
        let text = #"{"type":"Feature","geometry":{"type":"LineString","coordinates":[[2.35,48.85],[2.36,48.85]]},"properties":{}}"#
        let trace = try readBack(text, as: "route.geojson")
        #expect(trace.locations.count == 2)
        #expect(trace.start == Timestamp(rfc3339: "2000-01-01T00:00:00Z"))
        let metres = Geo.distance(lat1: 48.85, lon1: 2.35, lat2: 48.85, lon2: 2.36)
        #expect(abs(trace.duration - metres / 1.4) < 1e-6)
    }

    @Test("A LineString with coordTimes (togeojson's form) keeps its times")
    func geoJSONCoordTimes() throws {
        let text = #"""
            {"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"LineString","coordinates":[[2.35,48.85,30],[2.36,48.85,31]]},
            "properties":{"coordTimes":["2026-03-01T10:00:00Z","2026-03-01T10:01:00Z"]}}]}
            """#
        let trace = try readBack(text, as: "t.geojson")
        #expect(trace.locations.map(\.fix.altitude) == [30, 31])
        #expect(trace.duration == 60)
    }

    @Test("A KML Placemark LineString (the plain form) is walked as a route")
    func kmlLineString() throws {
        let text = """
            <?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2"><Document><Placemark><LineString>
            <coordinates>2.35,48.85,0 2.36,48.85,0</coordinates></LineString></Placemark></Document></kml>
            """
        let trace = try readBack(text, as: "p.kml")
        #expect(trace.locations.count == 2 && trace.start == Timestamp(rfc3339: "2000-01-01T00:00:00Z"))
    }

    @Test("Bad GeoJSON and KML are refused with file, line and what is wrong")
    func badInput() throws {
        let scratch = try TemporaryDirectory("geo-read")
        func error(_ name: String, _ text: String) throws -> String {
            let path = try scratch.write(name, text)
            do {
                _ = try TraceLoader.load(path: path)
                return "read"
            } catch {
                return error.description.replacingOccurrences(of: path, with: "F")
            }
        }
        #expect(try error("a.geojson", "{\n\"type\":") .hasPrefix("F:2: not JSON: "))
        #expect(try error("b.geojson", #"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[2.35]}}]}"#)
            == "F:1: feature 1: a position that is not [lon, lat] or [lon, lat, alt]: [2.35]")
        #expect(try error("g.geojson", #"{"type":"Feature","geometry":{"type":"Point","coordinates":[2.35,48.85]},"properties":{"time":"2026-03-01T10:00:00Z","hAcc":-3}}"#)
            == "F:1: a Point's properties: hAcc must be within 0...20000000 m")
        #expect(try error("h.geojson", #"{"type":"Feature","geometry":{"type":"Point","coordinates":[2.35,48.85]},"properties":{"time":"2026-03-01T10:00:00Z","speed":"fast"}}"#)
            == "F:1: a Point's properties: speed is not a number: \"fast\"")
        #expect(try error("c.geojson", #"{"type":"Polygon","coordinates":[]}"#) == "F:1: no positions: GeoJSON with a LineString, MultiLineString or Point was expected")
        #expect(try error("d.kml", "<kml>\n<Placemark><Point><coordinates>2.35;48.85</coordinates></Point></Placemark></kml>")
            == "F:2: a position that is not \"lon,lat,alt\": \"2.35;48.85\"")
        #expect(try error("e.kml", "<gpx/>") == "F:1: not a KML file: the root element is <gpx>, not <kml>")
        #expect(try error("f.kml", "<kml xmlns:gx=\"http://www.google.com/kml/ext/2.2\"><gx:Track>\n<when>2026-03-01T10:00:00Z</when></gx:Track></kml>")
            == "F:1: a gx:Track with 1 <when> and 0 <gx:coord>: each position needs its time")
    }
}
