import Foundation
import SextantCore
import SextantProtocol
import SextantTraces
import Testing

/// Issue 24.4: plots of real logs read right. Each check reads the SVG back
/// (`PlotSVGReader`) and looks at what is drawn where, on every gpsd log and GnssLogger
/// recording of Traces/ (the same files as the shared traces).
@Suite("Trace plot: pictures of real logs that read right (issue 24.4)")
struct PlotReadingTests {
    static let repository = #filePath.components(separatedBy: "/Tests/")[0]
    static let haicom = repository + "/Traces/gpsd/haicom-305N.log"

    /// Every gpsd log and GnssLogger recording with locations, by file name.
    static let realLogs: [String] = {
        let folders = ["/Traces/gpsd", "/Traces/gnsslogger"]
        return folders.flatMap { folder in
            ((try? FileManager.default.contentsOfDirectory(atPath: repository + folder)) ?? [])
                .filter { $0.hasSuffix(".log") || $0.hasSuffix(".txt") }.sorted().map { repository + folder + "/" + $0 }
        }
    }()

    static func plot(_ path: String, events: String = "") throws -> (trace: Trace, svg: PlotSVGReader) {
        let trace = try TraceLoader.load(path: path)
        let overlay = try PlotEvents.parse(events, path: "events.ndjson")
        let plot = try TracePlot(trace: trace, title: URL(fileURLWithPath: path).lastPathComponent, events: overlay)
        return (trace, PlotSVGReader(plot.svg()))
    }

