import Foundation
import SextantCore
import SextantProtocol
import SextantTestSupport
import Testing

@testable import SextantTraces

/// A JSONL trace read as it plays: checked whole first, then read a block at a time, with
/// the same samples as a trace read whole (issue 12 point 1; RULES: nothing half-loaded).
@Suite("Streamed JSONL traces")
struct StreamedJSONLTraceTests {
    static let header = #"{"sextant":"trace","version":1,"start":"2026-03-01T08:00:00Z","profile":"phone"}"#

    /// `count` samples, 0.1 s apart (two at a time share a time), with blank, comment and
    /// CRLF lines between them.
    static func text(samples count: Int) -> String { lines(samples: count).joined(separator: "\n") + "\n" }

    static func lines(samples count: Int) -> [String] {
        var lines = [header, "# a comment", ""]
        for i in 0..<count {
            let t = Double(i / 2) / 10
            switch i % 4 {
            case 0: lines.append(#"{"t":\#(t),"location":{"lat":48.85,"lon":\#(2.29 + Double(i) * 1e-6),"hAcc":5}}"#)
            case 1: lines.append(#"{"t": \#(t), "accel": {"x": 0.1, "y": 9.8, "z": 0.2}}\#r"#)
            case 2: lines.append(#"{"accel":{"x":1,"y":2,"z":3},"t":\#(t)}"#)
            default: lines.append(#"{"t":\#(t),"hinge":{"angle":90},"note":"read by the general parser"}"#)
            }
            if i % 1000 == 999 { lines.append("   ") }
        }
        return lines
    }

    /// The files the test writes, removed with the suite's instance at the end of the test.
    let scratch: TemporaryDirectory

    init() throws { scratch = try TemporaryDirectory("streamed") }

    func write(_ text: String) throws -> String { try scratch.write(UUID().uuidString + ".jsonl", text) }

    @Test("Every sample, in any order asked, is the one a whole read gives; the index keeps only block starts")
    func sameSamples() throws {
        let count = 3 * JSONLTraceIndex.blockSize + 17
        let text = Self.text(samples: count)
        let path = try write(text)
        let whole = try SextantTraceFormat.read(text, path: path)
        let streamed = try StreamedJSONLTrace(path: path)
        #expect(streamed.sampleCount == count && streamed.durationNanoseconds == whole.durationNanoseconds)
        #expect(streamed.start == whole.start && streamed.profile == .phone)
        #expect(streamed.index.blocks.count == 4)
        for i in 0..<count { #expect(try streamed.traceSample(at: i) == whole.samples[i]) }
        for i in [count - 1, 0, 2 * JSONLTraceIndex.blockSize, 5, count - 1] { #expect(try streamed.traceSample(at: i) == whole.samples[i]) }
    }

    @Test("firstIndex(atOrAfter:) answers as a binary search over the whole trace, across blocks")
    func seekIndex() throws {
        let count = 2 * JSONLTraceIndex.blockSize + 3
        let text = Self.text(samples: count)
        let path = try write(text)
        let whole = try SextantTraceFormat.read(text, path: path)
        let streamed = try StreamedJSONLTrace(path: path)
        let step: Int64 = 100_000_000
        for offset in stride(from: -step, through: whole.durationNanoseconds + step, by: Int(step) * 7 / 2) {
            #expect(try streamed.firstIndex(atOrAfter: offset) == whole.firstIndex(atOrAfter: offset), "\(offset)")
        }
    }

    @Test("RULES nothing half-loaded: a bad line far into the file is refused with its line before anything plays")
    func badLineRefused() throws {
        var lines = Self.lines(samples: 5000)
        lines[4321] = #"{"t":1e30,"hinge":{"angle":3}}"#
        let path = try write(lines.joined(separator: "\n"))
        #expect(throws: TraceLoadError.invalid(TraceError(path: path, line: 4322, reason: #""t" must be at most 1000000000 s (got 1e+30)"#))) {
            _ = try StreamedJSONLTrace(path: path)
        }
    }

    @Test("A line over 1 MiB is refused by number, not read into an ever-growing buffer")
    func longLine() throws {
        let path = try write(Self.header + "\n#" + String(repeating: "x", count: FileLines.bufferSize + 10) + "\n")
        #expect(throws: TraceLoadError.invalid(TraceError(path: path, line: 2, reason: "a line is longer than 1 MiB"))) {
            _ = try StreamedJSONLTrace(path: path)
        }
    }

    @Test("A file rewritten while it plays is noticed when a block no longer reads as it did")
    func changedFile() throws {
        let count = 2 * JSONLTraceIndex.blockSize
        let path = try write(Self.text(samples: count))
        let streamed = try StreamedJSONLTrace(path: path)
        _ = try streamed.traceSample(at: 0)
        // Rewritten in place (same inode): the second block is gone.
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(Self.text(samples: 10).utf8))
        try handle.close()
        #expect(throws: TraceError.self) { _ = try streamed.traceSample(at: JSONLTraceIndex.blockSize + 1) }
    }

    @Test("A JSONL file is summed up as a stream exactly as when read whole (trace info)")
    func summary() throws {
        let text = Self.text(samples: 2500)
        let path = try write(text)
        let (summary, format) = try TraceLoader.summarize(path: path)
        #expect(format == .sextant)
        #expect(summary == TraceSummary(try SextantTraceFormat.read(text, path: path)))
    }
}
