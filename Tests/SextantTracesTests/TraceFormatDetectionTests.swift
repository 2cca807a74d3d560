import Foundation
import SextantTestSupport
@testable import SextantTraces
import Testing

/// Which format a trace file is read as: its extension first (any case, whatever it
/// holds), else its first byte that is not white space among the first 64, else JSONL.
/// The cases are written out by hand, not derived from the table they check.
@Suite("Trace format detection")
struct TraceFormatDetectionTests {
    struct Case: Sendable, CustomStringConvertible {
        var path: String
        var head: String
        var format: TraceFormat
        var claimed: Bool
        var description: String { "\(path) \(head.debugDescription)" }
    }

    static let byExtension: [Case] = [
        Case(path: "x.gpx", head: "", format: .gpx, claimed: true),
        Case(path: "X.GPX", head: "{\"start\"", format: .gpx, claimed: true),
        Case(path: "x.nmea", head: "<?xml", format: .nmea, claimed: true),
        Case(path: "x.LOG", head: "", format: .nmea, claimed: true),
        Case(path: "/logs/receiver.log", head: "hello", format: .nmea, claimed: true),
        Case(path: "x.jsonl", head: "<gpx>", format: .sextant, claimed: true),
        Case(path: "x.json", head: "$GPRMC", format: .sextant, claimed: true),
        Case(path: "x.Trace", head: "", format: .sextant, claimed: true),
        Case(path: "/dir.gpx/x.nmea", head: "<", format: .nmea, claimed: true),
        Case(path: "walk.geojson", head: "{\"type\"", format: .geojson, claimed: true),
        Case(path: "walk.GeoJSON", head: "", format: .geojson, claimed: true),
        Case(path: "walk.kml", head: "hello", format: .kml, claimed: true),
        Case(path: "walk.KML", head: "<?xml", format: .kml, claimed: true),
    ]

    static let byFirstBytes: [Case] = [
        Case(path: "x", head: "<?xml version=\"1.0\"?>", format: .gpx, claimed: true),
        Case(path: "x.txt", head: " \t\r\n\u{0B}\u{0C}<gpx", format: .gpx, claimed: true),
        Case(path: "x.gpx.bak", head: "$GPGGA,", format: .nmea, claimed: true),
        Case(path: "x", head: "\n\n!AIVDM,", format: .nmea, claimed: true),
        Case(path: "/dir.gpx/x", head: "$", format: .nmea, claimed: true),
        Case(path: "gnss_log_2023_11_07.txt", head: "# \n# Header Description:\n#\n# Version: 1.4", format: .gnsslogger, claimed: true),
        Case(path: "x", head: "#\n# Fix,Provider,LatitudeDegrees", format: .gnsslogger, claimed: true),
        Case(path: "x.txt", head: "# Raw,utcTimeMillis,TimeNanos", format: .gnsslogger, claimed: true),
        Case(path: "x.txt", head: "# a note\n", format: .sextant, claimed: false),
        Case(path: "x", head: "", format: .sextant, claimed: false),
        Case(path: "x", head: "  \n ", format: .sextant, claimed: false),
        Case(path: "x", head: "#$GPRMC", format: .sextant, claimed: false),
        Case(path: "x", head: "\u{A0}<gpx", format: .sextant, claimed: false),
        Case(path: "x", head: String(repeating: " ", count: 64) + "<gpx", format: .sextant, claimed: false),
        Case(path: "x", head: String(repeating: " ", count: 63) + "<gpx", format: .gpx, claimed: true),
    ]

    @Test("The extension decides, whatever the file holds", arguments: byExtension)
    func extensionDecides(_ c: Case) {
        check(c)
    }

    @Test("Without a known extension, the first byte that is not white space decides; JSONL is the fallback", arguments: byFirstBytes)
    func firstByteDecides(_ c: Case) {
        check(c)
    }

    func check(_ c: Case) {
        let detected = TraceFormats.detect(path: c.path, head: Array(c.head.utf8))
        #expect(detected.format == c.format && detected.claimed == c.claimed, "\(c)")
        #expect(TraceFormat.detect(path: c.path, contents: c.head) == c.format, "\(c)")
    }

    @Test("The table holds the six formats in detection order (issue 23.2: every format Sextant writes, it reads)")
    func table() {
        #expect(TraceFormats.all.map(\.name) == ["sextant", "nmea", "gpx", "gnsslogger", "geojson", "kml"])
        #expect(
            TraceFormats.readable
                == "sextant (.jsonl, .json, .trace), nmea (.nmea, .log), gpx (.gpx), gnsslogger (by its first lines), geojson (.geojson), kml (.kml)")
        for written in TraceExportFormat.allCases { #expect(TraceFormats.all.contains { $0.name == written.rawValue || (written.rawValue == "sextant" && $0 == .sextant) }, "\(written)") }
    }

    @Test("A format is named in any case; an unknown name lists the formats that can be read")
    func named() throws {
        #expect(try TraceFormats.named("GPX") == .gpx)
        #expect(throws: UnknownTraceFormat(description: "unknown trace format \"shp\": the formats that can be read are " + TraceFormats.readable)) {
            try TraceFormats.named("shp")
        }
    }

    @Test("A file no format claims and that JSONL cannot read: the error lists the formats that can be read")
    func unclaimedFileListsFormats() throws {
        let scratch = try TemporaryDirectory("trace-formats")
        let path = try scratch.write("notes.txt", "hello\n")
        var messages: [String] = []
        do { _ = try TraceLoader.load(path: path) } catch { messages.append(error.description) }
        do { _ = try TraceLoader.summarize(path: path) } catch { messages.append(error.description) }
        do { _ = try TraceLoader.openForReplay(path: path) } catch { messages.append(error.description) }
        #expect(messages.count == 3)
        for message in messages {
            #expect(message.hasPrefix(path + ":1: ") && message.hasSuffix("the formats that can be read are \(TraceFormats.readable))"), "\(message)")
        }
    }

    @Test("A claimed file's error is the reader's alone")
    func claimedFileErrorIsTheReaders() throws {
        let scratch = try TemporaryDirectory("trace-formats")
        let path = try scratch.write("notes.jsonl", "hello\n")
        do {
            _ = try TraceLoader.load(path: path)
            Issue.record("a bad line was read")
        } catch {
            #expect(!error.description.contains("formats that can be read"), "\(error)")
        }
    }
}
