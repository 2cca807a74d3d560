import Foundation

/// GPX 1.1 (`GPXReader`): tracks, else routes, else waypoints, walked at
/// `TraceLoadOptions.gpxSpeed` where they carry no times. Read into memory to replay
/// (`StreamedGPXTrace`), up to `TraceLoader.maximumFileSize`.
struct GPXReaderFormat: TraceReaderFormat {
    var name: String { "gpx" }
    var extensions: [String] { ["gpx"] }

    func looksLike(_ head: ArraySlice<UInt8>) -> Bool { head.first == UInt8(ascii: "<") }

    func read(_ bytes: UnsafeBufferPointer<UInt8>, path: String, options: TraceLoadOptions) throws(TraceError) -> Trace {
        guard let base = bytes.baseAddress else { return try GPXReader.read(Data(), path: path, speed: options.gpxSpeed, interval: options.gpxInterval) }
        let data = Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: bytes.count, deallocator: .none)
        return try GPXReader.read(data, path: path, speed: options.gpxSpeed, interval: options.gpxInterval)
    }

    func openForReplay(path: String, options: TraceLoadOptions) throws(TraceLoadError) -> any ReplayableTrace {
        try StreamedGPXTrace(path: path, options: options)
    }

    func summarize(fd: Int32, path: String, options: TraceLoadOptions) throws(TraceError) -> TraceSummary {
        var tally = TraceSummary.Tally()
        let start = try StreamedGPXTrace.read(fd: fd, path: path, options: options) { tally.add($0) }
        return tally.summary(of: Trace(start: start))
    }
}

extension TraceFormat {
    public static let gpx = TraceFormat(GPXReaderFormat())
}
