import Foundation
import SextantCore
import SextantProtocol
import SextantTestSupport
import SextantTraces
import Testing

/// Issue 41.4: `trace plot` marks the time zone changes along a trace, on the track and on a
/// lane of their own, where the daemon's engine decides them (Z1–Z3) by the tests' table
/// (Traces/tz/test-regions.sxtz, the generator's output from tzfpy's answers).
@Suite("Trace plot: the time zone changes along a trace (issue 41.4)")
struct PlotTimeZoneTests {
    static let table: ZoneTable = {
        let path = #filePath.components(separatedBy: "/Tests/")[0] + "/Traces/tz/test-regions.sxtz"
        guard let data = FileManager.default.contents(atPath: path) else { fatalError("no \(path)") }
        do { return try ZoneTable(bytes: [UInt8](data)) } catch { fatalError("\(path) refused: \(error)") }
    }()

    /// The system's tzdata, as `sextantctl` asks it.
    struct SystemRules: ZoneRules {
        func offset(zone: String, at instant: Timestamp) -> ZoneOffset? {
            guard let timeZone = TimeZone(identifier: zone) else { return nil }
            let date = Date(timeIntervalSince1970: instant.seconds)
            return ZoneOffset(seconds: timeZone.secondsFromGMT(for: date), isDaylightSaving: timeZone.isDaylightSavingTime(for: date))
        }
    }

    /// A drive from Elvas (Portugal) to Badajoz (Spain) in July, one fix a second for 1000 s,
    /// along a straight line whose longitude grows evenly with time.
    static func drivePoint(_ t: Int) -> (lat: Double, lon: Double) {
        let f = Double(t) / 1000
        return (38.8810 + (38.8786 - 38.8810) * f, -7.1631 + (-6.9707 + 7.1631) * f)
    }

    static func drive() throws -> Trace {
        let scratch = try TemporaryDirectory("plot-tz")
        var lines = [#"{"sextant":"trace","version":1,"start":"2026-07-01T10:00:00.000Z"}"#]
        for t in 0...1000 {
            let p = drivePoint(t)
            lines.append(#"{"t":\#(t),"location":{"lat":\#(p.lat),"lon":\#(p.lon),"hAcc":5}}"#)
        }
        let path = scratch.path + "/drive.jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return try TraceLoader.load(path: path)
    }

    @Test("issue 41.4, Z1–Z3: the Elvas–Badajoz drive's plot marks Lisbon at the first fix and Madrid (UTC+02:00 DST) 30 s after the first fix the table puts in Spain, on the track and on the time zone lane")
    func marksTheCrossing() throws {
        let plot = try TracePlot(trace: try Self.drive(), title: "drive.jsonl", timeZones: PlotTimeZones(table: Self.table, rules: SystemRules()))
        let svg = PlotSVGReader(plot.svg())
        // Where the table itself first answers Spain, and so where Z3 takes Madrid: 3 fixes and 30 s on.
        let firstInSpain = try #require((0...1000).first { Self.table.zone(latitude: Self.drivePoint($0).lat, longitude: Self.drivePoint($0).lon) == "Europe/Madrid" })
        let marks = svg.elements.filter { $0.attributes["class"] == "time-zone-mark" }
        #expect(marks.map { $0.attributes["data-zone"] } == ["Europe/Lisbon", "Europe/Madrid"])
        let spans = svg.elements.filter { $0.attributes["class"] == "time-zone" }
        #expect(spans.map { $0.attributes["data-zone"] } == ["Europe/Lisbon", "Europe/Madrid"])
        #expect(spans.map { Double($0.attributes["data-t"] ?? "") } == [0, Double(firstInSpain + 30)])
        #expect(svg.texts.contains { $0.text == "Europe/Madrid UTC+02:00 DST" }, "the new zone and its offset written by the mark or on the lane")
        #expect(svg.texts.contains { $0.text == "Europe/Lisbon UTC+01:00 DST" })
        #expect(svg.texts.contains { $0.text == "time zone" && $0.attributes["font-weight"] == "bold" }, "a lane named time zone")
        // The mark stands on the track at the deciding fix: the longitude, and so x, goes evenly from start to end.
        let start = try #require(svg.elements.first { $0.attributes["class"] == "start" }).offset.x
        let end = try #require(svg.elements.first { $0.attributes["class"] == "end" }).offset.x
        let madrid = try #require(marks.last).offset.x
        #expect(abs(madrid - (start + (end - start) * Double(firstInSpain + 30) / 1000)) < 1)
        // The new texts keep the plot's rule: none overlaps another, all inside the picture.
        let boxes = svg.texts.map(PlotSVGReader.box)
        for i in boxes.indices {
            #expect(boxes[i].x0 >= 0 && boxes[i].x1 <= Double(TracePlot.width), "\(svg.texts[i].text) inside the picture")
            for j in boxes.indices where j > i && PlotSVGReader.overlap(boxes[i], boxes[j]) {
                Issue.record("\"\(svg.texts[i].text)\" overlaps \"\(svg.texts[j].text)\"")
            }
        }
        let page = plot.html()
        #expect(page.contains("time zone Europe/Madrid UTC+02:00 DST (zoneChanged)"), "the page's event list names the change")
    }

    @Test("issue 41.4: without a table there is no time zone lane; a trace outside the table's regions gets a lane that says so")
    func laneOnlyWithATable() throws {
        let plain = PlotSVGReader(try TracePlot(trace: try Self.drive(), title: "drive.jsonl").svg())
        #expect(!plain.texts.contains { $0.text == "time zone" })
        let scratch = try TemporaryDirectory("plot-tz-away")
        let path = scratch.path + "/away.jsonl"
        try """
            {"sextant":"trace","version":1,"start":"2026-07-01T10:00:00.000Z"}
            {"t":0,"location":{"lat":48.85,"lon":2.35,"hAcc":5}}
            {"t":1,"location":{"lat":48.86,"lon":2.35,"hAcc":5}}
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let away = PlotSVGReader(try TracePlot(trace: try TraceLoader.load(path: path), title: "away.jsonl", timeZones: PlotTimeZones(table: Self.table, rules: SystemRules())).svg())
        #expect(away.texts.contains { $0.text == "no zone (no fix in the table's regions)" })
        #expect(!away.elements.contains { $0.attributes["class"] == "time-zone-mark" })
    }
}
