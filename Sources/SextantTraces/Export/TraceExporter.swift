import SextantCore

/// Writes a trace in any export format, as it reads it: samples are taken one at a time
/// from the trace (a `StreamedJSONLTrace` reads them from its file) and the text goes out
/// through a bounded buffer (`ExportOutput`), so that neither the trace nor the output is
/// ever held whole.
public enum TraceExporter {
    /// The trace's text in `format`, in memory.
    public static func render(_ trace: Trace, as format: TraceExportFormat) -> String {
        let output = ExportOutput()
        do {
            try write(trace, as: format, to: output)
        } catch {
            // A trace in memory has nothing to read that can fail, nor has an output in memory.
            preconditionFailure("rendering a trace in memory failed: \(error)")
        }
        return output.text
    }

    /// Writes the trace to `path` whole or not at all (`AtomicFile`): a sample that cannot
    /// be read (a streamed trace's file changed) throws with its file and line, and leaves
    /// `path` as it was.
    /// - Returns: how many samples the format could not hold.
    @discardableResult
    public static func write(
        _ trace: some ReplayableTrace, as format: TraceExportFormat, to path: String, bufferSize: Int = ExportOutput.defaultCapacity
    ) throws(TraceExportError) -> Int {
        var locations = 0
        try AtomicFile.write(to: path, bufferSize: bufferSize) { output throws(TraceExportError) in
            locations = try write(trace, as: format, to: output)
        }
        return format.holdsOnlyLocations ? trace.sampleCount - locations : 0
    }

    /// - Returns: how many locations the trace holds.
    @discardableResult
    static func write(_ trace: some ReplayableTrace, as format: TraceExportFormat, to output: ExportOutput) throws(TraceExportError) -> Int {
        try format.writer.write(trace, to: output)
    }
}

extension ReplayableTrace {
    /// Calls `body` with every sample in order, reading a streamed trace as it goes; a
    /// sample that cannot be read throws its file, line and reason.
    func forEachSample(_ body: (TraceSample) throws(TraceExportError) -> Void) throws(TraceExportError) {
        for index in 0..<sampleCount {
            let sample: TraceSample
            do { sample = try traceSample(at: index) } catch { throw TraceExportError(error.description) }
            try body(sample)
        }
    }

    /// Calls `body` with every location fix and its offset, in order.
    /// - Returns: how many there were.
    @discardableResult
    func forEachLocation(_ body: (Int64, LocationFix) throws(TraceExportError) -> Void) throws(TraceExportError) -> Int {
        var count = 0
        try forEachSample { sample throws(TraceExportError) in
            guard case .location(let fix) = sample.value else { return }
            count += 1
            try body(sample.offset, fix)
        }
        return count
    }

    /// Whether a location fix satisfies `predicate`, reading no further than the first that does.
    func containsLocation(where predicate: (LocationFix) -> Bool) throws(TraceExportError) -> Bool {
        for index in 0..<sampleCount {
            let sample: TraceSample
            do { sample = try traceSample(at: index) } catch { throw TraceExportError(error.description) }
            if case .location(let fix) = sample.value, predicate(fix) { return true }
        }
        return false
    }
}
