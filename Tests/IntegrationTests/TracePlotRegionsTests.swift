import Foundation
import SextantProtocol
import SextantTestSupport
import SextantTraces
import Testing

/// Issue 22.6 through sextantctl: `trace plot --regions FILE` on the HTML page in headless
/// Chromium (a crossing hovered tells its time and region), `--regions-from-daemon` from a
/// running daemon's `regions.list`, and bad input refused with its place.
@Suite("sextantctl trace plot --regions (issue 22.6)")
final class TracePlotRegionsTests {
    let scratch: TemporaryDirectory
    var directory: String { scratch.path }
    static var walk: String { Repository.root + "/Traces/shop-walk.jsonl" }
    static let shop = #"[{"app":"com.example.shop","identifier":"shop","lat":48.8566,"lon":2.3522,"radius":50,"loiteringDelay":30}]"#

    init() throws { scratch = try TemporaryDirectory("plotregions") }

    func ctl(_ arguments: [String]) throws -> CommandResult { try run([Binaries.sextantctl] + arguments) }

    func regionsFile(_ text: String) throws -> String {
        let path = directory + "/regions.json"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("issue 22.6: in Chromium, hovering the first crossing on the regions lane shows its time, app, region and transition", .requires(.tool("/usr/bin/chromium", package: "chromium")))
    func crossingTooltip() throws {
        let page = directory + "/shop.html"
        let plotted = try ctl(["trace", "plot", Self.walk, "-o", page, "--regions", try regionsFile(Self.shop)])
        try #require(plotted.status == 0, "\(plotted.stderr)")
        let result = try run(["/usr/bin/python3", Repository.root + "/Tools/dev/plot-browser.py", page])
        try #require(result.status == 0, "\(result.stderr)")
        let seen = try #require(JSONValue.parse(result.stdout).objectValue)
        // The shop's entry at 08:01:51, 111 s from the start (RegionReplayTests, by hand).
        let tip = seen["regionTooltip"]?.stringValue ?? ""
        #expect(tip.contains("+1:51") && tip.contains("com.example.shop") && tip.contains("region shop enter"), "\(tip)")
        #expect(seen["problems"]?.arrayValue == [], "\(String(describing: seen["problems"]))")
    }

    @Test("issue 22.6: --regions-from-daemon draws the regions a running daemon monitors; --app keeps one app's")
    func regionsFromDaemon() throws {
        let daemon = try DaemonHarness()
        for (app, identifier, lat) in [("com.example.shop", "shop", "48.8566"), ("com.example.other", "far", "48.9")] {
            let added = try daemon.ctl(["regions", "add", identifier, "--app", app, "--lat", lat, "--lon", "2.3522", "--radius", "50"])
            try #require(added.status == 0, "\(added.stderr)")
        }
        let svg = directory + "/daemon.svg"
        let plotted = try daemon.ctl(["trace", "plot", Self.walk, "-o", svg, "--regions-from-daemon"])
        try #require(plotted.status == 0, "\(plotted.stderr)")
        let drawn = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(drawn.contains(#"class="region" data-region="shop""#) && drawn.contains(#"class="region" data-region="far""#))
        #expect(drawn.contains(#"data-region="shop" data-transition="enter""#))
        let one = try daemon.ctl(["trace", "plot", Self.walk, "-o", svg, "--regions-from-daemon", "--app", "com.example.other"])
        try #require(one.status == 0, "\(one.stderr)")
        let other = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(!other.contains(#"data-region="shop""#) && other.contains(#"data-region="far""#))
    }

    @Test("issue 22.6: a bad regions file or a bad profile is refused with what and where, and nothing is written", arguments: [
        (["--regions", "REGIONS"], #"regions[0] ("shop"): "radius" must be within 1...100000 m"#),
        (["--gnss-profile", "underwater"], "unknown GNSS preset 'underwater'"),
        (["--seed", "3"], "--seed is the GNSS profile's"),
    ])
    func refused(options: [String], message: String) throws {
        let out = directory + "/refused.svg"
        let file = try regionsFile(#"[{"identifier":"shop","lat":48.8,"lon":2.3,"radius":0}]"#)
        let result = try ctl(["trace", "plot", Self.walk, "-o", out] + options.map { $0 == "REGIONS" ? file : $0 })
        #expect(result.status != 0 && result.stderr.contains(message), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: out))
    }
}
