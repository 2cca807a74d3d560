import Foundation
import SextantCore
import SextantProtocol

#if canImport(FoundationXML)
import FoundationXML
#endif

/// One point of a GPX track, route or waypoint list, as the file gives it.
struct GPXPoint: Equatable {
    var latitude: Double
    var longitude: Double
    /// `<ele>`: metres (GPX says above the geoid, i.e. mean sea level).
    var elevation: Double?
    var time: Timestamp?
    var hdop: Double?
    var vdop: Double?
    /// `<speed>` (GPX 1.0, or an extension such as Garmin's TrackPointExtension), m/s.
    var speed: Double?
    /// `<course>` (GPX 1.0, or an extension), degrees from true north.
    var course: Double?
    /// The 1-based line of the point's start tag.
    var line: Int
    /// `trkpt`, `rtept` or `wpt`.
    var element = "trkpt"
    /// `hAcc` and `vAcc` in metres where the file says them (GeoJSON's properties), which
    /// `hdop` and `vdop` stand in for otherwise. Read from a document in memory only: the
    /// point spool of a streamed GPX file has no place for them, nor GPX a tag.
    var horizontalAccuracy: Double?
    var verticalAccuracy: Double?
}

/// The parts of a GPX 1.1 (or 1.0) file a replay uses: tracks (`trk`, made of `trkseg`
/// of `trkpt`), routes (`rte` of `rtept`) and waypoints (`wpt`), each a list of points
/// in file order, and the file's own time (`metadata/time`).
struct GPXDocument: Equatable {
    /// Each track segment is one list: a segment break is a gap in the recording.
    var trackSegments: [[GPXPoint]] = []
    var routes: [[GPXPoint]] = []
    var waypoints: [GPXPoint] = []
    var time: Timestamp?
    /// The line of the `<gpx>` start tag.
    var rootLine = 1

    /// Parses a whole file with Foundation's `XMLParser` (libxml2), which reports the
    /// line of every element and of the first syntax error.
    static func parse(_ text: String, path: String) throws(TraceError) -> GPXDocument {
        try parse(Data(text.utf8), path: path)
    }

    /// Parses a file's bytes. The parser reads them from a stream, in chunks: handed a
    /// whole document at once, libxml2 stops at 10 MB (its limit on one chunk, which
    /// Foundation gives no way to lift) with a bogus error past the end.
    static func parse(_ data: Data, path: String) throws(TraceError) -> GPXDocument {
        let result = data.withUnsafeBytes { bytes in
            let input = GPXCheckedInput { pointer, count, offset in
                let start = Int(offset)
                let length = max(0, min(count, bytes.count - start))
                if length > 0 { pointer.copyMemory(from: bytes.baseAddress! + start, byteCount: length) }
                return length
            }
            return Result { () throws(TraceError) in try parse(input, path: path) }
        }
        return try result.get()
    }

    /// Parses what `input` reads, each piece checked before the parser sees it (what
    /// would crash Foundation's XMLParser, found by fuzzing: `GPXPreflight`).
    static func parse(_ input: GPXCheckedInput, path: String) throws(TraceError) -> GPXDocument {
        let collector = DocumentCollector()
        try parse(input, path: path, into: collector)
        return collector.document
    }

    /// Parses what `input` reads, handing the points to `collector` as they end.
    static func parse(_ input: GPXCheckedInput, path: String, into collector: some GPXPointCollector) throws(TraceError) {
        try parse(input, path: path, with: Builder(path: path, collector: collector), root: "<gpx>", format: "GPX")
    }

    /// Runs `XMLParser` over `input` with `builder` as its delegate, and throws the first
    /// problem: the input's, the builder's, the XML's, or a missing `root` element.
    static func parse(_ input: GPXCheckedInput, path: String, with builder: some CheckedXMLBuilder, root: String, format: String) throws(TraceError) {
        let parser = XMLParser(stream: input)
        parser.shouldProcessNamespaces = true
        parser.delegate = builder
        let ok = parser.parse()
        // A problem anywhere in the file comes before what the parser found in its first part.
        input.finish()
        if let (line, reason) = input.problem { throw TraceError(path: path, line: line, reason: reason) }
        if let reason = input.readError { throw TraceError(path: path, line: input.scan.line, reason: "cannot read the file: \(reason)") }
        if let error = builder.error { throw error }
        // libxml2 recovers from some errors (a mismatched end tag) and `parse()` then
        // returns true: any error reported is one.
        if let (line, error) = builder.syntaxError {
            throw TraceError(path: path, line: max(1, line), reason: "not well-formed XML: \(describe(error))")
        }
        guard ok else {
            throw TraceError(path: path, line: max(1, parser.lineNumber), reason: "not well-formed XML: \(describe(parser.parserError))")
        }
        guard builder.sawRoot else {
            let empty = !input.scan.sawContent
            throw TraceError(path: path, line: 1, reason: empty ? "not a \(format) file: the file is empty" : "not a \(format) file: no \(root) element")
        }
    }

