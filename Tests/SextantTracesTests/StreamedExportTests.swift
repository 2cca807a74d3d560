import Foundation
import SextantCore
import SextantProtocol
import SextantTestSupport
import SextantTraces
import Testing

/// `trace convert` streams (issue 12 point 1): samples are read one at a time from the
/// trace and the text goes out through a bounded buffer. The output must stay, byte for
/// byte, what the writers wrote when they rendered whole strings: Tests/Fixtures/export
/// holds the sha256 of every output of the former `sextantctl trace convert` (main at
/// bbab06e) for the 31 gpsd logs and four generated JSONL traces, and a few outputs whole.
/// hemi.log's and rst39.log's `nmea` and `sextant` outputs carry their logs' headings
/// (issue 21.1): their digests are of those bytes with the four `HDT` or `compass` lines
/// each gained, and nothing else changed (`grep -v` of those lines gives the former digests);
/// likewise the `sextant` outputs of the 18 logs with GSV and GSA sentences carry their
/// satellites as `sky` lines (issue 23.4), and `grep -v '"sky"'` of each gives its former digest.
/// The `nmea` outputs write each epoch's GGA before its RMC, as gpsd does (issue 42): their
/// digests and kept files are the former bytes with each RMC line swapped with the GGA line
/// after it, by a script outside the code under test, and nothing else changed.
@Suite("Streamed export")
struct StreamedExportTests {
    static let repository = #filePath.components(separatedBy: "/Tests/")[0]
    static let fixtures = repository + "/Tests/Fixtures/export"

    /// The inputs the fixtures were made from, by the name the expected outputs start with.
    static func inputs() throws -> [(name: String, path: String)] {
        let logs = try FileManager.default.contentsOfDirectory(atPath: repository + "/Traces/gpsd").filter { $0.hasSuffix(".log") }
        let generated = ["mixed.jsonl", "southwest.jsonl", "empty.jsonl", "no-locations.jsonl"]
        return logs.sorted().map { ($0, repository + "/Traces/gpsd/" + $0) } + generated.map { ($0, fixtures + "/" + $0) }
    }

    /// `name.format` → sha256, from the fixtures' list.
    static func expectedDigests() throws -> [String: String] {
        let text = try String(contentsOfFile: fixtures + "/expected.sha256", encoding: .utf8)
        var digests: [String: String] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            digests[parts[1].trimmingCharacters(in: .whitespaces)] = String(parts[0])
        }
        return digests
    }

    /// sha256 of each file, by sha256sum(1): one process for all of them.
    static func digests(of directory: String) throws -> [String: String] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory).sorted()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sha256sum")
        process.currentDirectoryURL = URL(fileURLWithPath: directory)
        process.arguments = ["--"] + names
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        #expect(waitForEnd(of: process) == 0)
        var digests: [String: String] = [:]
        for line in String(decoding: output, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            digests[parts[1].trimmingCharacters(in: .whitespaces)] = String(parts[0])
        }
        return digests
    }

    @Test(
        "Every format, every gpsd log and generated trace, read as for a replay (JSONL streamed): the files are byte for byte the former writers'",
        arguments: [7, ExportOutput.defaultCapacity])
    func sameBytesAsBefore(bufferSize: Int) throws {
        let scratch = try TemporaryDirectory("export")
        let directory = scratch.path
        let expected = try Self.expectedDigests()
        var written = 0
        for (name, path) in try Self.inputs() {
            let trace = try TraceLoader.openForReplay(path: path)
            for format in TraceExportFormat.allCases {
                try TraceExporter.write(trace, as: format, to: "\(directory)/\(name).\(format.rawValue)", bufferSize: bufferSize)
                written += 1
            }
        }
        let got = try Self.digests(of: directory)
        #expect(written == 35 * 5 && expected.count == written && got.count == written)
        for (file, digest) in expected.sorted(by: { $0.key < $1.key }) {
            #expect(got[file] == digest, "\(file) differs from what the former writer wrote")
        }
    }

    @Test("The outputs kept whole in the fixtures: a gpsd log, an empty trace and one without locations, rendered in memory")
    func sameTextAsBefore() throws {
        let kept = try FileManager.default.contentsOfDirectory(atPath: Self.fixtures + "/expected").sorted()
        #expect(kept.count == 15)
        for file in kept {
            let dot = try #require(file.lastIndex(of: "."))
            let input = String(file[..<dot]), format = try #require(TraceExportFormat(rawValue: String(file[file.index(after: dot)...])))
            let path = input.hasSuffix(".log") ? Self.repository + "/Traces/gpsd/" + input : Self.fixtures + "/" + input
            let text = TraceExporter.render(try TraceLoader.load(path: path), as: format)
            #expect(text == (try String(contentsOfFile: Self.fixtures + "/expected/" + file, encoding: .utf8)), "\(file)")
        }
    }
}
