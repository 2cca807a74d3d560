import Foundation
import SextantCore
import SextantProtocol
import SextantTestSupport
import SextantTraces
import Testing

/// Issues 21.5, 22.6 and 23.3: the plot's heading lane, regions, and truth beside the
/// reported fixes, read back from the SVG (`PlotSVGReader`) against numbers worked out by
/// hand, from NOAA's test values and from the rules' own numbers.
@Suite("Trace plot: the heading lane, regions, and truth beside reported (issues 21.5, 22.6, 23.3)")
struct PlotLanesTests {
    /// A device lying flat (gravity along +z) at NOAA's WMM2025 test point 80°S 240°E (−120°) on
    /// 2025-01-01, where the declination is 68.78° (NOAA's table; `WorldMagneticModelTests`).
    /// A flat device whose top points at azimuth a sees Earth's field (20 µT north, 40 µT
    /// down) as (−20 sin a, 20 cos a, −40): 90° is (−20, 0, −40), 180° is (0, −20, −40),
    /// 270° is (20, 0, −40). Then a compass that says 45° magnetic, and at 8 s a 112 µT
    /// field, out of Earth's 20–70 µT (H4), which asks for calibration (H5).
    static let compassWalk = """
        {"sextant":"trace","version":1,"start":"2025-01-01T00:00:00.000Z"}
        {"t":0,"location":{"lat":-80,"lon":-120,"alt":0,"hAcc":5}}
        {"t":0,"accel":{"x":0,"y":0,"z":9.81}}
        {"t":2,"magnet":{"x":-20,"y":0,"z":-40}}
        {"t":4,"magnet":{"x":0,"y":-20,"z":-40}}
        {"t":6,"magnet":{"x":20,"y":0,"z":-40}}
        {"t":7,"compass":{"magnetic":45}}
        {"t":8,"magnet":{"x":-50,"y":0,"z":-100}}
        {"t":10,"location":{"lat":-80,"lon":-120,"alt":0,"hAcc":5}}
        """
    static let declination = 68.78

    static func plot(_ text: String, regions: [PlotRegion] = [], gnss: PlotGNSSProfile? = nil) throws -> PlotSVGReader {
        let scratch = try TemporaryDirectory("plotlanes")
        let path = scratch.path + "/trace.jsonl"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let trace = try TraceLoader.load(path: path)
        return PlotSVGReader(try TracePlot(trace: trace, title: "trace.jsonl", regions: regions, gnss: gnss).svg())
    }

    /// The lane named `name`: its background's left, width and top.
    static func lane(_ svg: PlotSVGReader, _ name: String) throws -> (x: Double, width: Double, top: Double) {
        let label = try #require(svg.texts.first { $0.text == name && $0.attributes["font-weight"] == "bold" }, "a lane named \(name)")
        let background = try #require(svg.elements.first { $0.name == "rect" && $0.attributes["fill"] == "#f3f4f6" && abs($0.y - (label.y - 24 * 0.68)) < 3 })
        return (background.x, background.number("width"), background.y)
    }

    /// The (x, y) vertices of the lines and dots of one class.
    static func vertices(_ svg: PlotSVGReader, _ cls: String) -> [(x: Double, y: Double)] {
        svg.elements.filter { $0.attributes["class"] == cls }.flatMap { element -> [(x: Double, y: Double)] in
            if element.name == "circle" { return [(element.number("cx"), element.number("cy"))] }
            return (element.attributes["points"] ?? "").split(separator: " ").map { pair in
                let xy = pair.split(separator: ",").compactMap { Double($0) }
                return (xy[0], xy[1])
            }
        }
    }

