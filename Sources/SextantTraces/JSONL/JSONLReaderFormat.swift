/// Sextant's own JSONL traces: a header line, then a sample a line. Replayed and
/// summarized as a stream (`StreamedJSONLTrace`, `JSONLTraceIndex`), whatever the size.
struct JSONLReaderFormat: TraceReaderFormat {
    var name: String { "sextant" }
    var extensions: [String] { ["jsonl", "json", "trace"] }

    func looksLike(_ head: ArraySlice<UInt8>) -> Bool { head.first == UInt8(ascii: "{") }

    func read(_ bytes: UnsafeBufferPointer<UInt8>, path: String, options: TraceLoadOptions) throws(TraceError) -> Trace {
        try SextantTraceFormat.read(bytes, path: path)
    }

    func openForReplay(path: String, options: TraceLoadOptions) throws(TraceLoadError) -> any ReplayableTrace {
        try StreamedJSONLTrace(path: path)
    }

    func summarize(fd: Int32, path: String, options: TraceLoadOptions) throws(TraceError) -> TraceSummary {
        var tally = TraceSummary.Tally()
        let index = try JSONLTraceIndex(fd: fd, path: path) { tally.add($0) }
        return tally.summary(of: index.header)
    }
}

extension TraceFormat {
    public static let sextant = TraceFormat(JSONLReaderFormat())
}
