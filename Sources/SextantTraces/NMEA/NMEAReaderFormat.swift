/// NMEA 0183 logs (`NMEAReader`): replayed and summarized as a stream
/// (`StreamedNMEATrace`, `NMEAStreamedTimeline`), whatever the size.
struct NMEAReaderFormat: TraceReaderFormat {
    var name: String { "nmea" }
    var extensions: [String] { ["nmea", "log"] }

    /// `$` starts a sentence, `!` an encapsulated one (AIS).
    func looksLike(_ head: ArraySlice<UInt8>) -> Bool { head.first == UInt8(ascii: "$") || head.first == UInt8(ascii: "!") }

    func read(_ bytes: UnsafeBufferPointer<UInt8>, path: String, options: TraceLoadOptions) throws(TraceError) -> Trace {
        try NMEAReader.read(bytes, path: path).get()
    }

    func openForReplay(path: String, options: TraceLoadOptions) throws(TraceLoadError) -> any ReplayableTrace {
        try StreamedNMEATrace(path: path)
    }

    func summarize(fd: Int32, path: String, options: TraceLoadOptions) throws(TraceError) -> TraceSummary {
        var tally = TraceSummary.Tally()
        // The summary counts sky samples and never looks into them: spare decoding their satellites.
        let header = try NMEAReader.stream(fd: fd, path: path, satellites: false) { tally.add($0) }
        return tally.summary(of: header)
    }
}

extension TraceFormat {
    public static let nmea = TraceFormat(NMEAReaderFormat())
}
