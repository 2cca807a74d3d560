import Foundation
import SextantProtocol
import SextantTestSupport
import Testing

/// Files nobody here wrote (issue 42, docs/compatibility.md): the demo walk as gpsbabel
/// writes it, read by `sextantctl trace`, and Sextant's exports read by gpsbabel. The
/// expected points are read from the GPX text by this test, not by Sextant's reader.
@Suite("gpsbabel's files in, Sextant's files out to gpsbabel", .requires(.tool("/usr/bin/gpsbabel", package: "gpsbabel")))
final class GPSBabelTests {
    static let gpsbabel = "/usr/bin/gpsbabel"
    let scratch: TemporaryDirectory
    var directory: String { scratch.path }

    init() throws { scratch = try TemporaryDirectory("gpsbabel") }

    struct Point: Equatable {
        var time: String
        var lat: Double
        var lon: Double
    }

    /// Sextant's GPX of the demo walk, and its track points as the file says them.
    func demoGPX() throws -> (path: String, points: [Point]) {
        let path = directory + "/walk.gpx"
        let converted = try run([Binaries.sextantctl, "trace", "convert", Repository.root + "/Traces/demo-walk.jsonl", path])
        try #require(converted.status == 0, "\(converted.stderr)")
        let text = try String(contentsOfFile: path, encoding: .utf8)
        let pattern = try NSRegularExpression(pattern: #"<trkpt lat="([-0-9.]+)" lon="([-0-9.]+)">[\s\S]*?<time>([^<]+)</time>"#)
        let points = pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
            let field = { (i: Int) in String(text[Range(match.range(at: i), in: text)!]) }
            return Point(time: String(field(3).prefix(19)), lat: Double(field(1))!, lon: Double(field(2))!)
        }
        try #require(points.count == 91, "the demo walk's GPX holds 91 track points, found \(points.count)")
        return (path, points)
    }

    /// The locations `sextantctl trace convert` reads from `path`, to the second.
    func sextantReads(_ path: String) throws -> [Point] {
        let out = path + ".jsonl"
        let converted = try run([Binaries.sextantctl, "trace", "convert", path, out])
        try #require(converted.status == 0, "\(path): \(converted.stderr)")
        let lines = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").map { try JSONValue.parse(String($0)) }
        let start = try #require(lines.first?["start"]?.stringValue.flatMap { Timestamp(rfc3339: $0) })
        return lines.dropFirst().compactMap { line in
            guard let location = line["location"], let t = line["t"]?.doubleValue else { return nil }
            let time = Timestamp(seconds: start.seconds + t).rfc3339
            return Point(time: String(time.prefix(19)), lat: location["lat"]?.doubleValue ?? .nan, lon: location["lon"]?.doubleValue ?? .nan)
        }
    }

    static func same(_ read: [Point], _ expected: [Point], within metres: Double) -> Bool {
        read.count == expected.count
            && zip(read, expected).allSatisfy { a, b in
                a.time == b.time && abs(a.lat - b.lat) * 111_320 <= metres && abs(a.lon - b.lon) * 73_300 <= metres
            }
    }

    @Test("gpsbabel 1.8's GPX 1.0, GPX 1.1 and KML of the walk read as the walk: the same 91 times and positions")
    func gpsbabelFilesRead() throws {
        let (gpx, points) = try demoGPX()
        for (name, output) in [("walk10.gpx", "gpx,gpxver=1.0"), ("walk11.gpx", "gpx"), ("walk.kml", "kml")] {
            let path = directory + "/babel-" + name
            let written = try run([Self.gpsbabel, "-t", "-i", "gpx", "-f", gpx, "-o", output, "-F", path])
            try #require(written.status == 0, "gpsbabel -o \(output): \(written.stderr)")
            let read = try sextantReads(path)
            // KML's coordinates have 6 decimals: 0.1 m.
            #expect(Self.same(read, points, within: 0.2), "\(name): \(read.count) points, first \(read.first.map { "\($0)" } ?? "none")")
        }
    }

