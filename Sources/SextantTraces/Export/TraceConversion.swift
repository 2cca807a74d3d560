#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What `sextantctl trace convert` did: one trace file read as a stream and written in
/// another format, whole or not at all.
public struct TraceConversion: Sendable {
    /// The input's format.
    public var format: TraceFormat
    public var samples: Int
    /// Seconds from the start to the last sample.
    public var duration: Double
    /// Samples the output format could not hold (those that are not locations).
    public var leftOut: Int
    /// Lines a lenient reader skipped, by reason.
    public var skipped: [String: Int]

    /// Converts `input` to `output` in `format`. The input is opened as for a replay
    /// (`TraceLoader.openForReplay`): a JSONL file is checked whole first, so that a bad
    /// line anywhere fails before the output is touched, then read again as it is written,
    /// a block of samples at a time. Throws `TraceLoadError` for the input (its file and
    /// line) and `TraceExportError` for the output; either way `output` is left as it was.
    public static func convert(
        input: String, output: String, as format: TraceExportFormat, options: TraceLoadOptions = TraceLoadOptions(),
        bufferSize: Int = ExportOutput.defaultCapacity
    ) throws -> TraceConversion {
        let inputFormat = try detectFormat(path: input)
        let trace = try TraceLoader.openForReplay(path: input, options: options)
        let leftOut = try TraceExporter.write(trace, as: format, to: output, bufferSize: bufferSize)
        return TraceConversion(
            format: inputFormat, samples: trace.sampleCount, duration: Double(trace.durationNanoseconds) / 1e9, leftOut: leftOut,
            skipped: trace.skipped)
    }

    /// The format of a file, by its extension or its first bytes (`TraceFormats.detect`).
    static func detectFormat(path: String) throws(TraceLoadError) -> TraceFormat {
        let fd = try TraceFile.openRegular(path: path)
        defer { close(fd) }
        return TraceFormats.detect(path: path, fd: fd).format
    }
}