    /// A `watch --json` line.
    static func line(_ method: String, _ params: String) -> String { #"{"jsonrpc":"2.0","method":"\#(method)","params":{\#(params)}}"# }

    static func location(_ app: String, _ fix: LocationFix, reduced: Bool = false) -> String {
        line("location", #""app":"\#(app)","lat":\#(fix.latitude),"lon":\#(fix.longitude),"hAcc":\#(fix.horizontalAccuracy),"time":"\#(fix.time.rfc3339)","accuracy":"\#(reduced ? "reduced" : "full")""#)
    }

    @Test("issue 24.4: accuracy circles (85–105 m on a 153 m track) are clipped to the map")
    func accuracyClipped() throws {
        let svg = try Self.plot(Self.haicom).svg
        let clip = try #require(svg.elements.firstIndex { $0.name == "clipPath" }, "a clip path")
        let frame = try #require(svg.elements[(clip + 1)...].first { $0.name == "rect" })
        // 420 less the steps lane (A7) every trace with fixes has.
        #expect([frame.x, frame.y, frame.number("width"), frame.number("height")] == [20, 40, 920, 388])
        let clipID = "url(#\(svg.elements[clip].attributes["id"] ?? ""))"
        let circles = svg.elements.filter { $0.name == "circle" && $0.attributes["fill-opacity"] != nil }
        #expect(circles.count > 20, "the accuracy circles are drawn")
        #expect(circles.allSatisfy { $0.clips.contains(clipID) }, "every accuracy circle inside the map's clip")
    }

    @Test("issue 24.4: no two texts overlap and every text is inside the picture, on every real log", arguments: realLogs)
    func labelsApart(path: String) throws {
        let trace = try TraceLoader.load(path: path)
        guard !trace.locations.isEmpty else { return }
        let texts = try Self.plot(path).svg.texts
        let boxes = texts.map(PlotSVGReader.box)
        for i in boxes.indices {
            #expect(boxes[i].x0 >= 0 && boxes[i].x1 <= Double(TracePlot.width), "\(texts[i].text) inside the picture")
            for j in boxes.indices where j > i && PlotSVGReader.overlap(boxes[i], boxes[j]) {
                Issue.record("\"\(texts[i].text)\" at \(texts[i].x),\(texts[i].y) overlaps \"\(texts[j].text)\" at \(texts[j].x),\(texts[j].y)")
            }
        }
    }

    @Test("issue 24.4: the GPS lane says ok wherever a fix is drawn, on every real log", arguments: realLogs)
    func gpsLaneFollowsFixes(path: String) throws {
        guard try !TraceLoader.load(path: path).locations.isEmpty else { return }
        let (trace, svg) = try Self.plot(path)
        guard trace.duration > 0 else { return }
        let name = try #require(svg.texts.first { $0.text == "GPS" && $0.attributes["font-weight"] == "bold" })
        let lane = svg.elements.filter { $0.name == "rect" && abs($0.y - (name.y - 24 * 0.68)) < 3 }
        let background = try #require(lane.first { $0.attributes["fill"] == "#f3f4f6" })
        let ok = "#4ade80"
        for (offset, _) in trace.locations {
            let x = background.x + background.number("width") * Double(offset) / 1e9 / trace.duration
            let covering = lane.dropFirst().filter { $0.x - 0.5 <= x && x <= $0.x + $0.number("width") + 0.5 }
            #expect(covering.contains { $0.attributes["fill"] == ok }, "the fix at \(Double(offset) / 1e9) s lies in an ok stretch: \(covering.map { $0.attributes["fill"] ?? "" })")
            if !covering.contains(where: { $0.attributes["fill"] == ok }) { break }
        }
    }

    @Test("issue 24.4: an app id is written whole (wrapped at its dots), left of its lane", arguments: ["com.acme.wayfinder", "org.example.navigation.enterprise.beta", "x" + String(repeating: "y", count: 60)])
    func appIDWhole(app: String) throws {
        let trace = try TraceLoader.load(path: Self.haicom)
        let events = trace.locations.prefix(5).map { Self.location(app, $0.fix) }.joined(separator: "\n")
        let svg = try Self.plot(Self.haicom, events: events).svg
        let lanes = svg.elements.filter { $0.name == "rect" && $0.attributes["fill"] == "#f3f4f6" }
        let laneX = try #require(lanes.first).x
        let appLaneY = try #require(lanes.last).y
        let names = svg.texts.filter { $0.x < laneX && $0.y > appLaneY && $0.y < appLaneY + 24 }
        #expect(names.map(\.text).joined() == app, "\(names.map(\.text))")
        #expect(names.allSatisfy { PlotSVGReader.box($0).x1 <= laneX - 2 && PlotSVGReader.box($0).x0 >= 0 })
    }

    @Test("issue 24.4: an app's reduced stretch says reduced, not authorized")
    func reducedStretch() throws {
        let trace = try TraceLoader.load(path: Self.haicom)
        let app = "com.acme.wayfinder", fixes = trace.locations.map(\.fix)
        var lines = [Self.location(app, fixes[0])]
        lines.append(Self.line("authorization", #""app":"\#(app)","status":"authorizedWhenInUse","accuracy":"full""#))
        lines += fixes[1..<30].map { Self.location(app, $0) }
        lines.append(Self.line("authorization", #""app":"\#(app)","status":"authorizedWhenInUse","accuracy":"reduced""#))
        lines += fixes[30..<50].map { Self.location(app, $0, reduced: true) }
        lines.append(Self.line("authorization", #""app":"\#(app)","status":"denied","accuracy":"full""#))
        let svg = try Self.plot(Self.haicom, events: lines.joined(separator: "\n")).svg
        let lanes = svg.elements.filter { $0.name == "rect" && $0.attributes["fill"] == "#f3f4f6" }
        let appLaneY = try #require(lanes.last).y
        let labels = svg.texts.filter { $0.x >= lanes[0].x && abs($0.y - (appLaneY + 24 * 0.68)) < 1 }.map(\.text)
        #expect(labels == ["authorized", "reduced", "denied"])
    }

    @Test("issue 24.4: a prompt, raised before the first fix and answered, is on the app's lane")
    func promptsDrawn() throws {
        let trace = try TraceLoader.load(path: Self.haicom)
        let app = "com.acme.wayfinder", fixes = trace.locations.map(\.fix)
        // As `watch --json` shows a session: the prompt comes before any fix.
        var lines = [Self.line("prompt", #""id":"p-7","app":"\#(app)","session":1,"kind":"authorization","level":"whenInUse","created":"2026-11-26T04:00:00Z""#)]
        lines.append(Self.line("promptClosed", #""id":"p-7","app":"\#(app)","session":1,"kind":"authorization","level":"whenInUse","created":"2026-11-26T04:00:00Z","choice":"allowOnce","precise":true"#))
        lines.append(Self.line("authorization", #""app":"\#(app)","status":"authorizedWhenInUse","accuracy":"full""#))
        lines += fixes[0..<40].map { Self.location(app, $0) }
        lines.append(Self.line("prompt", #""id":"p-8","app":"\#(app)","session":1,"kind":"servicesOff","level":null,"created":"2026-11-26T04:00:30Z""#))
        let svg = try Self.plot(Self.haicom, events: lines.joined(separator: "\n")).svg
        let titles = svg.elements.compactMap(\.title)
        #expect(titles.contains { $0.contains("prompt p-7") && $0.contains("allowOnce") }, "\(titles.filter { $0.contains("prompt") })")
        #expect(titles.contains { $0.contains("prompt p-8") && $0.contains("servicesOff") && $0.contains("open") })
        #expect(svg.texts.contains { $0.text == "prompt" }, "the legend names the mark")
    }
}
