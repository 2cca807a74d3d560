import Foundation
import SextantCore
import SextantProtocol
import SextantTraces
import Testing

@Suite("GPX files as traces")
struct GPXReaderTests {
    func fixes(_ trace: Trace) -> [LocationFix] {
        trace.samples.compactMap { if case .location(let f) = $0.value { return f } else { return nil } }
    }

    /// One thousandth of a degree along the equator or a meridian on the 6,371,008.8 m
    /// sphere: 6,371,008.8 × 0.001 × π / 180 m.
    let milliDegree = 6_371_008.8 * 0.001 * Double.pi / 180

    @Test("A track: times, elevations and hdop kept; speed = leg length / leg time, course = the leg's bearing")
    func track() throws {
        // East along the equator for 10 s, then north for 20 s; a second segment stands still.
        let gpx = """
            <?xml version="1.0" encoding="UTF-8"?>
            <gpx version="1.1" creator="hand" xmlns="http://www.topografix.com/GPX/1/1">
              <metadata><time>2020-01-01T00:00:00Z</time></metadata>
              <wpt lat="10" lon="10"><name>ignored: a track is there</name></wpt>
              <trk><name>walk</name>
                <trkseg>
                  <trkpt lat="0" lon="0"><ele>10.5</ele><time>2026-03-01T08:00:00Z</time><hdop>2</hdop></trkpt>
                  <trkpt lat="0" lon="0.001"><ele>11</ele><time>2026-03-01T08:00:10Z</time></trkpt>
                  <trkpt lat="0.001" lon="0.001"><time>2026-03-01T08:00:30.500Z</time></trkpt>
                </trkseg>
                <trkseg>
                  <trkpt lat="0.001" lon="0.001"><time>2026-03-01T08:01:00+01:00</time></trkpt>
                </trkseg>
              </trk>
            </gpx>
            """
        // 08:01:00+01:00 is before the rest: a time that goes back is an error…
        #expect(throws: TraceError.self) { try GPXReader.read(gpx, path: "t.gpx") }
        // …08:01:00Z is not.
        let trace = try GPXReader.read(gpx.replacingOccurrences(of: "08:01:00+01:00", with: "08:01:00Z"), path: "t.gpx")
        let f = fixes(trace)
        #expect(f.count == 4)
        #expect(trace.start == Timestamp(rfc3339: "2026-03-01T08:00:00Z"))
        #expect(trace.samples.map(\.offset) == [0, 10_000_000_000, 30_500_000_000, 60_000_000_000])
        #expect(f[0].altitude == 10.5 && f[0].horizontalAccuracy == 10 && f[2].altitude == nil && f[2].horizontalAccuracy == 5)
        // The first point takes the first leg.
        #expect(abs(f[0].speed! - milliDegree / 10) < 1e-9 && abs(f[0].course! - 90) < 1e-9)
        #expect(abs(f[1].speed! - milliDegree / 10) < 1e-9 && abs(f[1].course! - 90) < 1e-9)
        #expect(abs(f[2].speed! - milliDegree / 20.5) < 1e-9 && abs(f[2].course! - 0) < 1e-6)
        // A segment of one point has no leg.
        #expect(f[3].speed == nil && f[3].course == nil)
    }

    @Test("A route without times is walked at the speed: each point a leg length / speed after the previous one")
    func routeWithoutTimes() throws {
        let gpx = """
            <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1">
              <metadata><time>2026-03-01T08:00:00Z</time></metadata>
              <rte>
                <rtept lat="0" lon="0"/>
                <rtept lat="0" lon="0.001"/>
                <rtept lat="0" lon="0.003"/>
              </rte>
            </gpx>
            """
        let walked = try GPXReader.read(gpx, path: "r.gpx")
        let leg = milliDegree / 1.4
        #expect(walked.start == Timestamp(rfc3339: "2026-03-01T08:00:00Z"))
        #expect(walked.samples.map(\.offset) == [0, Int64((leg * 1e9).rounded()), Int64((3 * leg * 1e9).rounded())])
        #expect(fixes(walked).allSatisfy { abs($0.speed! - 1.4) < 1e-9 && abs($0.course! - 90) < 1e-9 })

        let cycled = try GPXReader.read(gpx, path: "r.gpx", speed: 5)
        #expect(cycled.samples.last?.offset == Int64((3 * milliDegree / 5 * 1e9).rounded()))
    }

    @Test("Waypoints without times, in a file with neither track nor route nor a time, start at 2000-01-01")
    func waypoints() throws {
        let gpx = #"<gpx version="1.1"><wpt lat="48.85837" lon="2.29448"><ele>35</ele></wpt><wpt lat="48.8606" lon="2.3376"/></gpx>"#
        let trace = try GPXReader.read(gpx, path: "w.gpx")
        #expect(trace.start == Timestamp(rfc3339: "2000-01-01T00:00:00Z"))
        #expect(fixes(trace).map(\.latitude) == [48.85837, 48.8606])
        #expect(fixes(trace).first?.altitude == 35)
    }

    @Test("Speed and course of the point itself (GPX 1.0, or a Garmin extension) win over derived ones")
    func ownSpeedAndCourse() throws {
        let gpx = """
            <gpx version="1.1" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2">
            <trk><trkseg>
            <trkpt lat="0" lon="0"><time>2026-03-01T08:00:00Z</time><extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>3.5</gpxtpx:speed><gpxtpx:course>45</gpxtpx:course></gpxtpx:TrackPointExtension></extensions></trkpt>
            <trkpt lat="0" lon="0.001"><time>2026-03-01T08:00:10Z</time></trkpt>
            </trkseg></trk></gpx>
            """
        let f = fixes(try GPXReader.read(gpx, path: "e.gpx"))
        #expect(f[0].speed == 3.5 && f[0].course == 45)
        #expect(abs(f[1].speed! - milliDegree / 10) < 1e-9)
    }

