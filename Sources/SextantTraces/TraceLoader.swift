import Foundation
import SextantCore
import SextantProtocol

/// Why a trace could not be loaded: the file is not there or not readable (wire error
/// 1006), or it has a bad line (1008).
public enum TraceLoadError: Error, Sendable, Equatable, CustomStringConvertible {
    case unreadable(path: String, reason: String)
    case invalid(TraceError)

    public var description: String {
        switch self {
        case .unreadable(let path, let reason): return "\(path): \(reason)"
        case .invalid(let error): return error.description
        }
    }
}

/// The formats a trace file can be in.
public enum TraceFormat: String, Sendable, CaseIterable {
    case sextant, nmea, gpx

    /// By extension, else by the first bytes.
    public static func detect(path: String, contents: String) -> TraceFormat {
        detect(path: path, head: contents.utf8.prefix(64))
    }

    /// By extension, else by the first bytes that are not white space.
    public static func detect(path: String, head: some Sequence<UInt8>) -> TraceFormat {
        let lower = path.lowercased()
        if lower.hasSuffix(".gpx") { return .gpx }
        if lower.hasSuffix(".nmea") || lower.hasSuffix(".log") { return .nmea }
        if lower.hasSuffix(".jsonl") || lower.hasSuffix(".json") || lower.hasSuffix(".trace") { return .sextant }
        switch head.first(where: { ![0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C].contains($0) }) {
        case UInt8(ascii: "<"): return .gpx
        case UInt8(ascii: "$"), UInt8(ascii: "!"): return .nmea
        default: return .sextant
        }
    }
}

/// Options for formats that need them.
public struct TraceLoadOptions: Sendable {
    /// Walking speed for GPX routes and waypoints that carry no times (m/s).
    public var gpxSpeed: Double
    /// For the same: seconds between fixes interpolated along the great circles between
    /// the points (`RoutePlanner`); nil for the points alone.
    public var gpxInterval: Double?

    public init(gpxSpeed: Double = GPXReader.defaultSpeed, gpxInterval: Double? = nil) {
        self.gpxSpeed = gpxSpeed
        self.gpxInterval = gpxInterval
    }
}

public enum TraceLoader {
    /// The largest trace file read into memory: 512 MiB. A bigger one is refused before it
    /// is read, so that a trace cannot push the daemon out of memory (a trace takes about
    /// its own size again once parsed). A JSONL trace or an NMEA log that is replayed is
    /// not read into memory (`openForReplay`), and has no such limit; a GPX file is, and
    /// `load` (what `trace convert` reads) reads every format whole.
    public static let maximumFileSize = 512 * 1024 * 1024

    /// Reads and parses a trace file of any supported format. All or nothing.
    public static func load(path: String, options: TraceLoadOptions = TraceLoadOptions()) throws(TraceLoadError) -> Trace {
        try loadDetectingFormat(path: path, options: options).trace
    }

    /// Reads and parses a trace file, and says which format it was in.
    public static func loadDetectingFormat(
        path: String, options: TraceLoadOptions = TraceLoadOptions()
    ) throws(TraceLoadError) -> (trace: Trace, format: TraceFormat) {
        let bytes = try TraceFile.read(path: path, limit: maximumFileSize)
        let format = TraceFormat.detect(path: path, head: bytes.prefix(64))
        do {
            return (try bytes.withUnsafeBufferPointer { buffer throws(TraceError) in try parse(buffer, path: path, format: format, options: options) }, format)
        } catch {
            throw .invalid(error)
        }
    }

    /// A trace to replay: a JSONL file or an NMEA log is checked whole (nothing of it
    /// plays if a line is bad) and then read as it plays (`StreamedJSONLTrace`,
    /// `StreamedNMEATrace`), whatever its size; a GPX file is read into memory, up to
    /// `maximumFileSize`.
    public static func openForReplay(path: String, options: TraceLoadOptions = TraceLoadOptions()) throws(TraceLoadError) -> any ReplayableTrace {
        let fd = try TraceFile.openRegular(path: path)
        let head = TraceFile.head(fd: fd, count: 64)
        close(fd)
        switch TraceFormat.detect(path: path, head: head) {
        case .sextant: return try StreamedJSONLTrace(path: path)
        case .nmea: return try StreamedNMEATrace(path: path)
        case .gpx: return try StreamedGPXTrace(path: path, options: options)
        }
    }

    /// What `trace info` shows of a file, read as a stream for JSONL and NMEA (no sample
    /// is kept, whatever the file's size; see `NMEAStreamedTimeline` for what an NMEA log
    /// holds); GPX is read whole. All or nothing as `load`.
    public static func summarize(
        path: String, options: TraceLoadOptions = TraceLoadOptions()
    ) throws(TraceLoadError) -> (summary: TraceSummary, format: TraceFormat) {
        let fd = try TraceFile.openRegular(path: path)
        defer { close(fd) }
        let format = TraceFormat.detect(path: path, head: TraceFile.head(fd: fd, count: 64))
        var tally = TraceSummary.Tally()
        do {
            switch format {
            case .sextant:
                let index = try JSONLTraceIndex(fd: fd, path: path) { tally.add($0) }
                return (tally.summary(of: index.header), format)
            case .nmea:
                let header = try NMEAReader.stream(fd: fd, path: path) { tally.add($0) }
                return (tally.summary(of: header), format)
            case .gpx:
                let start = try StreamedGPXTrace.read(fd: fd, path: path, options: options) { tally.add($0) }
                return (tally.summary(of: Trace(start: start)), format)
            }
        } catch {
            throw .invalid(error)
        }
    }

    /// Parses a file's bytes, a line at a time for JSONL and NMEA, without copying them.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>, path: String, format: TraceFormat, options: TraceLoadOptions) throws(TraceError) -> Trace {
        switch format {
        case .sextant: return try SextantTraceFormat.read(bytes, path: path)
        case .nmea: return try NMEAReader.read(bytes, path: path).get()
        case .gpx:
            guard let base = bytes.baseAddress else { return try GPXReader.read(Data(), path: path, speed: options.gpxSpeed, interval: options.gpxInterval) }
            let data = Data(bytesNoCopy: UnsafeMutableRawPointer(mutating: base), count: bytes.count, deallocator: .none)
            return try GPXReader.read(data, path: path, speed: options.gpxSpeed, interval: options.gpxInterval)
        }
    }

    /// A trace file's text: unreadable (1006) if it cannot be read, invalid (1008) if it
    /// is not UTF-8.
    public static func contents(ofFile path: String) throws(TraceLoadError) -> String {
        let bytes = try TraceFile.read(path: path, limit: maximumFileSize)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw TraceLoadError.invalid(TraceError(path: path, line: 1, reason: "not UTF-8 text"))
        }
        return text
    }

    public static func parse(_ contents: String, path: String, format: TraceFormat, options: TraceLoadOptions = TraceLoadOptions()) throws(TraceLoadError) -> Trace {
        do {
            switch format {
            case .sextant: return try SextantTraceFormat.read(contents, path: path)
            case .nmea: return try NMEAReader.read(contents, path: path)
            case .gpx: return try GPXReader.read(contents, path: path, speed: options.gpxSpeed, interval: options.gpxInterval)
            }
        } catch {
            throw .invalid(error)
        }
    }
}
