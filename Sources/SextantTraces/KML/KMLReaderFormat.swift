/// KML 2.2 (`KMLReader`), read whole.
struct KMLReaderFormat: WholeFileReaderFormat {
    var name: String { "kml" }
    var extensions: [String] { ["kml"] }

    /// Not by its first bytes: `<` starts a GPX file too, which `gpx` claims first.
    func looksLike(_ head: ArraySlice<UInt8>) -> Bool { false }

    func read(_ bytes: UnsafeBufferPointer<UInt8>, path: String, options: TraceLoadOptions) throws(TraceError) -> Trace {
        try KMLReader.read(bytes, path: path, options: options)
    }
}

extension TraceFormat {
    public static let kml = TraceFormat(KMLReaderFormat())
}