    @Test("issue 21.5: the heading lane draws the engine's magnetic heading and true = magnetic + NOAA's declination, north at the lane's top")
    func headingLane() throws {
        let svg = try Self.plot(Self.compassWalk)
        let lane = try Self.lane(svg, "heading")
        func degrees(at t: Double, _ cls: String) -> Double? {
            let x = lane.x + lane.width * t / 10
            return Self.vertices(svg, cls).first { abs($0.x - x) < 0.3 }.map { ($0.y - lane.top) / 24 * 360 }
        }
        for (t, magnetic) in [(2.0, 90.0), (4, 180), (6, 270), (7, 45)] {
            let drawn = try #require(degrees(at: t, "heading-magnetic"), "a magnetic heading at \(t) s")
            #expect(abs(drawn - magnetic) < 2, "magnetic at \(t) s: \(drawn)")
            let truly = try #require(degrees(at: t, "heading-true"), "a true heading at \(t) s")
            #expect(abs(truly - (magnetic + Self.declination)) < 2, "true at \(t) s: \(truly)")
        }
        let calibration = try #require(svg.elements.first { $0.attributes["class"] == "heading-calibration" }, "a calibration stretch")
        #expect(abs(calibration.x - (lane.x + lane.width * 0.8)) < 0.3, "calibration asked from the 112 µT field at 8 s")
    }

    @Test("issue 21.5: a trace without magnetometer or compass has no heading lane, and its map keeps its size")
    func noHeadingLane() throws {
        let svg = try Self.plot(Self.compassWalk.split(separator: "\n").filter { !$0.contains("magnet") && !$0.contains("compass") }.joined(separator: "\n"))
        #expect(!svg.texts.contains { $0.text == "heading" })
        let clip = try #require(svg.elements.firstIndex { $0.name == "clipPath" })
        // 420 less the one lane every trace with fixes has, its steps (A7): none for a heading.
        #expect(svg.elements[(clip + 1)...].first { $0.name == "rect" }?.number("height") == 388)
    }

