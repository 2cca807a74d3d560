import Foundation
import SextantCore
import SextantProtocol
import SextantTestSupport
import SextantTraces
import Testing

/// `sextantctl trace route`, `trace plot` and `trace convert` to other formats, run as
/// the built binary; no daemon. Pictures are rendered by a real SVG renderer, rsvg-convert.
@Suite("sextantctl trace route, plot, export")
final class TraceToolCommandTests {
    let scratch: TemporaryDirectory
    var directory: String { scratch.path }
    static let rsvg = "/usr/bin/rsvg-convert"
    static let xmllint = "/usr/bin/xmllint"

    init() throws { scratch = try TemporaryDirectory("tracetools") }

    func ctl(_ arguments: [String]) throws -> CommandResult { try run([Binaries.sextantctl] + arguments) }
    var demo: String { Repository.root + "/Traces/demo-walk.jsonl" }

    /// Width and height from a PNG's IHDR chunk (bytes 16–23, big-endian).
    func pngSize(_ path: String) throws -> (width: Int, height: Int) {
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        try #require(bytes.count > 24 && bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], "a PNG signature")
        func be32(_ i: Int) -> Int { bytes[i..<i + 4].reduce(0) { $0 << 8 | Int($1) } }
        return (be32(16), be32(20))
    }

    @Test("plot: the SVG renders with rsvg-convert to a 960×720 PNG that is not blank", .requires(.tool(rsvg, package: "librsvg2-bin")))
    func plotRenders() throws {
        let svg = directory + "/demo.svg", png = directory + "/demo.png"
        let result = try ctl(["trace", "plot", demo, "-o", svg])
        #expect(result.status == 0, "\(result.stderr)")
        let render = try run([Self.rsvg, svg, "-o", png])
        #expect(render.status == 0, "\(render.stderr)")
        let size = try pngSize(png)
        #expect(size.width == 960 && size.height == 720)
        // A blank 960×720 picture compresses to about a kilobyte; a drawn one is far more.
        let bytes = try FileManager.default.attributesOfItem(atPath: png)[.size] as? Int ?? 0
        #expect(bytes > 20_000, "\(bytes) bytes")
    }

