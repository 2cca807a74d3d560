import Foundation
import SextantCore
import SextantProtocol
import SextantTestSupport
import SextantTraces
import Testing

/// `sextantctl trace convert` and `trace info`, run as the built binary; no daemon.
@Suite("sextantctl trace")
final class TraceCommandTests {
    let scratch: TemporaryDirectory
    var directory: String { scratch.path }

    init() throws { scratch = try TemporaryDirectory("trace") }

    func write(_ name: String, _ text: String) throws -> String { try scratch.write(name, text) }

    func ctl(_ arguments: [String]) throws -> CommandResult { try run([Binaries.sextantctl] + arguments) }

    /// A sentence with its checksum (XOR of the bytes between `$` and `*`).
    func nmea(_ body: String) -> String {
        let sum = body.utf8.dropFirst().reduce(UInt8(0), ^)
        return body + "*" + String(format: "%02X", sum)
    }

    @Test("convert: a gpsd log becomes a Sextant trace that reads back as what the NMEA reader gives", arguments: ["haicom-305N.log", "bt451.log", "isync.log"])
    func convertNMEA(log: String) throws {
        let input = Repository.root + "/Traces/gpsd/" + log
        let output = directory + "/out.jsonl"
        let result = try ctl(["trace", "convert", input, output, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let expected = try NMEAReader.read(try String(contentsOfFile: input, encoding: .utf8), path: input)
        let written = try SextantTraceFormat.read(try String(contentsOfFile: output, encoding: .utf8), path: output)
        #expect(written.start == expected.start)
        #expect(written.samples == expected.samples)
        #expect(!written.samples.isEmpty)
        let summary = try JSONValue.parse(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        #expect(summary["samples"]?.intValue == expected.samples.count)
        #expect(summary["format"] == "nmea")
        #expect(summary["skipped"] == .object(expected.skipped.mapValues { .int(Int64($0)) }))
    }

    @Test("convert: a GPX route is walked at --gpx-speed")
    func convertGPX() throws {
        let gpx = #"<gpx version="1.1"><rte><rtept lat="0" lon="0"/><rtept lat="0" lon="0.001"/><rtept lat="0.001" lon="0.001"/></rte></gpx>"#
        let input = try write("route.gpx", gpx)
        let output = directory + "/route.jsonl"
        let result = try ctl(["trace", "convert", input, output, "--gpx-speed", "2.5"])
        #expect(result.status == 0, "\(result.stderr)")
        let written = try SextantTraceFormat.read(try String(contentsOfFile: output, encoding: .utf8), path: output)
        #expect(written == (try GPXReader.read(gpx, path: input, speed: 2.5)))
        // Two legs of 0.001° on the 6,371,008.8 m sphere at 2.5 m/s.
        let leg = 6_371_008.8 * 0.001 * Double.pi / 180 / 2.5
        #expect(abs(written.duration - 2 * leg) < 1e-6)
    }

    @Test("info: the figures of a small NMEA log, counted by hand")
    func infoFigures() throws {
        let path = try write("small.nmea", [
            "# Date: 2020-01-01",
            nmea("$GPRMC,080000,A,4850.000,N,00220.000,E,1.0,90.0,010326,,,A"),
            "garbage",
            nmea("$GPGGA,080001,4850.500,N,00220.500,E,1,08,1.0,35.0,M,46.9,M,,"),
            "$GPGGA,080002,4850.500,N,00220.500,E,1,08,1.0,35.0,M,46.9,M,,*00",
            nmea("$GPRMC,080003,V,,,,,,,010326,,,N"),
            nmea("$GPGSV,1,1,01,01,40,083,46"),
            nmea("$GPGGA,080004,4851.000,N,00221.000,E,1,08,1.0,35.0,M,46.9,M,,"),
        ].joined(separator: "\n") + "\n")
        let result = try ctl(["trace", "info", path, "--json"])
        #expect(result.status == 0, "\(result.stderr)")
        let info = try JSONValue.parse(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines))
        // Three fixes (08:00:00, 08:00:01, 08:00:04), the fix lost at 08:00:03; the RMC's
        // date (1 March 2026) wins over the comment's.
        #expect(info["format"] == "nmea")
        #expect(info["start"] == "2026-03-01T08:00:00.000Z")
        #expect(info["end"] == "2026-03-01T08:00:04.000Z")
        #expect(info["duration"]?.doubleValue == 4)
        #expect(info["samples"] == ["location": 3, "gps": 1])
        #expect(info["gps"] == ["noFix": 1])
        #expect(info["skipped"] == ["not NMEA": 1, "bad checksum": 1])
        // 48° 50' N = 48.8333…°, 2° 20' E = 2.3333…°; 48° 51' N = 48.85°, 2° 21' E = 2.35°.
        let box = try #require(info["boundingBox"])
        #expect(abs(box["south"]!.doubleValue! - (48 + 50.0 / 60)) < 1e-12)
        #expect(abs(box["west"]!.doubleValue! - (2 + 20.0 / 60)) < 1e-12)
        #expect(abs(box["north"]!.doubleValue! - 48.85) < 1e-12)
        #expect(abs(box["east"]!.doubleValue! - 2.35) < 1e-12)

        let human = try ctl(["trace", "info", path])
        #expect(human.status == 0)
        #expect(human.stdout.contains("Duration:  4.000 s"))
        #expect(human.stdout.contains("Samples:   gps 1, location 3"))
        #expect(human.stdout.contains("Skipped:   bad checksum 1, not NMEA 1"))
    }

    @Test("Errors: a bad trace names file and line and exits 1; a missing file exits 1; --gpx-speed must be positive")
    func errors() throws {
        let bad = try write("bad.gpx", "<gpx version=\"1.1\">\n<trk><trkseg>\n<trkpt lat=\"95\" lon=\"0\"/>\n</trkseg></trk></gpx>\n")
        let result = try ctl(["trace", "info", bad])
        #expect(result.status == 1)
        #expect(result.stderr.contains("bad.gpx:3:"), "\(result.stderr)")
        let output = directory + "/never.jsonl"
        #expect(try ctl(["trace", "convert", bad, output]).status == 1)
        #expect(!FileManager.default.fileExists(atPath: output))
        #expect(try ctl(["trace", "info", directory + "/missing.nmea"]).stderr.contains("no such file"))
        #expect(try ctl(["trace", "info", bad, "--gpx-speed", "0"]).status != 0)
    }
}

@Suite("What sextantctl links")
struct SextantctlLinkTests {
    @Test("sextantctl links neither libgps nor libudev: reading traces needs no C library of a live source")
    func noLiveSourceLibraries() throws {
        let ldd = try run(["/usr/bin/ldd", Binaries.sextantctl])
        #expect(ldd.status == 0, "\(ldd.stderr)")
        #expect(!ldd.stdout.contains("libgps"), "\(ldd.stdout)")
        #expect(!ldd.stdout.contains("libudev"), "\(ldd.stdout)")
        // The daemon does link them: the check reads what it claims to.
        let daemon = try run(["/usr/bin/ldd", Binaries.sextantd])
        #expect(daemon.stdout.contains("libgps") && daemon.stdout.contains("libudev"), "\(daemon.stdout)")
    }
}
