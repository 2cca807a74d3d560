import Foundation
import SextantProtocol
import SextantTestSupport
import Testing

/// Issue 24.5: gpsd's own client tools work against the gpsd face as against gpsd: one
/// device, with a path such as gpsd gives (`host:port:device` splits at colons).
@Suite("gpsd client tools on the gpsd face", .serialized, .requires(.tool("/usr/bin/gpsprof", package: "gpsd-clients")))
struct GPSDFaceClientToolTests {
    @Test("issue 24.5: gpsprof gathers fixes from the face (one device, /dev/sextant0) and prints its plot")
    func gpsprofPlots() throws {
        let scratch = try TemporaryDirectory("gpsprof")
        let trace = try scratch.write("walk.jsonl", syntheticTrace(count: 30, step: 1))
        let daemon = try DaemonHarness(arguments: ["--gpsd-listen", "0", "--prompt-policy", "allowAlways", "--replay", trace, "--speed", "5", "--loop"])
        let port = try daemon.gpsdFacePort()
        let result = try run(["/usr/bin/timeout", "120", "/usr/bin/gpsprof", "-n", "3", "-f", "space", "127.0.0.1:\(port)"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains("plot") && result.stdout.contains("/dev/sextant0"), "\(result.stdout)")
        #expect(result.stderr.contains("gathering 3 samples"), "\(result.stderr)")
        let devices = try run(["/usr/bin/timeout", "30", "/usr/bin/gpspipe", "-w", "-n", "2", "127.0.0.1:\(port)"])
        let listed = devices.stdout.split(whereSeparator: \.isNewline).compactMap { try? JSONValue.parse(String($0)) }.first { $0["class"] == "DEVICES" }
        #expect(listed?["devices"]?.arrayValue?.map { $0["path"] } == ["/dev/sextant0"], "\(devices.stdout)")
        #expect(listed?["devices"]?.arrayValue?.first?["subtype"] == "sextant replay", "\(devices.stdout)")
    }

    @Test("gpxlogger writes the replayed walk as a GPX track, every fix with its own time, and closes the file on SIGINT", .requires(.tool("/usr/bin/gpxlogger", package: "gpsd-clients")))
    func gpxloggerTrack() throws {
        let scratch = try TemporaryDirectory("gpxlogger")
        // Five fixes a second apart walking north, 0.0005° (56 m) a step: values written here.
        let walk = (0..<5).map { 48.0 + Double($0) * 0.0005 }
        var lines = [#"{"sextant":"trace","version":1,"start":"2026-03-01T08:00:00.000Z"}"#]
        for (index, lat) in walk.enumerated() { lines.append(#"{"t":\#(index),"location":{"lat":\#(lat),"lon":2.35,"hAcc":4,"alt":35}}"#) }
        let trace = try scratch.write("walk.jsonl", lines.joined(separator: "\n") + "\n")
        let daemon = try DaemonHarness(arguments: ["--gpsd-listen", "0"])
        try daemon.grantGPSDClients(["gpxlogger"])
        let output = scratch.file("walk.gpx")
        let logger = try ClientProcess(["/usr/bin/gpxlogger", "-f", output, "127.0.0.1:\(try daemon.gpsdFacePort())"], directory: scratch.path, name: "gpxlogger")
        try daemon.waitForGPSDWatchers(1)
        try daemon.replayAtMax(trace)
        let pattern = try NSRegularExpression(pattern: #"<trkpt lat="([-0-9.]+)" lon="([-0-9.]+)">\s*<time>([^<]+)</time>"#)
        func points() -> [(lat: Double, lon: Double, time: String)] {
            let text = (try? String(contentsOfFile: output, encoding: .utf8)) ?? ""
            return pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
                let field = { (i: Int) in String(text[Range(match.range(at: i), in: text)!]) }
                return (Double(field(1)) ?? .nan, Double(field(2)) ?? .nan, field(3))
            }
        }
        // gpxlogger flushes each point as it writes it.
        _ = try poll(timeout: 20, failure: { "gpxlogger wrote \(points().count) of \(walk.count) points" }) { points().count >= walk.count ? true : nil }
        logger.process.interrupt()
        #expect(try logger.exitStatus(timeout: 10) == 0, "\(logger.errors())")
        let written = points()
        #expect(written.map(\.lat) == walk && written.allSatisfy { $0.lon == 2.35 }, "\(written)")
        #expect(written.map(\.time) == (0..<5).map { "2026-03-01T08:00:0\($0).000Z" }, "the fixes' own times: \(written)")
        #expect((try String(contentsOfFile: output, encoding: .utf8)).hasSuffix("</gpx>\n"), "the file is closed")
    }
}
