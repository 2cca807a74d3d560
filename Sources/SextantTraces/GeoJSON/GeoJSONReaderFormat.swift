/// GeoJSON (`GeoJSONReader`), read whole.
struct GeoJSONReaderFormat: WholeFileReaderFormat {
    var name: String { "geojson" }
    var extensions: [String] { ["geojson"] }

    /// Not by its first bytes: a JSON object is what a Sextant JSONL trace starts with too.
    func looksLike(_ head: ArraySlice<UInt8>) -> Bool { false }

    func read(_ bytes: UnsafeBufferPointer<UInt8>, path: String, options: TraceLoadOptions) throws(TraceError) -> Trace {
        try GeoJSONReader.read(bytes, path: path, options: options)
    }
}

extension TraceFormat {
    public static let geojson = TraceFormat(GeoJSONReaderFormat())
}
