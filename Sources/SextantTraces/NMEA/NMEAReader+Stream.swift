#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SextantCore
import SextantProtocol

extension NMEAReader {
    /// Reads an NMEA log from an open file through one bounded buffer (`FileLines`),
    /// handing each sample to `sink` as soon as the lines after it settle it
    /// (`NMEAStreamedTimeline`), the samples `read` would give, in its order. Answers
    /// what `read`'s trace has beside its samples: its start and its skipped lines.
    ///
    /// Bad input fails as `read` does: a file without a sentence, with the line of its
    /// first content. A line longer than `FileLines.bufferSize` (1 MiB) is refused. More
    /// than `pendingLimit` epochs before the log's first date make it read twice.
    /// Without `satellites`, every `sky` sample is empty (GSV and GSA checked, their
    /// satellites not kept): for a sink that only counts samples, as a summary does.
    static func stream(
        fd: Int32, path: String, pendingLimit: Int = 4_096, satellites: Bool = true, _ sink: (TraceSample) -> Void
    ) throws(TraceError) -> Trace {
        let reader = LineReader(satellites: satellites)
        let first = try pass(fd: fd, path: path, state: PassState(reader: reader, timeline: NMEAStreamedTimeline(pendingLimit: pendingLimit)), sink)
        if let start = first.start { return Trace(start: start, samples: [], skipped: first.state.reader.skipped) }
        // Too many epochs before the first date: read again, knowing their instants.
        let second = try pass(fd: fd, path: path, state: PassState(reader: reader, timeline: first.state.secondPassTimeline()), sink)
        return Trace(start: second.start ?? Timestamp(nanoseconds: 0), samples: [], skipped: second.state.reader.skipped)
    }

    /// One pass over the file from `state`; `start` is nil when the timeline needs a second one.
    private static func pass(
        fd: Int32, path: String, state: PassState, _ sink: (TraceSample) -> Void
    ) throws(TraceError) -> (start: Timestamp?, state: PassState) {
        var state = state
        try readLines(&state, fd: fd, path: path, sink) { _, _, _ in true }
        return (try finish(&state, path: path, sink), state)
    }

    /// Where a pass over a log stands between two lines: all it needs to go on from the
    /// next line as if it had read the ones before (a value: a copy is a checkpoint).
    struct PassState: Sendable {
        var reader = LineReader()
        var timeline: NMEAStreamedTimeline

        /// The timeline of the second pass, when this (first) pass's needs one.
        func secondPassTimeline() -> NMEAStreamedTimeline { timeline.secondPass(commentDate: reader.commentDate) }
    }

    /// Reads the lines from byte `from` (line number `firstLine`) on, samples to `sink`;
    /// after each line `afterLine` sees the state, the byte and the number of the next
    /// line, and says whether to go on.
    static func readLines(
        _ state: inout PassState, fd: Int32, path: String, from: Int64 = 0, firstLine: Int = 1, _ sink: (TraceSample) -> Void,
        afterLine: (inout PassState, Int64, Int) -> Bool
    ) throws(TraceError) {
        try FileLines.forEach(fd: fd, path: path, from: from, firstNumber: firstLine) { line, number, byte in
            state.reader.read(line[...], number: number)
            state.reader.assembler.drain { state.timeline.add($0, sink) }
            return afterLine(&state, byte + Int64(line.count) + 1, number + 1)
        }
    }

    /// The end of the log: its last samples to `sink`; answers the instant offset 0 stands
    /// for, nil when the timeline needs a second pass. A log without a sentence throws.
    static func finish(_ state: inout PassState, path: String, _ sink: (TraceSample) -> Void) throws(TraceError) -> Timestamp? {
        guard state.reader.sentences > 0 else { throw state.reader.noSentenceError(path: path) }
        for event in state.reader.assembler.finish() { state.timeline.add(event, sink) }
        return state.timeline.finish(commentDate: state.reader.commentDate, sink)
    }
}
