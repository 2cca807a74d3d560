import Foundation
import SextantTestSupport
import Testing

/// `sextantctl trace convert` streams (issue 12 point 1): its memory does not grow with the
/// trace, and a bad line near the end of a large trace fails with its file and line
/// before the target is touched.
@Suite("Trace convert streams")
struct TraceConvertStreamTests {
    /// 200,000 fixes at 10 Hz: 16 MB of JSONL. Read whole, as before, the conversion took
    /// about five times the file in memory.
    static let fixes = 200_000

    /// Runs `sextantctl trace convert` under GNU time (a small process of its own, so that
    /// the figure is sextantctl's alone): its result and its peak resident memory in KiB.
    static func convert(_ input: String, _ output: String, in directory: String) throws -> (CommandResult, Int) {
        let report = directory + "/time.txt"
        let result = try run(["/usr/bin/time", "-f", "%M", "-o", report, Binaries.sextantctl, "trace", "convert", input, output])
        let text = try String(contentsOfFile: report, encoding: .utf8)
        let peak = try #require(text.split(separator: "\n").last.flatMap { Int($0) }, "GNU time said: \(text)")
        return (result, peak)
    }

    @Test("A 16 MB JSONL trace to NMEA and to GeoJSON (read twice): sextantctl's peak memory is within 32 MiB of a 1-fix trace's")
    func boundedMemory() throws {
        let scratch = try TemporaryDirectory("convert")
        let directory = scratch.path
        let tiny = directory + "/tiny.jsonl", day = directory + "/day.jsonl"
        try syntheticTrace(count: 1, step: 0.1).write(toFile: tiny, atomically: false, encoding: .utf8)
        let text = syntheticTrace(count: Self.fixes, step: 0.1)
        #expect(text.utf8.count > 15_000_000)
        try text.write(toFile: day, atomically: false, encoding: .utf8)
        let (small, baseline) = try Self.convert(tiny, directory + "/tiny.nmea", in: directory)
        #expect(small.status == 0, "\(small.stderr)")
        for format in ["nmea", "geojson"] {
            let output = directory + "/day." + format
            let (result, peak) = try Self.convert(day, output, in: directory)
            #expect(result.status == 0, "\(result.stderr)")
            #expect(peak - baseline < 32 * 1024, "\(format): peak \(peak) KiB, \(peak - baseline) KiB over a 1-fix trace's")
            let size = try #require(try FileManager.default.attributesOfItem(atPath: output)[.size] as? Int)
            #expect(size > text.utf8.count, "\(format): the whole output is there (\(size) bytes)")
        }
        // Every fix made it: three sentences each, the last at 08:00 + 19,999.9 s.
        let nmea = try String(contentsOfFile: directory + "/day.nmea", encoding: .utf8).split(separator: "\r\n")
        #expect(nmea.count == 3 * Self.fixes && nmea[nmea.count - 2].hasPrefix("$GPRMC,133319.90,A,"), "\(nmea.suffix(3))")
    }

    @Test("A bad line near the end of a 16 MB trace: exit 1 with file and line; the old target stays whole, a new one is not created")
    func badLineNearTheEnd() throws {
        let scratch = try TemporaryDirectory("convert")
        let directory = scratch.path
        let input = directory + "/day.jsonl"
        // Line 1 is the header: fix n is line n + 2; the bad line is the 10th from the end.
        var text = syntheticTrace(count: Self.fixes - 10, step: 0.1)
        text += #"{"t":19999.0,"location":{"lat":48.1,"lon":2.35,"hAcc":-1}}"# + "\n"
        for i in 1...9 { text += #"{"t":\#(19999.0 + Double(i) / 10),"location":{"lat":48.1,"lon":2.35}}"# + "\n" }
        try text.write(toFile: input, atomically: false, encoding: .utf8)
        let kept = directory + "/kept.kml"
        try "old contents\n".write(toFile: kept, atomically: false, encoding: .utf8)
        for output in [kept, directory + "/new.nmea"] {
            let result = try run([Binaries.sextantctl, "trace", "convert", input, output])
            #expect(result.status == 1)
            #expect(result.stderr.contains("\(input):\(Self.fixes - 10 + 2): location.hAcc"), "\(result.stderr)")
        }
        #expect(try String(contentsOfFile: kept, encoding: .utf8) == "old contents\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["day.jsonl", "kept.kml"])
    }
}