    @Test("gpsbabel 1.8 reads Sextant's GPX, KML and GeoJSON of the walk: every point, the walk's first and last among them")
    func sextantFilesReadByGPSBabel() throws {
        let (_, points) = try demoGPX()
        for format in ["gpx", "kml", "geojson"] {
            let path = directory + "/sextant." + format
            let converted = try run([Binaries.sextantctl, "trace", "convert", Repository.root + "/Traces/demo-walk.jsonl", path])
            try #require(converted.status == 0, "\(converted.stderr)")
            // GeoJSON's points are waypoints to gpsbabel; GPX's and KML's a track (-t).
            let csv = directory + "/sextant-\(format).csv"
            let read = try run([Self.gpsbabel, format == "geojson" ? "-w" : "-t", "-i", format, "-f", path, "-o", "unicsv", "-F", csv])
            try #require(read.status == 0, "gpsbabel -i \(format): \(read.stderr)")
            let rows = try String(contentsOfFile: csv, encoding: .utf8).split(whereSeparator: \.isNewline).dropFirst().map { $0.split(separator: ",") }
            let positions = rows.compactMap { row in row.count > 2 ? (Double(row[1]), Double(row[2])) : nil }
            #expect(positions.count >= points.count, "\(format): gpsbabel read \(positions.count) points")
            for expected in [points.first!, points.last!] {
                #expect(
                    positions.contains { abs(($0.0 ?? .nan) - expected.lat) < 2e-6 && abs(($0.1 ?? .nan) - expected.lon) < 2e-6 },
                    "\(format): gpsbabel did not read \(expected)")
            }
        }
    }

    @Test("gpsbabel 1.8 reads Sextant's NMEA of the walk point for point: each second's position is that second's (an epoch starts with GGA, as gpsd writes it)")
    func sextantNMEAReadByGPSBabel() throws {
        let (_, points) = try demoGPX()
        let path = directory + "/sextant.nmea"
        let converted = try run([Binaries.sextantctl, "trace", "convert", Repository.root + "/Traces/demo-walk.jsonl", path])
        try #require(converted.status == 0, "\(converted.stderr)")
        let csv = directory + "/sextant-nmea.csv"
        let read = try run([Self.gpsbabel, "-t", "-i", "nmea", "-f", path, "-o", "unicsv,utc=0", "-F", csv])
        try #require(read.status == 0, "gpsbabel -i nmea: \(read.stderr)")
        // No,Latitude,Longitude,…,Date,Time: each row's time is the epoch's.
        let rows = try String(contentsOfFile: csv, encoding: .utf8).split(whereSeparator: \.isNewline).dropFirst().map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        let babel = rows.compactMap { row -> Point? in
            guard row.count >= 13, let lat = Double(row[1]), let lon = Double(row[2]) else { return nil }
            return Point(time: row[11].replacingOccurrences(of: "/", with: "-") + "T" + row[12].prefix(8), lat: lat, lon: lon)
        }
        // unicsv has 6 decimals: 0.1 m.
        let firstDifference = zip(babel, points).first { !Self.same([$0], [$1], within: 0.2) }
        #expect(Self.same(babel, points, within: 0.2), "\(babel.count) points; first difference \(firstDifference.map { "gpsbabel \($0.0), the walk \($0.1)" } ?? "none")")
    }

    @Test("gpsbabel 1.8's NMEA of a GPX track with fix data is read as the walk: the same 91 times, positions within gpsbabel's 0.001 minute")
    func gpsbabelNMEARead() throws {
        let (_, points) = try demoGPX()
        // A receiver's track (gpxlogger's kind): each point says its fix, so gpsbabel writes
        // status A; without <fix> it writes V, a void fix, which Sextant skips as gpsd does.
        let trackPoints = points.map { #"<trkpt lat="\#($0.lat)" lon="\#($0.lon)"><time>\#($0.time)Z</time><fix>3d</fix><sat>8</sat></trkpt>"# }
        let gpx = try scratch.write("fix.gpx", #"<?xml version="1.0"?><gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>"#
            + trackPoints.joined() + "</trkseg></trk></gpx>\n")
        let nmea = directory + "/babel.nmea"
        let written = try run([Self.gpsbabel, "-t", "-i", "gpx", "-f", gpx, "-o", "nmea", "-F", nmea])
        try #require(written.status == 0, "gpsbabel -o nmea: \(written.stderr)")
        let read = try sextantReads(nmea)
        // 0.001 minute of arc is 1.9 m.
        #expect(Self.same(read, points, within: 2), "\(read.count) points, first \(read.first.map { "\($0)" } ?? "none")")
    }
}
