import SextantCore

/// A format traces are written in: a writer, registered once in `TraceExportFormat.allCases`.
protocol TraceWriterFormat: Sendable {
    /// What `--to` calls it.
    static var name: String { get }
    /// The extensions, lower case and without the dot, that choose it for an output path.
    static var extensions: [String] { get }
    /// Whether the format holds only locations (accelerometer, hinge and GPS state
    /// samples are left out).
    static var holdsOnlyLocations: Bool { get }
    /// Writes the trace as it reads it, in one pass.
    /// - Returns: how many samples it wrote: the locations, and the compass headings a
    ///   format that holds them wrote (NMEA).
    static func write(_ trace: some ReplayableTrace, to output: ExportOutput) throws(TraceExportError) -> Int
}

extension TraceWriterFormat {
    static var holdsOnlyLocations: Bool { true }
}

/// The formats `trace convert` and `trace route` write, chosen by the output's extension
/// or by name (`--to`).
public struct TraceExportFormat: Sendable, Hashable, CustomStringConvertible {
    let writer: any TraceWriterFormat.Type

    init(_ writer: any TraceWriterFormat.Type) { self.writer = writer }

    /// In the order `--to`'s error lists them and an extension is looked up in.
    public static let allCases: [TraceExportFormat] = [.sextant, .gpx, .geojson, .kml, .nmea]

    /// The format called `rawValue` (exactly), if any.
    public init?(rawValue: String) {
        guard let format = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = format
    }

    public var rawValue: String { writer.name }
    public var description: String { rawValue }

    /// The extensions the format is chosen by. `.json` is none of them: it could as well
    /// mean GeoJSON as a Sextant trace.
    public var extensions: [String] { writer.extensions }

    /// Whether the format holds only locations (accelerometer, hinge and GPS state
    /// samples are left out).
    public var holdsOnlyLocations: Bool { writer.holdsOnlyLocations }

    public static func == (a: TraceExportFormat, b: TraceExportFormat) -> Bool { a.rawValue == b.rawValue }
    public func hash(into hasher: inout Hasher) { hasher.combine(rawValue) }

    /// The format named by `--to` if given, else by `path`'s extension.
    public static func choose(path: String, named name: String?) throws(TraceExportError) -> TraceExportFormat {
        if let name {
            guard let format = TraceExportFormat(rawValue: name.lowercased()) else {
                throw TraceExportError("unknown output format \"\(name)\": expected one of \(allCases.map(\.rawValue).joined(separator: ", "))")
            }
            return format
        }
        let file = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = file.lastIndex(of: "."), dot != file.startIndex else {
            throw TraceExportError("\(path): no extension to choose the output format by; give one (\(knownExtensions)) or --to FORMAT")
        }
        let ext = file[file.index(after: dot)...].lowercased()
        guard let format = allCases.first(where: { $0.extensions.contains(ext) }) else {
            throw TraceExportError("\(path): unknown output extension .\(ext): expected \(knownExtensions), or --to FORMAT")
        }
        return format
    }

    static var knownExtensions: String { allCases.flatMap(\.extensions).map { "." + $0 }.joined(separator: ", ") }
}

/// A trace that cannot be written: which file and why.
public struct TraceExportError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}

extension Trace {
    /// The location samples, with their offsets.
    public var locations: [(offset: Int64, fix: LocationFix)] {
        samples.compactMap { sample in
            if case .location(let fix) = sample.value { return (sample.offset, fix) }
            return nil
        }
    }
}