    /// A fix a second, each a metre north of the last (1° of latitude is 111,195 m on the daemon's sphere).
    static func northWalk(seconds: Int) -> String {
        let metre = 1 / 111_195.0
        let lines = (0...seconds).map { #"{"t":\#($0),"location":{"lat":\#(48.85 + Double($0) * metre),"lon":2.35,"hAcc":1.5}}"# }
        return #"{"sextant":"trace","version":1,"start":"2026-03-01T08:00:00.000Z"}"# + "\n" + lines.joined(separator: "\n")
    }

    @Test("issue 23.3: --gnss-profile draws the true track beside the reported one, and the tunnel as noFix on the GPS lane (N3, N4)")
    func truthBesideReported() throws {
        let spec = try GNSSProfileSpec.parse("open-sky,tunnel@30+20").get()
        let svg = try Self.plot(Self.northWalk(seconds: 120), gnss: PlotGNSSProfile(spec: spec, seed: 3))
        let truth = try #require(svg.elements.first { $0.attributes["class"] == "truth" }, "the true track")
        #expect(truth.attributes["points"] != svg.elements.first { $0.name == "polyline" && $0.attributes["stroke"] == "#1d4ed8" }?.attributes["points"])
        let lane = try Self.lane(svg, "GPS")
        func state(at t: Double) -> String? {
            let x = lane.x + lane.width * t / 120
            return svg.elements.last { $0.name == "rect" && abs($0.y - lane.top) < 0.5 && $0.x <= x && x <= $0.x + $0.number("width") && $0.attributes["fill"] != "#f3f4f6" }?
                .attributes["fill"]
        }
        let ok = "#4ade80", noFix = "#fbbf24"
        // open-sky: 1 s hot start after the first fix and after the tunnel (30 s to 50 s).
        #expect([0.5, 20, 35, 49, 60, 110].map(state) == [noFix, ok, noFix, noFix, ok, ok])
    }

    @Test("issue 23.3: a recording made with a profile (its true fixes and its gnss.profile line, N6) draws the truth beside the reported fixes")
    func recordingWithProfile() throws {
        let lines = Self.northWalk(seconds: 120).split(separator: "\n")
        let control = #"{"t":40,"control":{"method":"gnss.profile","params":{"profile":"open-sky","seed":3}}}"#
        let recording = (lines.prefix(41) + [Substring(control)] + lines.dropFirst(41)).joined(separator: "\n")
        let svg = try Self.plot(recording)
        #expect(svg.elements.contains { $0.attributes["class"] == "truth" }, "the true track")
        let lane = try Self.lane(svg, "GPS")
        let x = lane.x + lane.width * 40.5 / 120
        let fill = svg.elements.last { $0.name == "rect" && abs($0.y - lane.top) < 0.5 && $0.x <= x && x <= $0.x + $0.number("width") && $0.attributes["fill"] != "#f3f4f6" }?.attributes["fill"]
        #expect(fill == "#fbbf24", "the profile's 1 s hot start from the fix at 40 s is noFix")
        #expect(!(try Self.plot(Self.northWalk(seconds: 120))).elements.contains { $0.attributes["class"] == "truth" }, "no profile, no truth drawn")
    }

    @Test("issue 22.6: a region is drawn about its centre with its radius, a lane of its crossings below the map")
    func regionOnTheMap() throws {
        // A walk of 200 m north along 2.35°E from 48.85°N through a 50 m circle 100 m along.
        let metre = 1 / 111_195.0
        let text = Self.northWalk(seconds: 200)
        let region = PlotRegion(app: "com.example.shop", region: CircularRegion(identifier: "shop", latitude: 48.85 + 100 * metre, longitude: 2.35, radius: 50))
        let svg = try Self.plot(text, regions: [region])
        func centre(_ fill: String) throws -> (x: Double, y: Double) {
            let dot = try #require(svg.elements.first { $0.name == "circle" && $0.attributes["fill"] == fill })
            return (dot.number("cx") + dot.offset.x, dot.number("cy") + dot.offset.y)
        }
        let circle = try #require(svg.elements.first { $0.attributes["class"] == "region" })
        let start = try centre("#16a34a"), end = try centre("#dc2626")
        // The track is 200 m: the circle's centre halfway, its radius a quarter of the track.
        let track = start.y - end.y
        #expect(abs(circle.number("cy") - (start.y + end.y) / 2) < 1 && abs(circle.number("cx") - start.x) < 1)
        #expect(abs(circle.number("r") - track / 4) < 1, "radius \(circle.number("r")) of a track \(track) px long")
        // In at the first fix whose 1.5 m circle is within the 50 m (48 m from the centre, t = 52),
        // out at the first wholly beyond 50 + 20 m of hysteresis (72 m, t = 172; R1, R2).
        let ticks = svg.elements.filter { $0.attributes["class"] == "region-crossing" }
        #expect(ticks.map { $0.attributes["data-transition"] ?? "" } == ["enter", "exit"])
        #expect(ticks.map { Double($0.attributes["data-t"] ?? "") ?? -1 } == [52, 172])
        #expect(try Self.lane(svg, "regions").top > circle.number("cy"))
    }

    @Test("issue 22.6: a bad regions file is refused with its place in the list and the field", arguments: [
        ("[{\"identifier\":\"shop\",\"lat\":48.8,\"lon\":2.3,\"radius\":0.5}]", "regions.json: regions[0] (\"shop\"): \"radius\" must be within 1...100000 m"),
        ("[{\"identifier\":\"a\",\"lat\":1,\"lon\":1,\"radius\":9},{\"lat\":1,\"lon\":1,\"radius\":9}]", "regions.json: regions[1]: "),
        ("{\"identifier\":\"a\"}", "regions.json: expected a JSON list of regions"),
        ("[{", "regions.json: not JSON"),
    ])
    func badRegionsFile(text: String, message: String) {
        #expect {
            _ = try PlotRegion.parse(text, path: "regions.json")
        } throws: { error in
            "\(error)".hasPrefix(message)
        }
    }

    @Test("issue 22.6: a regions file may name each region's app, or be region.list's answer")
    func regionsFileShapes() throws {
        let listed = try PlotRegion.parse(#"[{"app":"com.example.a","identifier":"x","lat":1,"lon":2,"radius":30,"state":"inside"}]"#, path: "r.json")
        #expect(listed == [PlotRegion(app: "com.example.a", region: CircularRegion(identifier: "x", latitude: 1, longitude: 2, radius: 30))])
        let answer = try PlotRegion.parse(#"{"regions":[{"identifier":"x","lat":1,"lon":2,"radius":30,"loiteringDelay":60}]}"#, path: "r.json")
        #expect(answer.first?.app == PlotRegion.defaultApp && answer.first?.region.loiteringDelay == 60)
    }
}
