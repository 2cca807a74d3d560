import Foundation
import SextantCore
import SextantProtocol
import SextantTestSupport
import SextantTraces
import Testing

/// Issue 24.4: `sextantctl trace plot` on the real logs, its SVG rendered by rsvg-convert and
/// its HTML page used in headless Chromium (Tools/dev/plot-browser.py drives it over the
/// DevTools protocol: hover, wheel, click) as a person would.
@Suite("sextantctl trace plot: real logs in rsvg and Chromium (issue 24.4)")
final class TracePlotPageTests {
    let scratch: TemporaryDirectory
    var directory: String { scratch.path }
    static let rsvg = "/usr/bin/rsvg-convert"
    static let chromium = "/usr/bin/chromium"
    static var haicom: String { Repository.root + "/Traces/gpsd/haicom-305N.log" }

    init() throws { scratch = try TemporaryDirectory("plotpage") }

    func ctl(_ arguments: [String]) throws -> CommandResult { try run([Binaries.sextantctl] + arguments) }

    static let realLogs: [String] = ["gpsd", "gnsslogger"].flatMap { folder in
        ((try? FileManager.default.contentsOfDirectory(atPath: Repository.root + "/Traces/" + folder)) ?? [])
            .filter { $0.hasSuffix(".log") || $0.hasSuffix(".txt") }.sorted().map { folder + "/" + $0 }
    }

    @Test("issue 24.4: the plot of every gpsd log and GnssLogger recording renders in rsvg-convert without a word on stderr", .requires(.tool(rsvg, package: "librsvg2-bin")))
    func everyLogRenders() throws {
        #expect(Self.realLogs.count >= 30)
        for log in Self.realLogs {
            let path = Repository.root + "/Traces/" + log, svg = directory + "/plot.svg", png = directory + "/plot.png"
            let plotted = try ctl(["trace", "plot", path, "-o", svg])
            if try TraceLoader.load(path: path).locations.isEmpty {
                #expect(plotted.status != 0 && plotted.stderr.contains("no location to plot"), "\(log): \(plotted.stderr)")
                continue
            }
            #expect(plotted.status == 0, "\(log): \(plotted.stderr)")
            let render = try run([Self.rsvg, svg, "-o", png])
            #expect(render.status == 0 && render.stderr.isEmpty, "\(log): \(render.stderr)")
        }
    }

