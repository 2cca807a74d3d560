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
    ]

    static let byFirstBytes: [Case] = [
        Case(path: "x", head: "<?xml version=\"1.0\"?>", format: .gpx, claimed: true),
        Case(path: "x.txt", head: " \t\r\n\u{0B}\u{0C}<gpx", format: .gpx, claimed: true),
        Case(path: "x.gpx.bak", head: "$GPGGA,", format: .nmea, claimed: true),
        Case(path: "x", head: "\n\n!AIVDM,", format: .nmea, claimed: true),
        Case(path: "/dir.gpx/x", head: "$", format: .nmea, claimed: true),
        Case(path: "x.geojson", head: "{\"type\"", format: .sextant, claimed: true),
        Case(path: "x", head: "", format: .sextant, claimed: false),
        Case(path: "x", head: "  \n ", format: .sextant, claimed: false),
        Case(path: "x.kml", head: "hello", format: .sextant, claimed: false),
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

    @Test("The table holds the three formats in detection order")
    func table() {
        #expect(TraceFormats.all.map(\.name) == ["sextant", "nmea", "gpx"])
        #expect(TraceFormats.readable == "sextant (.jsonl, .json, .trace), nmea (.nmea, .log), gpx (.gpx)")
    }

    @Test("A format is named in any case; an unknown name lists the formats that can be read")
    func named() throws {
        #expect(try TraceFormats.named("GPX") == .gpx)
        #expect(throws: UnknownTraceFormat(description: "unknown trace format \"kml\": the formats that can be read are " + TraceFormats.readable)) {
            try TraceFormats.named("kml")
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
