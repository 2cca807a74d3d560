#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

import SextantCore
import SextantProtocol

/// Reads a JSONL trace one physical line at a time: the header first, then samples, whose
/// times may not go back. It keeps nothing of the lines it has read but the header and the
/// last time, so that the same reader serves a whole file in memory
/// (`SextantTraceFormat.read`), the checking pass over a file that keeps no samples
/// (`JSONLTraceIndex`) and the reading of a stretch of it as a replay plays
/// (`StreamedJSONLTrace`).
struct JSONLLineReader {
    let path: String
    /// The sensor kinds its lines may carry.
    let sensors: SensorKindTable
    /// The record kinds its lines may carry.
    let records: RecordKindTable
    /// The header's start and profile, once its line has been read.
    private(set) var header: Trace?
    private var lastOffset: Int64 = 0
    /// Samples read so far.
    private var samplesRead = 0
    /// The control lines read so far (`TraceControl`), in order.
    private(set) var controls: [TraceControl] = []

    init(path: String, header: Trace? = nil, sensors: SensorKindTable = SensorKinds.all, records: RecordKindTable = RecordKinds.all) {
        self.path = path
        self.sensors = sensors
        self.records = records
        self.header = header
    }

    /// The sample on a line (without its newline), or nil for the header, a blank line or
    /// a comment. A sample line of the usual shape is read by `SampleLineFastPath`; any
    /// other line, and any line that path turns down, by the general JSON parser.
    mutating func read(_ bytes: UnsafeBufferPointer<UInt8>, number: Int) throws(TraceError) -> TraceSample? {
        var line = bytes
        if line.last == UInt8(ascii: "\r") { line = UnsafeBufferPointer(rebasing: line.dropLast()) }
        if let start = header?.start, line.first == UInt8(ascii: "{"), let sample = SampleLineFastPath.read(line, start: start, sensors: sensors) {
            return try accept(sample, line: number)
        }
        if line.allSatisfy({ $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }) || line.first == UInt8(ascii: "#") { return nil }
        func fail(_ reason: String) -> TraceError { TraceError(path: path, line: number, reason: reason) }
        guard let text = String(validating: line, as: UTF8.self) else { throw fail("not UTF-8 text") }
        let value: JSONValue
        do { value = try JSONValue.parse(text) } catch { throw fail("not JSON: \(error)") }
        guard case .object(let o) = value else { throw fail("a line must be a JSON object") }
        guard let start = header?.start else {
            header = try SextantTraceFormat.readHeader(o, fail: fail)
            return nil
        }
        if o["control"] != nil {
            let (offset, method, params) = try SextantTraceFormat.readControl(o, start: start, sensors: sensors, records: records, fail: fail)
            try advance(to: offset, line: number)
            guard controls.count < TraceControl.maximumCount else { throw fail("more than \(TraceControl.maximumCount) control lines") }
            controls.append(TraceControl(offset: offset, beforeSample: samplesRead, method: method, params: params, path: path, line: number))
            return nil
        }
        let (offset, sampleValue) = try SextantTraceFormat.readSample(o, start: start, sensors: sensors, records: records, fail: fail)
        return try accept(TraceSample(offset: offset, value: sampleValue), line: number)
    }

    /// The sample, if its time does not go back.
    private mutating func accept(_ sample: TraceSample, line: Int) throws(TraceError) -> TraceSample {
        try advance(to: sample.offset, line: line)
        samplesRead += 1
        return sample
    }

    /// A line's time, if it does not go back.
    private mutating func advance(to offset: Int64, line: Int) throws(TraceError) {
        guard offset >= lastOffset else {
            throw TraceError(
                path: path, line: line,
                reason: "\"t\" goes back in time (\(Double(offset) / 1e9) after \(Double(lastOffset) / 1e9))")
        }
        lastOffset = offset
    }

    /// The header, after the last of `lines` lines: a trace without one is refused.
    func finish(lines: Int) throws(TraceError) -> Trace {
        guard let header else { throw TraceError(path: path, line: max(lines, 1), reason: "empty trace: no header line") }
        return header
    }
}

/// Splitting bytes into physical lines (`\n`; a `\r` before it is the reader's to drop).
enum JSONLLines {
    /// Calls `body` with each line of `bytes` and its 1-based number; answers how many
    /// lines there were. A last line without a newline is a line; an empty file has none.
    @discardableResult
    static func forEach(
        in bytes: UnsafeBufferPointer<UInt8>, firstNumber: Int = 1,
        _ body: (UnsafeBufferPointer<UInt8>, Int) throws(TraceError) -> Void
    ) throws(TraceError) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        var number = firstNumber
        var start = 0
        while start < bytes.count {
            let end = newline(in: base, from: start, to: bytes.count) ?? bytes.count
            try body(UnsafeBufferPointer(start: base + start, count: end - start), number)
            number += 1
            start = end + 1
        }
        return number - firstNumber
    }

    /// The index of the next `\n` in `base[from..<to]`, found by memchr.
    static func newline(in base: UnsafePointer<UInt8>, from: Int, to: Int) -> Int? {
        guard from < to, let found = memchr(base + from, 0x0A, to - from) else { return nil }
        return base.distance(to: found.assumingMemoryBound(to: UInt8.self))
    }

    /// How many lines `bytes` holds.
    static func count(in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = bytes.baseAddress else { return 0 }
        var lines = 0
        var start = 0
        while let end = newline(in: base, from: start, to: bytes.count) {
            lines += 1
            start = end + 1
        }
        return start < bytes.count ? lines + 1 : lines
    }
}