    /// A session as `watch --json` shows it: a prompt before the first fix, answered, fixes,
    /// then reduced accuracy.
    func sessionEvents() throws -> String {
        let fixes = try TraceLoader.load(path: Self.haicom).locations.map(\.fix)
        let app = "com.acme.wayfinder"
        func line(_ method: String, _ params: String) -> String { #"{"jsonrpc":"2.0","method":"\#(method)","params":{"app":"\#(app)",\#(params)}}"# }
        var lines = [line("prompt", #""id":"p-7","session":1,"kind":"authorization","level":"whenInUse","created":"2026-11-26T04:00:00Z""#)]
        lines.append(line("promptClosed", #""id":"p-7","session":1,"kind":"authorization","level":"whenInUse","created":"2026-11-26T04:00:00Z","choice":"allowOnce","precise":true"#))
        lines.append(line("authorization", #""status":"authorizedWhenInUse","accuracy":"full""#))
        for (index, fix) in fixes.prefix(50).enumerated() {
            if index == 30 { lines.append(line("authorization", #""status":"authorizedWhenInUse","accuracy":"reduced""#)) }
            lines.append(line("location", #""lat":\#(fix.latitude),"lon":\#(fix.longitude),"hAcc":\#(fix.horizontalAccuracy),"time":"\#(fix.time.rfc3339)","accuracy":"\#(index >= 30 ? "reduced" : "full")""#))
        }
        let path = directory + "/events.ndjson"
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// What Tools/dev/plot-browser.py saw on the page.
    func browse(_ page: String) throws -> [String: JSONValue] {
        let result = try run(["/usr/bin/python3", Repository.root + "/Tools/dev/plot-browser.py", page])
        try #require(result.status == 0, "\(result.stderr)")
        return try #require(JSONValue.parse(result.stdout).objectValue, "\(result.stdout)")
    }

    @Test("issue 24.4: in Chromium, hovering the start shows its time and values, a prompt its answer; the wheel zooms; a row marks its moment; nothing is loaded and the page's policy is kept", .requires(.tool(chromium, package: "chromium")))
    func pageInChromium() throws {
        let page = directory + "/haicom.html"
        let plotted = try ctl(["trace", "plot", Self.haicom, "-o", page, "--events", try sessionEvents()])
        try #require(plotted.status == 0, "\(plotted.stderr)")
        let seen = try browse(page)
        let start = seen["startTooltip"]?.stringValue ?? ""
        #expect(start.contains("fix 1 of 68") && start.contains("2007-04-08T09:53:04.802Z") && start.contains("-27.210867") && start.contains("±85 m"), "\(start)")
        let prompt = seen["promptTooltip"]?.stringValue ?? ""
        #expect(prompt.contains("prompt p-7 opened") && prompt.contains("prompt p-7 answered allowOnce"), "\(prompt)")
        let transforms = seen["mapTransform"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(transforms.count == 2 && transforms[0].hasSuffix("scale(1)") && !transforms[1].hasSuffix("scale(1)"), "\(transforms)")
        #expect(seen["scaleLabel"]?.stringValue != "50 m", "the scale bar follows the zoom")
        let chosenRow = seen["chosenRow"]?.stringValue ?? ""
        #expect(chosenRow.contains("GPS ok"), "\(chosenRow)")
        #expect(seen["requests"]?.arrayValue == [], "no request leaves the page: \(seen["requests"] ?? .null)")
        #expect(seen["problems"]?.arrayValue == [], "no policy violation, no script error: \(String(describing: seen["problems"]))")
    }

    @Test("issue 24.4: --tiles puts a basemap under the page's map from the template's origin, the only one its policy admits", .requires(.tool(chromium, package: "chromium")))
    func tilesFromTemplate() throws {
        let page = directory + "/tiles.html"
        // Port 9 (discard) on loopback: the requests are made and fail, nothing leaves the machine.
        let plotted = try ctl(["trace", "plot", Self.haicom, "-o", page, "--tiles", "http://127.0.0.1:9/{z}/{x}/{y}.png"])
        try #require(plotted.status == 0, "\(plotted.stderr)")
        let html = try String(contentsOfFile: page, encoding: .utf8)
        #expect(html.contains("img-src data: http://127.0.0.1:9\""), "the policy names the tiles' origin")
        let requests = try browse(page)["requests"]?.arrayValue?.compactMap(\.stringValue) ?? []
        #expect(!requests.isEmpty && requests.allSatisfy { $0.hasPrefix("http://127.0.0.1:9/") && $0.hasSuffix(".png") }, "\(requests)")
        // The tile under the first fix, at the zoom of the first request (web mercator tiles).
        let fix = try #require(try TraceLoader.load(path: Self.haicom).locations.first?.fix)
        let zoom = try #require(requests.first.flatMap { Int($0.split(separator: "/")[2]) })
        let n = pow(2, Double(zoom)), latitude = fix.latitude * .pi / 180
        let x = Int(((fix.longitude + 180) / 360 * n).rounded(.down)), y = Int(((1 - log(tan(latitude) + 1 / cos(latitude)) / .pi) / 2 * n).rounded(.down))
        #expect(requests.contains("http://127.0.0.1:9/\(zoom)/\(x)/\(y).png"), "\(requests.prefix(4))")
    }

    @Test("--tiles refuses what is not an http(s) template with {z}, {x} and {y}, naming it", arguments: [
        ("file:///tmp/{z}/{x}/{y}.png", "expected an http:// or https:// URL"),
        ("https://tile.example.org/{z}/{x}.png", "has no {y}"),
        ("https://tile.example.org/{z}/{x}/{y}.png\"onload=\"x", "cannot stand in a tile URL"),
        ("https://a.{s}.example.org/{z}/{x}/{y}.png", "only as its first label"),
    ])
    func tilesRefused(template: String, message: String) throws {
        let out = directory + "/refused.html"
        let result = try ctl(["trace", "plot", Self.haicom, "-o", out, "--tiles", template])
        #expect(result.status != 0 && result.stderr.contains(message), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