    @Test("Malformed GPX is an error at the offending line", arguments: [
        ("<gpx version=\"1.1\">\n<trk><trkseg>\n<trkpt lat=\"1\" lon=\"2\"></trkseg>\n</trk></gpx>", 3, "XML"),
        ("<gpx version=\"1.1\">\n<trk><trkseg>\n\n<trkpt lon=\"2\"/>\n</trkseg></trk></gpx>", 4, "lat and lon"),
        ("<gpx version=\"1.1\">\n<trk><trkseg>\n<trkpt lat=\"91\" lon=\"2\"/>\n</trkseg></trk></gpx>", 3, "lat"),
        ("<gpx version=\"1.1\">\n<trk><trkseg>\n<trkpt lat=\"north\" lon=\"2\"/>\n</trkseg></trk></gpx>", 3, "numbers"),
        ("<gpx version=\"1.1\">\n<trk><trkseg>\n<trkpt lat=\"1\" lon=\"2\">\n<time>yesterday</time></trkpt>\n</trkseg></trk></gpx>", 4, "<time>"),
        ("<gpx version=\"1.1\">\n<trk><trkseg>\n<trkpt lat=\"1\" lon=\"2\"><ele>high</ele></trkpt>\n</trkseg></trk></gpx>", 3, "<ele>"),
        ("<gpx version=\"1.1\"><trk><trkseg>\n<trkpt lat=\"1\" lon=\"2\"><time>2026-03-01T08:00:00Z</time></trkpt>\n<trkpt lat=\"1\" lon=\"2\"/>\n</trkseg></trk></gpx>", 3, "without <time>"),
        ("<?xml version=\"1.0\"?>\n<kml><Placemark/></kml>", 2, "not a GPX file"),
        ("<gpx version=\"1.1\">\n<metadata/>\n</gpx>", 1, "no points"),
        ("", 1, "empty"),
    ])
    func malformed(text: String, line: Int, reason: String) {
        do {
            _ = try GPXReader.read(text, path: "bad.gpx")
            Issue.record("accepted: \(text)")
        } catch {
            #expect(error.path == "bad.gpx")
            #expect(error.line == line, "\(error)")
            #expect(error.reason.contains(reason), "\(error)")
        }
    }

    @Test("TraceLoader reads .gpx files, and files that start with <, as GPX with the loader's speed")
    func loaderDispatch() throws {
        #expect(TraceFormat.detect(path: "x.gpx", contents: "") == .gpx)
        #expect(TraceFormat.detect(path: "x", contents: "  <?xml") == .gpx)
        let gpx = #"<gpx><rte><rtept lat="0" lon="0"/><rtept lat="0" lon="0.001"/></rte></gpx>"#
        let trace = try TraceLoader.parse(gpx, path: "x.gpx", format: .gpx, options: TraceLoadOptions(gpxSpeed: 2))
        #expect(trace.samples.last?.offset == Int64((milliDegree / 2 * 1e9).rounded()))
    }
}

@Suite("GPX found by fuzzing")
struct GPXFuzzRegressionTests {
    @Test("A tag name with a byte that is not UTF-8 is an error at its line (Foundation's XMLParser trapped on it)")
    func tagNameNotUTF8() {
        let bytes = Array(#"<gpx version="1.1"><rte><rtept lat="48.1" lon="2.3"/></rte>"#.utf8) + [0x0A]
            + Array("<wpt".utf8) + [0xE9] + Array(#"lat="1" lon="1"/></gpx>"#.utf8)
        #expect(throws: TraceError(path: "f.gpx", line: 2, reason: "not UTF-8 text (GPX is read as UTF-8)")) {
            try GPXReader.read(Data(bytes), path: "f.gpx")
        }
    }
}

extension GPXFuzzRegressionTests {
    func error(_ text: String) -> TraceError? {
        do {
            _ = try GPXReader.read(Data(text.utf8), path: "f.gpx")
            return nil
        } catch {
            return error
        }
    }

    @Test("A processing instruction without data is an error (Foundation's XMLParser passed NULL to strlen)")
    func processingInstructionWithoutData() {
        #expect(error("<?xml version=\"1.0\"?>\n<?lmbcver?>\n<gpx version=\"1.1\"><wpt lat=\"1\" lon=\"1\"/></gpx>")
            == TraceError(path: "f.gpx", line: 2, reason: "a processing instruction <?lmbcver?> without data"))
        #expect(error("<gpx version=\"1.1\"><wpt lat=\"1\" lon=\"1\"><?x ?></wpt></gpx>")?.reason.contains("without data") == true)
        #expect(error("<?xml-stylesheet href=\"a.css\"?><gpx version=\"1.1\"><wpt lat=\"1\" lon=\"1\"/></gpx>") == nil)
    }

    @Test("A DOCTYPE, a NUL byte or another encoding than UTF-8 is refused before libxml2 reads the file")
    func markupLibxml2MustNotSee() {
        #expect(error("<!DOCTYPE gpx [<!ENTITY e \"<?x?>\">]>\n<gpx>&e;</gpx>")?.reason.contains("DOCTYPE") == true)
        #expect(error("<gpx version=\"1.1\">\u{0}</gpx>")?.reason.contains("NUL") == true)
        #expect(error("<?xml version=\"1.0\" encoding=\"IBM037\"?><gpx/>")?.reason == "encoding IBM037: GPX is read as UTF-8")
        #expect(error("<?xml version=\"1.0\" encoding='UTF-8'?><gpx version=\"1.1\"><wpt lat=\"1\" lon=\"1\"/></gpx>") == nil)
    }
}
