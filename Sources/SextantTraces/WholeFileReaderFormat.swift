/// A format read whole into memory (GeoJSON, KML: a document whose samples depend on all
/// of it), up to `TraceLoader.maximumDocumentSize`: it replays and is summarized from `read`.
protocol WholeFileReaderFormat: TraceReaderFormat {}

extension WholeFileReaderFormat {
    func openForReplay(path: String, options: TraceLoadOptions) throws(TraceLoadError) -> any ReplayableTrace {
        let bytes = try TraceFile.read(path: path, limit: TraceLoader.maximumDocumentSize, kind: TraceLoader.documentKind)
        do {
            return try bytes.withUnsafeBufferPointer { buffer throws(TraceError) in try read(buffer, path: path, options: options) }
        } catch {
            throw .invalid(error)
        }
    }

    func summarize(fd: Int32, path: String, options: TraceLoadOptions) throws(TraceError) -> TraceSummary {
        let bytes: [UInt8]
        do {
            bytes = try TraceFile.read(path: path, limit: TraceLoader.maximumDocumentSize, kind: TraceLoader.documentKind)
        } catch {
            throw TraceError(path: path, line: 1, reason: "\(error)")
        }
        return TraceSummary(try bytes.withUnsafeBufferPointer { buffer throws(TraceError) in try read(buffer, path: path, options: options) })
    }
}

/// A whole-file format that only its extension claims, read by its reader's `read`
/// (`TraceFormat.geojson`, `.kml`: their first bytes are another format's too).
struct WholeDocumentFormat: WholeFileReaderFormat {
    let name: String
    let extensions: [String]
    let reader: @Sendable (UnsafeBufferPointer<UInt8>, String, TraceLoadOptions) throws(TraceError) -> Trace

    func looksLike(_ head: ArraySlice<UInt8>) -> Bool { false }

    func read(_ bytes: UnsafeBufferPointer<UInt8>, path: String, options: TraceLoadOptions) throws(TraceError) -> Trace {
        try reader(bytes, path, options)
    }
}
