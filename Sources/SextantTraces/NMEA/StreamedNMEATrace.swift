#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SextantCore
import SextantProtocol

/// An NMEA log played from its file, as `StreamedJSONLTrace` plays a JSONL one: a checking
/// pass reads every line (as `NMEAReader.stream` does for `trace info`) and keeps, every
/// `blockSize` samples or so, a checkpoint: the byte and number of the next line and the
/// state the reading was in after the line before it; samples are then decoded a block at
/// a time from the checkpoint before them, as the replay asks for them.
///
/// A checkpoint is the whole state of the reading, because an NMEA sample depends on the
/// lines before it: the epoch still being assembled (its sentences may span the block's
/// first lines), the instant the next time of day is dated nearest to (midnight, a later
/// date), the last fix (offsets of a log glued from several recordings) and the log's
/// `# Date:` comment. It is taken only where the timeline holds no event back, so it is
/// small (a few hundred bytes: no sample, no list of epochs). The epochs before the log's
/// first date are dated backwards from it: they are handed out all at once when it comes,
/// so a block may be bigger than `blockSize` by as many (up to `NMEAStreamedTimeline`'s
/// 4,096); past that, the log is read twice and the second pass keeps their instants,
/// 8 bytes an epoch, shared by every checkpoint.
///
/// The file stays open while it plays. A file changed in place is noticed when a block no
/// longer reads as it did (its count or its first offset): `traceSample(at:)` then throws.
/// Read from any thread, as `StreamedJSONLTrace`.
public final class StreamedNMEATrace: ReplayableTrace {
    /// Where a block starts: its first line, the reading's state before that line, and
    /// its first sample's index and offset.
    struct BlockStart: Sendable {
        var byte: Int64
        var line: Int
        var firstSample: Int
        var firstOffset: Int64
        var state: NMEAReader.PassState
    }

    /// Samples per block, at least (see above): what a replay holds decoded at a time.
    public static let blockSize = 1024

    public let path: String
    public let start: Timestamp
    public let sampleCount: Int
    public let durationNanoseconds: Int64
    public var profile: DeviceProfile? { nil }
    /// The lines the checking pass skipped, by reason (`NMEALineProblem`).
    public let skipped: [String: Int]
    let blocks: [BlockStart]
    private let fd: Int32
    private let decoded = DecodedBlock()

    /// Checks the whole log (a file without a single sentence is refused with its first
    /// line, as `NMEAReader.read` refuses it) and keeps it open to play.
    public convenience init(path: String) throws(TraceLoadError) {
        try self.init(path: path, pendingLimit: 4_096, blockSize: Self.blockSize)
    }

    /// `pendingLimit`: epochs held before the first date before the log is read twice;
    /// `blockSize`: samples between checkpoints, at least (tests take small ones).
    init(path: String, pendingLimit: Int, blockSize: Int) throws(TraceLoadError) {
        let fd = try TraceFile.openRegular(path: path)
        do {
            var index = try Self.index(fd: fd, path: path, timeline: NMEAStreamedTimeline(pendingLimit: pendingLimit), blockSize: blockSize)
            // Too many epochs before the first date: read again, knowing their instants.
            if index.start == nil { index = try Self.index(fd: fd, path: path, timeline: index.secondPass, blockSize: blockSize) }
            start = index.start ?? Timestamp(nanoseconds: 0)
            sampleCount = index.count
            durationNanoseconds = index.lastOffset
            blocks = index.blocks
            skipped = index.skipped
        } catch {
            close(fd)
            throw .invalid(error)
        }
        self.path = path
        self.fd = fd
    }

    deinit { close(fd) }

    public func traceSample(at position: Int) throws(TraceError) -> TraceSample {
        let wanted = blockNumber(holding: position)
        return try decoded.with(wanted, decode: decode) { $0[position - blocks[wanted].firstSample] }
    }