    private static func describe(_ error: (any Error)?) -> String {
        guard let error = error as NSError? else { return "unknown error" }
        switch XMLParser.ErrorCode(rawValue: error.code) {
        case .tagNameMismatchError?: return "an end tag does not match its start tag"
        case .prematureDocumentEndError?: return "the document ends too early"
        case .emptyDocumentError?: return "the document is empty"
        case .documentStartError?: return "no XML document"
        case .ltRequiredError?, .gtRequiredError?: return "a tag is not closed"
        case .attributeNotStartedError?, .attributeNotFinishedError?, .attributeRedefinedError?:
            return "a bad attribute"
        case .entityRefLoopError?, .entityBoundaryError?, .undeclaredEntityError?, .entityReferenceMissingSemiError?: return "a bad entity"
        case .extraContentError?: return "content after the root element"
        default: return "libxml2 error \(error.code)"
        }
    }

    /// The `XMLParser` delegate that collects the points.
    private final class Builder: NSObject, CheckedXMLBuilder {
        let path: String
        let collector: any GPXPointCollector
        var error: TraceError?
        /// The first XML syntax error and the line libxml2 found it on.
        var syntaxError: (Int, any Error)?
        var sawRoot = false

        private var depth = 0
        private var point: GPXPoint?
        private var pointElement = ""
        private var inMetadata = false
        /// The value element being read (`ele`, `time`…) and its text so far.
        private var field: (name: String, line: Int)?
        private var text = ""

        static let pointFields: Set<String> = ["ele", "time", "hdop", "vdop", "speed", "course"]

        init(path: String, collector: any GPXPointCollector) {
            self.path = path
            self.collector = collector
        }

        private func fail(_ parser: XMLParser, _ reason: String, line: Int? = nil) {
            guard error == nil else { return }
            error = TraceError(path: path, line: line ?? parser.lineNumber, reason: reason)
            parser.abortParsing()
        }

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            depth += 1
            if depth == 1 {
                guard name == "gpx" else { return fail(parser, "not a GPX file: the root element is <\(qualifiedName ?? name)>, not <gpx>") }
                sawRoot = true
                collector.rootLine = parser.lineNumber
                return
            }
            switch name {
            case "trkseg": collector.open(.segment)
            case "rte": collector.open(.route)
            case "metadata": inMetadata = true
            case "trkpt", "rtept", "wpt":
                guard point == nil else { return fail(parser, "<\(name)> inside another point") }
                guard let latText = attributes["lat"], let lonText = attributes["lon"] else {
                    return fail(parser, "<\(name)> needs lat and lon attributes")
                }
                guard let lat = Double(latText.trimmingCharacters(in: .whitespaces)), let lon = Double(lonText.trimmingCharacters(in: .whitespaces)) else {
                    return fail(parser, "<\(name)> lat and lon must be numbers (got \"\(latText)\", \"\(lonText)\")")
                }
                if let problem = LocationFix.problem(latitude: lat, longitude: lon) { return fail(parser, "<\(name)>: \(problem)") }
                if name == "trkpt" && !collector.isOpen(.segment) { return fail(parser, "<trkpt> outside a <trkseg>") }
                if name == "rtept" && !collector.isOpen(.route) { return fail(parser, "<rtept> outside a <rte>") }
                point = GPXPoint(latitude: lat, longitude: lon, line: parser.lineNumber, element: name)
                pointElement = name
            default:
                if (point != nil && Self.pointFields.contains(name)) || (inMetadata && point == nil && name == "time" && depth == 3) {
                    field = (name, parser.lineNumber)
                    text = ""
                }
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if field != nil { text += string }
        }

