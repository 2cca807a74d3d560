import SextantCore

/// The formats `trace convert` and `trace route` write, chosen by the output's extension
/// or by name (`--to`).
public enum TraceExportFormat: String, Sendable, CaseIterable {
    case sextant, gpx, geojson, kml, nmea

    /// The extensions each format is chosen by. `.json` is none of them: it could as well
    /// mean GeoJSON as a Sextant trace.
    public var extensions: [String] {
        switch self {
        case .sextant: return ["jsonl", "trace"]
        case .gpx: return ["gpx"]
        case .geojson: return ["geojson"]
        case .kml: return ["kml"]
        case .nmea: return ["nmea", "log"]
        }
    }

    /// Whether the format holds only locations (accelerometer, hinge and GPS state
    /// samples are left out).
    public var holdsOnlyLocations: Bool { self != .sextant }

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
