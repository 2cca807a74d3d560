import Foundation
import SextantCore
import SextantProtocol

#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reads KML 2.2 as a trace of locations: what `KMLWriter` writes, and the plain forms
/// other tools write.
///
/// **Which positions.** The `gx:Track`s (Google's extension: a `<when>` for every
/// `<gx:coord>` "lon lat alt", each track a list, as a GPX track segment) when the file
/// has any; else its Placemarks' `Point`s when they have times (`TimeStamp/when`); else
/// its `LineString`s (`<coordinates>` "lon,lat[,alt]" tuples, each a list); else its
/// Points. `KMLWriter` writes a track and a LineString of the same path: the track is read.
///
/// **Times and values.** As `GPXReader`'s rules (times kept; a path without times walked
/// at `TraceLoadOptions.gpxSpeed` from 2000-01-01; speed and course from the legs).
/// Altitudes are kept when the geometry's `altitudeMode` is `absolute`: KML's default,
/// `clampToGround`, says they mean nothing (and `KMLWriter` writes 0 for a fix without
/// one, without a mode).
///
/// A file that is not well-formed XML, not KML, or has a bad position is refused with the
/// line of the element.
enum KMLReader {
    static func read(_ bytes: UnsafeBufferPointer<UInt8>, path: String, options: TraceLoadOptions) throws(TraceError) -> Trace {
        let input = GPXCheckedInput { pointer, count, offset in
            let start = Int(offset)
            let length = max(0, min(count, bytes.count - start))
            if length > 0 { pointer.copyMemory(from: bytes.baseAddress! + start, byteCount: length) }
            return length
        }
        let builder = KMLBuilder(path: path)
        try GPXDocument.parse(input, path: path, with: builder, root: "<kml>", format: "KML")
        guard
            let trace = try GPXReader.walkDocument(
                timedLines: builder.tracks, lines: builder.lines, points: builder.points, path: path, options: options)
        else {
            throw TraceError(path: path, line: builder.rootLine, reason: "no positions: the file has no gx:Track, Point or LineString")
        }
        return trace
    }
}

extension TraceFormat {
    /// Not by its first bytes: `<` starts a GPX file too, which `gpx` claims first.
    public static let kml = TraceFormat(WholeDocumentFormat(name: "kml", extensions: ["kml"], reader: KMLReader.read))
}

/// The `XMLParser` delegate that collects a KML file's tracks, lines and points.
final class KMLBuilder: NSObject, CheckedXMLBuilder {
    let path: String
    var error: TraceError?
    var syntaxError: (Int, any Error)?
    var sawRoot = false
    var rootLine = 1
    private(set) var tracks: [[GPXPoint]] = []
    private(set) var lines: [[GPXPoint]] = []
    private(set) var points: [GPXPoint] = []

    private var depth = 0
    /// The open track's times and positions, the line of each.
    private var track: (times: [Timestamp], coords: [GPXPoint], line: Int)?
    /// The open Placemark's time (`TimeStamp/when`) and its Points, which take it.
    private var placemarkTime: Timestamp?
    private var placemarkPoints: [GPXPoint]?
    /// The geometry being read (`Point`, `LineString`, `Track`) and whether its altitudes count.
    private var geometry: String?
    private var absolute = false
    private var text = ""
    private var textLine = 0

    init(path: String) { self.path = path }

    private func fail(_ parser: XMLParser, _ reason: String, line: Int? = nil) {
        guard error == nil else { return }
        error = TraceError(path: path, line: line ?? parser.lineNumber, reason: reason)
        parser.abortParsing()
    }

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?, attributes: [String: String] = [:]
    ) {
        depth += 1
        if depth == 1 {
            guard name == "kml" else { return fail(parser, "not a KML file: the root element is <\(qualifiedName ?? name)>, not <kml>") }
            sawRoot = true
            rootLine = parser.lineNumber
            return
        }
        switch name {
        case "Placemark": placemarkPoints = []
        case "Track", "Point", "LineString":
            if name == "Track" { track = ([], [], parser.lineNumber) }
            geometry = name
            absolute = false
        default: break
        }
        text = ""
        textLine = parser.lineNumber
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if text.utf8.count < 1 << 24 { text += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        defer {
            depth -= 1
            text = ""
        }
        let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
        switch name {
        case "altitudeMode": absolute = value == "absolute"
        case "when": when(value, parser)
        case "coord": if track != nil, let point = position(value, separator: " ", parser) { track!.coords.append(point) }
        case "coordinates": coordinates(value, parser)
        case "Track": endTrack(parser)
        case "Point", "LineString": geometry = nil
        case "Placemark":
            points += (placemarkPoints ?? []).map { point in
                var point = point
                point.time = placemarkTime
                return point
            }
            placemarkPoints = nil
            placemarkTime = nil
        default: break
        }
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
        if syntaxError == nil { syntaxError = (parser.lineNumber, parseError) }
    }

    private func when(_ value: String, _ parser: XMLParser) {
        guard let time = GPXDocument.time(value).success else { return fail(parser, "<when> is not an ISO 8601 UTC time: \"\(value.prefix(40))\"", line: textLine) }
        if track != nil { track!.times.append(time) } else if placemarkPoints != nil { placemarkTime = time }
    }

    private func endTrack(_ parser: XMLParser) {
        guard let (times, coords, line) = track else { return }
        track = nil
        geometry = nil
        guard times.count == coords.count else {
            return fail(parser, "a gx:Track with \(times.count) <when> and \(coords.count) <gx:coord>: each position needs its time", line: line)
        }
        let list = zip(times, coords).map { time, point in
            var point = point
            point.time = time
            return point
        }
        if !list.isEmpty { tracks.append(list) }
    }

    private func coordinates(_ value: String, _ parser: XMLParser) {
        let tuples = value.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" })
        var list: [GPXPoint] = []
        for tuple in tuples {
            guard let point = position(String(tuple), separator: ",", parser) else { return }
            list.append(point)
        }
        if geometry == "Point" {
            placemarkPoints? += list
            if placemarkPoints == nil { points += list }
        } else if !list.isEmpty {
            lines.append(list)
        }
    }

    /// "lon,lat[,alt]" (or with spaces, in a `gx:coord`).
    private func position(_ value: String, separator: Character, _ parser: XMLParser) -> GPXPoint? {
        let parts = value.split(separator: separator).map { Double($0) }
        guard parts.count >= 2, parts.count <= 3, let lon = parts[0], let lat = parts[1], parts.count < 3 || parts[2] != nil else {
            fail(parser, "a position that is not \"lon\(separator)lat\(separator)alt\": \"\(value.prefix(60))\"", line: textLine)
            return nil
        }
        let altitude = absolute && parts.count == 3 ? parts[2] : nil
        if let problem = LocationFix.problem(latitude: lat, longitude: lon, altitude: altitude) {
            fail(parser, "a position out of range (\(problem))", line: textLine)
            return nil
        }
        return GPXPoint(latitude: lat, longitude: lon, elevation: altitude, line: textLine)
    }
}

extension Result {
    /// The value, or nil for a failure.
    fileprivate var success: Success? { try? get() }
}