    public func firstIndex(atOrAfter offset: Int64) throws(TraceError) -> Int {
        // The last block that starts before `offset` holds the answer, or it is the first
        // sample of the block after it (offsets never decrease).
        var low = 0, high = blocks.count
        while low < high {
            let middle = (low + high) / 2
            if blocks[middle].firstOffset < offset { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return 0 }
        let within = try decoded.with(low - 1, decode: decode) { samples in samples.firstIndex { $0.offset >= offset } ?? samples.count }
        return blocks[low - 1].firstSample + within
    }

    /// The block whose samples include `position`.
    private func blockNumber(holding position: Int) -> Int {
        var low = 0, high = blocks.count
        while low < high {
            let middle = (low + high) / 2
            if blocks[middle].firstSample <= position { low = middle + 1 } else { high = middle }
        }
        return max(0, low - 1)
    }

    /// Decodes block `number` from its checkpoint, checking that it is still what the
    /// checking pass saw.
    private func decode(_ number: Int) throws(TraceError) -> [TraceSample] {
        let mark = blocks[number]
        let isLast = number == blocks.count - 1
        let expected = (isLast ? sampleCount : blocks[number + 1].firstSample) - mark.firstSample
        var state = mark.state
        var loaded: [TraceSample] = []
        loaded.reserveCapacity(expected)
        var line = mark.line
        try NMEAReader.readLines(&state, fd: fd, path: path, from: mark.byte, firstLine: mark.line, { loaded.append($0) }) { _, _, next in
            line = next
            return loaded.count < expected
        }
        if isLast, loaded.count < expected { _ = try NMEAReader.finish(&state, path: path) { loaded.append($0) } }
        guard loaded.count == expected, loaded.first?.offset == mark.firstOffset else {
            throw TraceError(path: path, line: max(mark.line, line - 1), reason: "the file changed since it was checked (it was replaced or rewritten while it played)")
        }
        return loaded
    }

    /// What one checking pass learnt: `start` is nil when the log must be read again
    /// with `secondPass`.
    private struct Index {
        var start: Timestamp?
        var count = 0
        var lastOffset: Int64 = 0
        var skipped: [String: Int] = [:]
        var blocks: [BlockStart]
        let blockSize: Int
        var secondPass: NMEAStreamedTimeline
        /// No sample since the last checkpoint yet: its first offset is still to come.
        var awaitingFirst = true

        mutating func add(_ sample: TraceSample) {
            if awaitingFirst {
                blocks[blocks.count - 1].firstOffset = sample.offset
                awaitingFirst = false
            }
            count += 1
            lastOffset = sample.offset
        }

        /// After a line: a checkpoint when a block's worth has come since the last one and
        /// the timeline holds nothing back.
        mutating func lineRead(_ state: NMEAReader.PassState, nextByte: Int64, nextLine: Int) {
            guard !awaitingFirst, count - blocks[blocks.count - 1].firstSample >= blockSize, state.timeline.holdsNoEvents else { return }
            var checkpoint = state
            checkpoint.reader.skipped = [:]  // what `trace info` counts, not needed to play
            blocks.append(BlockStart(byte: nextByte, line: nextLine, firstSample: count, firstOffset: 0, state: checkpoint))
            awaitingFirst = true
        }
    }

    /// One checking pass over the whole log.
    private static func index(fd: Int32, path: String, timeline: NMEAStreamedTimeline, blockSize: Int) throws(TraceError) -> Index {
        var state = NMEAReader.PassState(timeline: timeline)
        var index = Index(blocks: [BlockStart(byte: 0, line: 1, firstSample: 0, firstOffset: 0, state: state)], blockSize: blockSize, secondPass: timeline)
        try NMEAReader.readLines(&state, fd: fd, path: path, { index.add($0) }) { state, byte, line in
            index.lineRead(state, nextByte: byte, nextLine: line)
            return true
        }
        index.start = try NMEAReader.finish(&state, path: path) { index.add($0) }
        index.skipped = state.reader.skipped
        if index.start == nil { index.secondPass = state.secondPassTimeline() }
        // A checkpoint with no sample after it is no block.
        if index.awaitingFirst { index.blocks.removeLast() }
        return index
    }
}
