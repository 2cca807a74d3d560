import Foundation
import SextantCore
import SextantProtocol
import SextantTestSupport
import Testing

@testable import SextantTraces

/// A GPX file read as it plays (issue 12 point 1): parsed as a stream into spool files,
/// with exactly the samples, or exactly the error, that the file read whole gives.
@Suite("Streamed GPX replays")
struct StreamedGPXTraceTests {
    static let repository = #filePath.components(separatedBy: "/Tests/")[0]

    /// The files the test writes, removed with the suite's instance at the end of the test.
    let scratch: TemporaryDirectory

    init() throws { scratch = try TemporaryDirectory("streamed") }

    func write(_ text: String) throws -> String { try scratch.write(UUID().uuidString + ".gpx", text) }

    /// The files the tests compare: the fuzz corpus, and each rule of GPXReader.
    static let documents: [String] = [
        // Two segments (one of a single point), times, hdop, an extension's speed.
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <gpx version="1.1"><metadata><time>2026-01-01T00:00:00Z</time></metadata><trk><trkseg>
        <trkpt lat="48.85" lon="2.29"><ele>35</ele><time>2026-03-01T08:00:00Z</time><hdop>1.2</hdop></trkpt>
        <trkpt lat="48.851" lon="2.291"><time>2026-03-01T08:00:05Z</time><speed>1.5</speed></trkpt>
        </trkseg><trkseg><trkpt lat="48.86" lon="2.3"><time>2026-03-01T08:01:00Z</time><vdop>2</vdop></trkpt></trkseg>
        <trkseg><trkpt lat="48.87" lon="2.3"><time>2026-03-01T08:02:00Z</time></trkpt><trkpt lat="48.87" lon="2.3"><time>2026-03-01T08:02:00Z</time></trkpt></trkseg></trk>
        <wpt lat="1" lon="1"/></gpx>
        """,
        // Routes without times, walked from the file's time; a route opened inside another drops its points.
        "<gpx><metadata><time>2026-01-01T00:00:00Z</time></metadata><rte><rtept lat=\"0\" lon=\"0\"/><rte><rtept lat=\"0\" lon=\"0.001\"/></rte></rte><rte><rtept lat=\"0.001\" lon=\"0.001\"/><rtept lat=\"0.002\" lon=\"0.001\"><ele>5</ele></rtept></rte></gpx>",
        "<gpx><wpt lat=\"48.85837\" lon=\"2.29448\"><ele>35</ele></wpt><wpt lat=\"48.8606\" lon=\"2.3376\"/></gpx>",
        "<gpx><trk><trkseg></trkseg></trk><rte><rtept lat=\"1\" lon=\"1\"/></rte><wpt lat=\"2\" lon=\"2\"/></gpx>",
        // Errors: times that go back after a time too late, a point without a time, none at all, bad XML, a NUL.
        "<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"1\"><time>2000-01-01T00:00:00Z</time></trkpt>\n<trkpt lat=\"1\" lon=\"1\"><time>2040-01-01T00:00:00Z</time></trkpt>\n<trkpt lat=\"1\" lon=\"1\"><time>2039-01-01T00:00:00Z</time></trkpt></trkseg></trk></gpx>",
        "<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\"><time>2026-03-01T08:00:00Z</time></trkpt>\n<trkpt lat=\"1\" lon=\"2\"/>\n</trkseg></trk></gpx>",
        "<gpx version=\"1.1\">\n<metadata/>\n</gpx>",
        "<gpx version=\"1.1\">\n<trk><trkseg>\n<trkpt lat=\"1\" lon=\"2\"></trkseg>\n</trk></gpx>",
        "<gpx version=\"1.1\">\n<trk><trkseg>\n<trkpt lat=\"1\" lon=\"2\"><ele>high</ele></trkpt>\n</trkseg></trk></gpx>\n\u{0}",
        "<gpx><trk><trkseg><trkpt lat=\"1\" lon=\"2\"><ele>1e7</ele><time>2026-03-01T08:00:00Z</time></trkpt></trkseg></trk></gpx>",
        "",
        "<notgpx/>",
    ]

    /// Streamed and whole: the same samples (in order, backwards, by seeking) and summary,
    /// or the same error.
    func expectSame(_ path: String, options: TraceLoadOptions = TraceLoadOptions()) throws {
        let whole = Result { () throws(TraceLoadError) in try TraceLoader.load(path: path, options: options) }
        let streamed = Result { () throws(TraceLoadError) in try TraceLoader.openForReplay(path: path, options: options) }
        switch (whole, streamed) {
        case (.failure(let expected), .failure(let got)):
            #expect(got == expected, "\(path)")
            #expect(throws: expected) { try TraceLoader.summarize(path: path, options: options) }
        case (.success(let trace), .success(let replay)):
            #expect(replay is StreamedGPXTrace)
            #expect(replay.sampleCount == trace.samples.count && replay.start == trace.start && replay.durationNanoseconds == trace.durationNanoseconds)
            let forwards = try (0..<replay.sampleCount).map { i throws(TraceError) in try replay.traceSample(at: i) }
            #expect(forwards == trace.samples, "\(path)")
            for i in trace.samples.indices.reversed() where i % 3 == 0 { #expect(try replay.traceSample(at: i) == trace.samples[i]) }
            for offset in [Int64(-1), 0, 1, trace.durationNanoseconds / 2, trace.durationNanoseconds, trace.durationNanoseconds + 1] {
                #expect(try replay.firstIndex(atOrAfter: offset) == trace.firstIndex(atOrAfter: offset), "\(path) offset \(offset)")
            }
            let (summary, format) = try TraceLoader.summarize(path: path, options: options)
            #expect(format == .gpx && summary == TraceSummary(trace), "\(path)")
        default:
            Issue.record("\(path): whole \(whole), streamed \(streamed)")
        }
    }

    @Test("The fuzz corpus and every rule of the GPX reader: streamed, the same samples or the same error with its line")
    func sameAsWhole() throws {
        let corpus = Self.repository + "/Fuzz/Corpus/fuzz-gpx"
        let files = try FileManager.default.contentsOfDirectory(atPath: corpus).sorted().map { corpus + "/" + $0 }
        #expect(files.count >= 3)
        for path in files {
            try expectSame(path)
            try expectSame(path, options: TraceLoadOptions(gpxSpeed: 3, gpxInterval: 2))
        }
        for text in Self.documents {
            let path = try write(text)
            try expectSame(path)
            try expectSame(path, options: TraceLoadOptions(gpxSpeed: 1e-300))
            try expectSame(path, options: TraceLoadOptions(gpxSpeed: 2, gpxInterval: 0.5))
        }
    }

    @Test("A long track, several blocks of samples, plays streamed as read whole")
    func longTrack() throws {
        let path = try write(Self.track(points: 5_000))
        try expectSame(path)
    }

    /// `points` track points one second apart in segments of 700, walking north.
    static func track(points: Int) -> String {
        var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"test\"><trk><trkseg>\n"
        let start = Timestamp(nanoseconds: 1_772_352_000_000_000_000)
        for i in 0..<points {
            if i > 0, i % 700 == 0 { text += "</trkseg><trkseg>\n" }
            text += "<trkpt lat=\"\(48 + Double(i) * 1e-5)\" lon=\"2.35\"><ele>\(i % 50)</ele><time>\(start.adding(nanoseconds: Int64(i) * 1_000_000_000).rfc3339)</time></trkpt>\n"
        }
        return text + "</trkseg></trk></gpx>\n"
    }
}
