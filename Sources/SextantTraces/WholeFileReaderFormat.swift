/// A format read whole into memory (GeoJSON, KML: a document whose samples depend on all
/// of it), up to `TraceLoader.maximumFileSize`: it replays and is summarized from `read`.
protocol WholeFileReaderFormat: TraceReaderFormat {}

extension WholeFileReaderFormat {
    func openForReplay(path: String, options: TraceLoadOptions) throws(TraceLoadError) -> any ReplayableTrace {
        let bytes = try TraceFile.read(path: path, limit: TraceLoader.maximumFileSize)
        do {
            return try bytes.withUnsafeBufferPointer { buffer throws(TraceError) in try read(buffer, path: path, options: options) }
        } catch {
            throw .invalid(error)
        }
    }

    func summarize(fd: Int32, path: String, options: TraceLoadOptions) throws(TraceError) -> TraceSummary {
        let bytes: [UInt8]
        do {
            bytes = try TraceFile.read(path: path, limit: TraceLoader.maximumFileSize)
        } catch {
            throw TraceError(path: path, line: 1, reason: "\(error)")
        }
        return TraceSummary(try bytes.withUnsafeBufferPointer { buffer throws(TraceError) in try read(buffer, path: path, options: options) })
    }
}
