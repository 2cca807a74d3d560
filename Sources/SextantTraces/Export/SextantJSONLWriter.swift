import SextantCore

/// Sextant JSONL, the only format that holds every sample.
extension SextantTraceFormat: TraceWriterFormat {
    static let name = "sextant"
    static let extensions = ["jsonl", "trace"]
    static let holdsOnlyLocations = false

    /// A line a sample, as `write(_:sensors:)` puts it.
    static func write(_ trace: some ReplayableTrace, to output: ExportOutput) throws(TraceExportError) -> Int {
        try output.write(header(start: trace.start, profile: trace.profile) + "\n")
        var locations = 0
        try trace.forEachSample { sample throws(TraceExportError) in
            if case .location = sample.value { locations += 1 }
            try output.write(line(offset: sample.offset, value: sample.value) + "\n")
        }
        return locations
    }
}

extension TraceExportFormat {
    public static let sextant = TraceExportFormat(SextantTraceFormat.self)
}
