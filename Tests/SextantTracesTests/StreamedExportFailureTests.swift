import Foundation
import SextantCore
import SextantTestSupport
import SextantTraces
import Testing

/// A streamed conversion that fails, before or after it has written part of the output:
/// the error names the input's file and line, and the target is left as it was (or not
/// created), with no temporary file beside it.
@Suite("Streamed export failures")
struct StreamedExportFailureTests {
    /// A JSONL trace of `count` fixes, 0.1 s apart; line n + 1 holds fix n.
    static func trace(count: Int) -> String {
        var text = #"{"sextant":"trace","version":1,"start":"2026-03-01T08:00:00.000Z"}"# + "\n"
        for i in 0..<count {
            text += #"{"t":\#(Double(i) / 10),"location":{"lat":\#(48 + Double(i) * 1e-6),"lon":2.35,"hAcc":4,"speed":1.5,"course":90}}"# + "\n"
        }
        return text
    }

    @Test("A bad line near the end of a 50,000-line trace: the error says file and line; the old target stays, a missing one is not created")
    func badLineNearTheEnd() throws {
        let scratch = try TemporaryDirectory("export-failure")
        let directory = scratch.path
        var lines = Self.trace(count: 50_000).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        lines[49_990 - 1] = #"{"t":4998.9,"location":{"lat":91,"lon":2.35}}"#
        let input = directory + "/day.jsonl"
        try lines.joined(separator: "\n").write(toFile: input, atomically: false, encoding: .utf8)
        let kept = directory + "/kept.nmea"
        try "old contents\n".write(toFile: kept, atomically: false, encoding: .utf8)
        for (output, format) in [(kept, TraceExportFormat.nmea), (directory + "/new.geojson", .geojson)] {
            do {
                _ = try TraceConversion.convert(input: input, output: output, as: format, bufferSize: 4096)
                Issue.record("the conversion to \(format) succeeded")
            } catch let error as TraceLoadError {
                #expect(error.description.hasPrefix(input + ":49990: location.lat"), "\(error)")
            }
        }
        #expect(try String(contentsOfFile: kept, encoding: .utf8) == "old contents\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["day.jsonl", "kept.nmea"])
    }

    @Test("A trace cut short after part of the output is written: the error says file and line, the target stays as it was, no temporary file")
    func inputChangedWhileWriting() throws {
        let scratch = try TemporaryDirectory("export-failure")
        let directory = scratch.path
        let input = directory + "/walk.jsonl"
        let text = Self.trace(count: 5000)
        try text.write(toFile: input, atomically: false, encoding: .utf8)
        let trace = try TraceLoader.openForReplay(path: input)
        // Cut the file in place after fix 2,999 (line 3,001): blocks 0 and 1 (fixes
        // 0–2,047) read as checked, block 2 no longer does.
        let cut = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).prefix(3001).reduce(0) { $0 + $1.count + 1 }
        #expect(truncate(input, off_t(cut)) == 0)
        let target = directory + "/walk.gpx"
        try "old contents\n".write(toFile: target, atomically: false, encoding: .utf8)
        var written: Int?
        do {
            written = try TraceExporter.write(trace, as: .gpx, to: target, bufferSize: 4096)
        } catch {
            // Block 2 starts at line 2,050: the fixes of blocks 0 and 1 (about 400 kB of
            // GPX) went out through the 4 KiB buffer to the temporary file before this.
            let parts = error.description.split(separator: ":", maxSplits: 2)
            #expect(parts.first.map(String.init) == input && (Int(parts[1]) ?? 0) >= 2050, "\(error)")
            #expect(error.description.contains("the file changed since it was checked"), "\(error)")
        }
        #expect(written == nil, "the conversion of a changed file succeeded")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "old contents\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["walk.gpx", "walk.jsonl"])
    }
}
