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
    /// first content. A line longer than `FileLines.bufferSize` (1 MiB) is refused.
    static func stream(fd: Int32, path: String, _ sink: (TraceSample) -> Void) throws(TraceError) -> Trace {
        var reader = LineReader()
        var timeline = NMEAStreamedTimeline()
        try FileLines.forEach(fd: fd, path: path) { line, number, _ in
            reader.read(line[...], number: number)
            reader.assembler.drain { timeline.add($0, sink) }
            return true
        }
        guard reader.sentences > 0 else { throw reader.noSentenceError(path: path) }
        for event in reader.assembler.finish() { timeline.add(event, sink) }
        let start = timeline.finish(commentDate: reader.commentDate, sink)
        return Trace(start: start, samples: [], skipped: reader.skipped)
    }
}
