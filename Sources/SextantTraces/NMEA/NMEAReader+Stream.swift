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
    static func stream(fd: Int32, path: String, pendingLimit: Int = 4_096, _ sink: (TraceSample) -> Void) throws(TraceError) -> Trace {
        let first = try pass(fd: fd, path: path, timeline: NMEAStreamedTimeline(pendingLimit: pendingLimit), sink)
        if let start = first.start { return Trace(start: start, samples: [], skipped: first.skipped) }
        // Too many epochs before the first date: read again, knowing their instants.
        let second = try pass(fd: fd, path: path, timeline: first.timeline.secondPass(commentDate: first.commentDate), sink)
        return Trace(start: second.start ?? Timestamp(nanoseconds: 0), samples: [], skipped: second.skipped)
    }

    /// One pass over the file; `start` is nil when the timeline needs a second one.
    private static func pass(
        fd: Int32, path: String, timeline: NMEAStreamedTimeline, _ sink: (TraceSample) -> Void
    ) throws(TraceError) -> (start: Timestamp?, skipped: [String: Int], commentDate: NMEADate?, timeline: NMEAStreamedTimeline) {
        var reader = LineReader()
        var timeline = timeline
        try FileLines.forEach(fd: fd, path: path) { line, number, _ in
            reader.read(line[...], number: number)
            reader.assembler.drain { timeline.add($0, sink) }
            return true
        }
        guard reader.sentences > 0 else { throw reader.noSentenceError(path: path) }
        for event in reader.assembler.finish() { timeline.add(event, sink) }
        let start = timeline.finish(commentDate: reader.commentDate, sink)
        return (start, reader.skipped, reader.commentDate, timeline)
    }
}
