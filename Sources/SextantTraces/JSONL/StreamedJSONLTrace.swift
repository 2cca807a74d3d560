#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SextantCore
import SextantProtocol

/// What a replay plays: samples by index, in time order, without needing them all in
/// memory. A `Trace` (NMEA, GPX, a trace built in a test) holds them; a
/// `StreamedJSONLTrace` reads them from its file as they are asked for.
public protocol ReplayableTrace: Sendable {
    var start: Timestamp { get }
    var profile: DeviceProfile? { get }
    var sampleCount: Int { get }
    /// Nanoseconds from the start to the last sample.
    var durationNanoseconds: Int64 { get }
    /// Sample `index` (< `sampleCount`). A streamed trace throws if its file no longer
    /// holds what it held when it was checked.
    func traceSample(at index: Int) throws(TraceError) -> TraceSample
    /// The index of the first sample at or after `offset`; `sampleCount` if none.
    func firstIndex(atOrAfter offset: Int64) throws(TraceError) -> Int
    /// Lines a lenient reader skipped (NMEA), by reason, as `Trace.skipped`.
    var skipped: [String: Int] { get }
    /// Its control actions (a JSONL trace's control lines), in order, held in memory.
    var controls: [TraceControl] { get }
    /// Whether a fix's own time (`LocationFix.time`) may be older than its place in the
    /// trace (a GnssLogger fix written late, with the time the phone gave it): a replay
    /// then stamps it that much earlier than its place. Otherwise a fix's time is its place.
    var fixesKeepOwnTime: Bool { get }
}

extension ReplayableTrace {
    public var skipped: [String: Int] { [:] }
    public var controls: [TraceControl] { [] }
    public var fixesKeepOwnTime: Bool { false }
}

extension Trace: ReplayableTrace {
    public var sampleCount: Int { samples.count }

    public func traceSample(at index: Int) -> TraceSample { samples[index] }

    public func firstIndex(atOrAfter offset: Int64) -> Int {
        var low = 0, high = samples.count
        while low < high {
            let middle = (low + high) / 2
            if samples[middle].offset < offset { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

/// A JSONL trace played from its file: a checking pass (`JSONLTraceIndex`) has read every
/// line and kept only where every `blockSize`-th sample starts; samples are then parsed a
/// block at a time as they are asked for, so that the memory a replay takes does not grow
/// with the trace (one block of samples, one read buffer while a block loads).
///
/// The file stays open, so a trace renamed or removed while it plays plays on. A file
/// changed in place is noticed when a block no longer reads as it did (its count, its
/// first time, or a line that is now bad): `traceSample(at:)` then throws.
///
/// Built on the daemon's file thread, then read on the event loop: the block it holds is
/// a `DecodedBlock`.
public final class StreamedJSONLTrace: ReplayableTrace {
    public let path: String
    public let index: JSONLTraceIndex
    private let fd: Int32
    private let decoded = DecodedBlock()

    /// Checks the whole file (every line, as `SextantTraceFormat.read` would) and keeps
    /// it open to play. A bad line throws before anything plays.
    public init(path: String) throws(TraceLoadError) {
        let fd = try TraceFile.openRegular(path: path)
        do {
            index = try JSONLTraceIndex(fd: fd, path: path)
        } catch {
            close(fd)
            throw .invalid(error)
        }
        self.path = path
        self.fd = fd
    }

    deinit { close(fd) }

    public var start: Timestamp { index.header.start }
    public var profile: DeviceProfile? { index.header.profile }
    public var sampleCount: Int { index.sampleCount }
    public var durationNanoseconds: Int64 { index.lastOffset }
    public var controls: [TraceControl] { index.controls }

    public func traceSample(at position: Int) throws(TraceError) -> TraceSample {
        let wanted = position / JSONLTraceIndex.blockSize
        return try decoded.with(wanted, decode: decode) { $0[position - wanted * JSONLTraceIndex.blockSize] }
    }

    public func firstIndex(atOrAfter offset: Int64) throws(TraceError) -> Int {
        // The last block that starts before `offset` holds the answer, or it is the
        // first sample of the block after it.
        let starts = index.blocks
        var low = 0, high = starts.count
        while low < high {
            let middle = (low + high) / 2
            if starts[middle].offset < offset { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return 0 }
        let candidate = low - 1
        let within = try decoded.with(candidate, decode: decode) { samples in samples.firstIndex { $0.offset >= offset } ?? samples.count }
        return candidate * JSONLTraceIndex.blockSize + within
    }

    /// Reads block `number` from the file, checking that it is still what the checking
    /// pass saw.
    private func decode(_ number: Int) throws(TraceError) -> [TraceSample] {
        let mark = index.blocks[number]
        let expected = min(JSONLTraceIndex.blockSize, index.sampleCount - number * JSONLTraceIndex.blockSize)
        var reader = JSONLLineReader(path: path, header: index.header)
        var loaded: [TraceSample] = []
        loaded.reserveCapacity(expected)
        var lastLine = mark.line
        try FileLines.forEach(fd: fd, path: path, from: mark.byte, firstNumber: mark.line) { line, number, _ throws(TraceError) in
            lastLine = number
            if let sample = try reader.read(line, number: number) { loaded.append(sample) }
            return loaded.count < expected
        }
        guard loaded.count == expected, loaded.first?.offset == mark.offset else {
            throw TraceError(path: path, line: lastLine, reason: "the file changed since it was checked (it was replaced or rewritten while it played)")
        }
        return loaded
    }
}

/// What the checking pass over a JSONL file keeps: its header, how many samples, the last
/// time, and where each block of `blockSize` samples starts (byte, line, time) — about
/// 24 bytes per 1024 samples.
public struct JSONLTraceIndex: Sendable {
    public struct BlockStart: Sendable, Equatable {
        public var byte: Int64
        public var line: Int
        public var offset: Int64
    }

    /// Samples per block: what a streamed replay holds parsed at a time.
    public static let blockSize = 1024

    public private(set) var header: Trace
    public private(set) var sampleCount = 0
    public private(set) var lastOffset: Int64 = 0
    public private(set) var blocks: [BlockStart] = []
    /// The control lines, kept whole.
    public private(set) var controls: [TraceControl] = []

    /// Reads every line of the open file; nothing is kept of the samples but the blocks'
    /// starts. `each`, if given, sees every sample in order (`trace info` sums them up).
    public init(fd: Int32, path: String, each: ((TraceSample) -> Void)? = nil) throws(TraceError) {
        var reader = JSONLLineReader(path: path)
        var count = 0
        var last: Int64 = 0
        var blocks: [BlockStart] = []
        let lines = try FileLines.forEach(fd: fd, path: path) { line, number, byte throws(TraceError) in
            guard let sample = try reader.read(line, number: number) else { return true }
            if count % Self.blockSize == 0 { blocks.append(BlockStart(byte: byte, line: number, offset: sample.offset)) }
            count += 1
            last = sample.offset
            each?(sample)
            return true
        }
        header = try reader.finish(lines: lines)
        controls = reader.controls
        sampleCount = count
        lastOffset = last
        self.blocks = blocks
    }
}
