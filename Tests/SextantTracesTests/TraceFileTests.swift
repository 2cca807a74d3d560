import Foundation
import SextantCore
import SextantProtocol
import SextantTestSupport
import SextantTraces
import Testing

/// Loading trace files: what is not a regular file, or is too big, is refused by name
/// before it is read; a large GPX file is read whole.
@Suite("Trace files")
struct TraceFileTests {
    func loadError(_ path: String) -> TraceLoadError? {
        do {
            _ = try TraceLoader.load(path: path)
            return nil
        } catch {
            return error
        }
    }

    @Test("A directory is refused as one")
    func directory() throws {
        let scratch = try TemporaryDirectory("trace-files")
        #expect(loadError(scratch.path) == .unreadable(path: scratch.path, reason: "is a directory, not a trace file"))
    }

    @Test("A FIFO without a writer is refused at once as one, without waiting for a writer")
    func fifo() throws {
        let scratch = try TemporaryDirectory("trace-files")
        let path = scratch.path + "/trace.jsonl"
        #expect(mkfifo(path, 0o600) == 0)
        #expect(loadError(path) == .unreadable(path: path, reason: "is not a regular file (a FIFO)"))
    }

    @Test("/dev/zero is refused as a character device, not read forever")
    func characterDevice() {
        #expect(loadError("/dev/zero") == .unreadable(path: "/dev/zero", reason: "is not a regular file (a character device)"))
    }

    @Test("A missing file says so")
    func missing() throws {
        let scratch = try TemporaryDirectory("trace-files")
        #expect(loadError(scratch.path + "/none.gpx") == .unreadable(path: scratch.path + "/none.gpx", reason: "no such file"))
    }

    @Test("A file over 512 MiB is refused before it is read (a sparse file: nothing is written)")
    func tooBig() throws {
        let scratch = try TemporaryDirectory("trace-files")
        let path = scratch.path + "/big.jsonl"
        #expect(FileManager.default.createFile(atPath: path, contents: Data()))
        #expect(truncate(path, off_t(TraceLoader.maximumFileSize + 1)) == 0)
        let error = loadError(path)
        #expect(error == .unreadable(path: path, reason: "the file is 536870913 bytes, over the 512 MiB a trace may be"))
    }

    @Test("A GeoJSON or KML file over 8 MiB is refused for a replay, trace info and load alike, naming the file and the limit; a JSONL one as big is not (issue 36.12)", arguments: ["geojson", "kml"])
    func wholeDocumentTooBig(ext: String) throws {
        let scratch = try TemporaryDirectory("trace-files")
        let path = scratch.path + "/big." + ext
        // A small valid document, then blanks up to just over the limit: the old reader parsed it.
        let document = ext == "geojson"
            ? #"{"type":"LineString","coordinates":[[2.3,48.8],[2.3001,48.8001]]}"#
            : #"<?xml version="1.0"?><kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><LineString><coordinates>2.3,48.8 2.3001,48.8001</coordinates></LineString></Placemark></kml>"#
        let size = TraceLoader.maximumDocumentSize + 1
        let text = document + String(repeating: " ", count: size - document.utf8.count - 1) + "\n"
        #expect(FileManager.default.createFile(atPath: path, contents: Data(text.utf8)))
        let reason = "the file is \(size) bytes, over the 8 MiB a GeoJSON or KML trace (parsed whole in memory; a longer route goes in JSONL or GPX, which are streamed) may be"
        #expect(throws: TraceLoadError.unreadable(path: path, reason: reason)) { _ = try TraceLoader.openForReplay(path: path) }
        do {
            _ = try TraceLoader.summarize(path: path)
            Issue.record("trace info read \(path)")
        } catch {
            #expect("\(error)".contains(path) && "\(error)".contains(reason), "\(error)")
        }
        #expect(loadError(path) == .unreadable(path: path, reason: reason))
        let small = scratch.path + "/small." + ext
        #expect(FileManager.default.createFile(atPath: small, contents: Data(document.utf8)))
        #expect(try TraceLoader.openForReplay(path: small).sampleCount == 2)
    }

    @Test("A 15 MB GPX track is read whole (libxml2 refused over 10 MB when handed it at once)")
    func largeGPX() throws {
        let scratch = try TemporaryDirectory("trace-files")
        let path = scratch.path + "/large.gpx"
        var text = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\" xmlns=\"http://www.topografix.com/GPX/1/1\"><trk><trkseg>\n"
        var points = 0
        let start = Timestamp(rfc3339: "2026-03-01T08:00:00Z")!
        while text.utf8.count < 15_000_000 {
            let time = start.adding(nanoseconds: Int64(points) * 1_000_000_000)
            text += "<trkpt lat=\"48.\(10000 + points % 1000)\" lon=\"2.\(10000 + points % 1000)\"><ele>35</ele><time>\(time)</time></trkpt>\n"
            points += 1
        }
        text += "</trkseg></trk></gpx>\n"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        let (trace, format) = try TraceLoader.loadDetectingFormat(path: path)
        #expect(format == .gpx)
        #expect(trace.samples.count == points)
        #expect(trace.durationNanoseconds == Int64(points - 1) * 1_000_000_000)
    }

    @Test("A JSONL file is read from its bytes, line by line, as from its text")
    func jsonlFromFile() throws {
        let scratch = try TemporaryDirectory("trace-files")
        let path = scratch.path + "/t.trace"
        let text = "{\"sextant\":\"trace\",\"version\":1,\"start\":\"2026-03-01T08:00:00Z\"}\r\n\n{\"t\":1,\"hinge\":{\"angle\":3}}"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        #expect(try TraceLoader.load(path: path) == SextantTraceFormat.read(text, path: path))
        try Data(text.utf8 + [0xFF, 0x0A]).write(to: URL(fileURLWithPath: path))
        #expect(loadError(path) == .invalid(TraceError(path: path, line: 3, reason: "not UTF-8 text")))
    }
}