        func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
            defer { depth -= 1 }
            if let (fieldName, line) = field, fieldName == name {
                field = nil
                store(fieldName, text.trimmingCharacters(in: .whitespacesAndNewlines), line: line, parser)
                return
            }
            switch name {
            case "trkseg": collector.close(.segment)
            case "rte": collector.close(.route)
            case "metadata": inMetadata = false
            case pointElement where point != nil:
                collector.add(point!)
                point = nil
            default: break
            }
        }

        private func store(_ name: String, _ value: String, line: Int, _ parser: XMLParser) {
            if name == "time" {
                switch GPXDocument.time(value) {
                case .success(let time): if point != nil { point!.time = time } else { collector.time = time }
                case .failure(.outOfRange): fail(parser, "<time> is \(Timestamp.RFC3339Error.outOfRange): \"\(value)\"", line: line)
                case .failure: fail(parser, "<time> is not an ISO 8601 UTC time: \"\(value)\"", line: line)
                }
                return
            }
            guard let number = Double(value), number.isFinite else { return fail(parser, "<\(name)> is not a number: \"\(value)\"", line: line) }
            switch name {
            case "ele": point?.elevation = number
            case "hdop": point?.hdop = number
            case "vdop": point?.vdop = number
            case "speed":
                guard number >= 0 else { return fail(parser, "<speed> must not be negative", line: line) }
                point?.speed = number
            default:
                guard (0...360).contains(number) else { return fail(parser, "<course> must be within 0...360 degrees", line: line) }
                point?.course = number.truncatingRemainder(dividingBy: 360)
            }
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            // The line is right only now: after `parse()` returns it has moved on.
            if syntaxError == nil { syntaxError = (parser.lineNumber, parseError) }
        }
    }

    /// An `xsd:dateTime` as GPX writes it: RFC 3339, or without a zone (taken as UTC).
    static func time(_ text: String) -> Result<Timestamp, Timestamp.RFC3339Error> {
        do { return .success(try Timestamp.parse(rfc3339: text)) } catch .outOfRange { return .failure(.outOfRange) } catch {}
        do { return .success(try Timestamp.parse(rfc3339: text + "Z")) } catch { return .failure(error) }
    }
}

/// An `XMLParser` delegate that `GPXDocument.parse(_:path:with:root:format:)` runs: what it
/// found wrong, and whether it saw the root element it reads.
protocol CheckedXMLBuilder: XMLParserDelegate {
    var error: TraceError? { get }
    /// The first XML syntax error and the line libxml2 found it on.
    var syntaxError: (Int, any Error)? { get }
    var sawRoot: Bool { get }
}

/// A list the parser opens and closes: a track segment, or a route (a file's routes are
/// one path).
enum GPXListKind { case segment, route }

/// Where the parser's points go, in file order: a document in memory, or spool files
/// (`GPXPointSpool`). A list opened while one of its kind is open drops the points of
/// that one; a point ends up only in a list still open (`trkpt` in a segment, `rtept` in a
/// route), a `wpt` always.
protocol GPXPointCollector: AnyObject {
    var time: Timestamp? { get set }
    var rootLine: Int { get set }
    func open(_ kind: GPXListKind)
    func close(_ kind: GPXListKind)
    func isOpen(_ kind: GPXListKind) -> Bool
    func add(_ point: GPXPoint)
}

/// The points of a file in memory, as `GPXDocument` lists them.
final class DocumentCollector: GPXPointCollector {
    var document = GPXDocument()
    private var segment: [GPXPoint]?
    private var route: [GPXPoint]?

    var time: Timestamp? {
        get { document.time }
        set { document.time = newValue }
    }
    var rootLine: Int {
        get { document.rootLine }
        set { document.rootLine = newValue }
    }

    func open(_ kind: GPXListKind) {
        if kind == .segment { segment = [] } else { route = [] }
    }

    func close(_ kind: GPXListKind) {
        if kind == .segment {
            if let segment { document.trackSegments.append(segment) }
            segment = nil
        } else {
            if let route { document.routes.append(route) }
            route = nil
        }
    }

    func isOpen(_ kind: GPXListKind) -> Bool { kind == .segment ? segment != nil : route != nil }

    func add(_ point: GPXPoint) {
        switch point.element {
        case "trkpt": segment?.append(point)
        case "rtept": route?.append(point)
        default: document.waypoints.append(point)
        }
    }
}