    @Test("plot --events: what an app received is drawn over the trace; .html is one page with the picture inline", .requires(.tool(rsvg, package: "librsvg2-bin")))
    func plotEvents() throws {
        let trace = try TraceLoader.load(path: demo)
        // An app that gets the first 30 fixes reduced, then is denied.
        var lines: [String] = []
        for (_, fix) in trace.locations.prefix(30) {
            lines.append(#"{"jsonrpc":"2.0","method":"location","params":{"app":"com.example.maps","lat":\#(fix.latitude + 0.0003),"lon":\#(fix.longitude),"hAcc":1000,"time":"\#(fix.time.rfc3339)","accuracy":"reduced"}}"#)
        }
        lines.append(#"{"jsonrpc":"2.0","method":"authorization","params":{"app":"com.example.maps","status":"denied","accuracy":"full"}}"#)
        let events = directory + "/events.ndjson"
        try lines.joined(separator: "\n").write(toFile: events, atomically: true, encoding: .utf8)
        let plain = directory + "/plain.svg", overlaid = directory + "/overlaid.svg"
        #expect(try ctl(["trace", "plot", demo, "-o", plain]).status == 0)
        let result = try ctl(["trace", "plot", demo, "-o", overlaid, "--events", events])
        #expect(result.status == 0, "\(result.stderr)")
        let svg = try String(contentsOfFile: overlaid, encoding: .utf8)
        #expect(svg.contains(">com.example.maps</text>"), "a lane for the app")
        #expect(svg.contains(">denied</text>"), "its denied stretch")
        #expect(svg != (try String(contentsOfFile: plain, encoding: .utf8)))
        #expect(try run([Self.rsvg, overlaid, "-o", directory + "/o.png"]).status == 0)
        #expect(try pngSize(directory + "/o.png") == (960, 720))

        let html = directory + "/demo.html"
        #expect(try ctl(["trace", "plot", demo, "-o", html]).status == 0)
        let page = try String(contentsOfFile: html, encoding: .utf8)
        #expect(page.hasPrefix("<!DOCTYPE html>") && page.contains("<svg ") && !page.contains("src=\"http"))
    }

    @Test("plot --events (issue 28.12): control characters in an app id and the file name leave the SVG well-formed XML", .requires(.tool(xmllint, package: "libxml2-utils")))
    func plotControlCharacters() throws {
        let trace = try TraceLoader.load(path: demo)
        let fix = try #require(trace.locations.first?.fix)
        // \u0001 and ESC in the app ids (as JSON writes them), ESC and BEL in the trace's file name (the title).
        let apps = [#"com.ex\u0001ample"#, #"\u001b[31mred\u001b[0m"#, #"tab\there"#]
        let lines = apps.map { app in
            #"{"jsonrpc":"2.0","method":"location","params":{"app":"\#(app)","lat":\#(fix.latitude),"lon":\#(fix.longitude),"hAcc":5,"time":"\#(fix.time.rfc3339)","accuracy":"full"}}"#
        }
        let events = directory + "/control.ndjson", named = directory + "/walk\u{1b}\u{7}.jsonl", svg = directory + "/control.svg"
        try lines.joined(separator: "\n").write(toFile: events, atomically: true, encoding: .utf8)
        try FileManager.default.copyItem(atPath: demo, toPath: named)
        let result = try ctl(["trace", "plot", named, "-o", svg, "--events", events])
        #expect(result.status == 0, "\(result.stderr)")
        let check = try run([Self.xmllint, "--noout", svg])
        #expect(check.status == 0, "\(check.stderr)")
        let text = try String(contentsOfFile: svg, encoding: .utf8)
        let lanes = [">com.ex\u{FFFD}ample</text>", ">\u{FFFD}[31mred\u{FFFD}[0m</text>", ">tab\there</text>"].map { text.contains($0) }
        #expect(lanes == [true, true, true], "each control character as U+FFFD in the lanes' names; a tab is XML, kept")
        let titled = text.contains("<title>Sextant trace walk\u{FFFD}\u{FFFD}.jsonl</title>")
        #expect(titled, "the file name in the title, each control character as U+FFFD")
    }

    @Test("bad input: a clear error, exit 1, and nothing written", arguments: [
        (["trace", "plot", "@gps-only", "-o", "@out/p.svg"], "no location to plot"),
        (["trace", "plot", "@demo", "-o", "@out/p.png"], "expected .svg or .html"),
        (["trace", "plot", "@demo", "-o", "@out/p.svg", "--tiles", "https://t.example.org/{z}/{x}/{y}.png"], "on the .html page only"),
        (["trace", "convert", "@demo", "@out/x.json"], "unknown output extension .json"),
        (["trace", "convert", "@demo", "@out/x.gpx", "--to", "shapefile"], "unknown output format"),
        (["trace", "route", "1,2", "-o", "@out/r.gpx"], "at least two points"),
        (["trace", "route", "1,2", "1,3", "--interval", "0", "-o", "@out/r.gpx"], "interval must be a positive"),
        (["trace", "route", "1,2", "1,3", "--distance=-5", "-o", "@out/r.gpx"], "distance must be a positive"),
        (["trace", "route", "1,2", "1,3", "-o", "@out/r.shp"], "unknown output extension .shp"),
    ])
    func refused(arguments: [String], message: String) throws {
        let out = directory + "/out"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        let gpsOnly = directory + "/gps.jsonl"
        try "{\"sextant\":\"trace\",\"version\":1,\"start\":\"2026-03-01T08:00:00Z\"}\n{\"t\":0,\"gps\":{\"state\":\"lost\"}}\n".write(toFile: gpsOnly, atomically: true, encoding: .utf8)
        let resolved = arguments.map { $0.replacingOccurrences(of: "@out", with: out).replacingOccurrences(of: "@demo", with: demo).replacingOccurrences(of: "@gps-only", with: gpsOnly) }
        let result = try ctl(resolved)
        #expect(result.status != 0)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: out).isEmpty, "nothing written")
    }

    @Test("convert over an existing file with a bad input leaves the file as it was")
    func convertKeepsOld() throws {
        let output = directory + "/keep.gpx"
        try "old".write(toFile: output, atomically: true, encoding: .utf8)
        let bad = directory + "/bad.jsonl"
        try "{\"sextant\":\"trace\",\"version\":1,\"start\":\"2026-03-01T08:00:00Z\"}\n{\"t\":0,\"location\":{\"lat\":95,\"lon\":0}}\n".write(toFile: bad, atomically: true, encoding: .utf8)
        #expect(try ctl(["trace", "convert", bad, output]).status == 1)
        #expect(try String(contentsOfFile: output, encoding: .utf8) == "old")
    }

    @Test("route → GPX with negative coordinates: the GPX reads back as the route, fixes every --distance metres")
    func routeToGPX() throws {
        let output = directory + "/south.gpx"
        let result = try ctl(["trace", "route", "-33.8568,151.2153", "-33.8568,151.2253", "--speed", "5", "--distance", "100", "--start", "2026-03-01T08:00:00Z", "-o", output, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let trace = try TraceLoader.load(path: output)
        let fixes = trace.locations
        // 0.01° of longitude at 33.8568° S along the great circle: about 924 m, so 10 fixes at
        // 0…900 m and the end.
        #expect(fixes.count == 11)
        #expect(fixes.allSatisfy { $0.fix.latitude < -33.8568 + 1e-9 }, "a great circle bows towards the pole")
        #expect(abs(Double(fixes[1].offset) / 1e9 - 20) < 0.001, "100 m at 5 m/s")
        #expect(fixes.allSatisfy { $0.fix.speed == 5 })
        let summary = try JSONValue.parse(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(summary["format"] == "gpx" && summary["samples"]?.intValue == 11)
    }

    @Test("info: distance, speeds, gaps and rates in JSON")
    func infoFigures() throws {
        let result = try ctl(["trace", "info", demo, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let info = try JSONValue.parse(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        let motion = try #require(info["motion"])
        #expect((motion["distance"]?.doubleValue ?? 0) > 100)
        #expect(abs((motion["rates"]?["accel"]?.doubleValue ?? 0) - 25) < 0.01, "the demo walk's accelerometer runs at 25 Hz")
        #expect(motion["gapCount"]?.intValue == 0)
        #expect(motion["speed"]?["median"]?.doubleValue != nil)
    }
}
