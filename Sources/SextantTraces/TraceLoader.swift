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

/// Options for formats that need them.
public struct TraceLoadOptions: Sendable {
    /// Walking speed for GPX routes and waypoints that carry no times (m/s).
    public var gpxSpeed: Double
    /// For the same: seconds between fixes interpolated along the great circles between
    /// the points (`RoutePlanner`); nil for the points alone.
    public var gpxInterval: Double?
    /// Whose `Fix` rows a GnssLogger file plays (`GnssProvider`): GPS, else FLP, unless told.
    public var gnssProvider: GnssProvider

    public init(gpxSpeed: Double = GPXReader.defaultSpeed, gpxInterval: Double? = nil, gnssProvider: GnssProvider = .automatic) {
        self.gpxSpeed = gpxSpeed
        self.gpxInterval = gpxInterval
        self.gnssProvider = gnssProvider
    }
}

public enum TraceLoader {
    /// The largest trace file read into memory: 512 MiB. A bigger one is refused before it
    /// is read, so that a trace cannot push the daemon out of memory (a trace takes about
    /// its own size again once parsed). A JSONL trace, an NMEA log, a GPX file or a
    /// GnssLogger recording that is replayed is not read into memory (`openForReplay`),
    /// and has no such limit; GeoJSON and KML are, and `load` reads every format whole.
    public static let maximumFileSize = 512 * 1024 * 1024

    /// The largest GeoJSON or KML document: 8 MiB. These are parsed whole, as a tree, and
    /// their samples made from all of it: the daemon's peak memory is about 25 times the
    /// file's size (a 68 MiB GeoJSON took it to 1.5 GB, a 16 MiB one to 429 MB, an 8 MiB one
    /// to 234 MB), so a 512 MiB one would exhaust any machine; 8 MiB (about 400 000 positions) stays under
    /// the farm's 256 MiB container limit. A longer route is written as JSONL or GPX,
    /// which are streamed.
    public static let maximumDocumentSize = 8 * 1024 * 1024

    /// What ``maximumDocumentSize`` bounds, as its error says it.
    static let documentKind = "a GeoJSON or KML trace (parsed whole in memory; a longer route goes in JSONL or GPX, which are streamed)"

    /// Reads and parses a trace file of any supported format. All or nothing.
    public static func load(path: String, options: TraceLoadOptions = TraceLoadOptions()) throws(TraceLoadError) -> Trace {
        try loadDetectingFormat(path: path, options: options).trace
    }

    /// Reads and parses a trace file, and says which format it was in.
    public static func loadDetectingFormat(
        path: String, options: TraceLoadOptions = TraceLoadOptions()
    ) throws(TraceLoadError) -> (trace: Trace, format: TraceFormat) {
        let bytes = try TraceFile.read(path: path, limit: maximumFileSize)
        let (format, claimed) = TraceFormats.detect(path: path, head: bytes.prefix(TraceFormats.headLength))
        if format.reader is any WholeFileReaderFormat, bytes.count > maximumDocumentSize {
            throw .unreadable(path: path, reason: "the file is \(bytes.count) bytes, over the \(maximumDocumentSize / 1024 / 1024) MiB \(documentKind) may be")
        }
        return try reading(claimed: claimed) { () throws(TraceError) in
            (try bytes.withUnsafeBufferPointer { buffer throws(TraceError) in try format.reader.read(buffer, path: path, options: options) }, format)
        }
    }

    /// A trace to replay, as its format opens it: a JSONL file or an NMEA log is checked
    /// whole (nothing of it plays if a line is bad) and then read as it plays
    /// (`StreamedJSONLTrace`, `StreamedNMEATrace`), whatever its size; a GPX file or a
    /// GnssLogger recording is read once into a temporary file of samples
    /// (`SpooledSampleTrace`); GeoJSON and KML are read into memory, up to
    /// `maximumFileSize`.
    public static func openForReplay(path: String, options: TraceLoadOptions = TraceLoadOptions()) throws(TraceLoadError) -> any ReplayableTrace {
        let fd = try TraceFile.openRegular(path: path)
        let (format, claimed) = TraceFormats.detect(path: path, fd: fd)
        close(fd)
        do {
            return try format.reader.openForReplay(path: path, options: options)
        } catch .invalid(let error) where !claimed {
            throw .invalid(TraceFormats.unclaimed(error))
        }
    }

    /// What `trace info` shows of a file, as its format summarizes it: read as a stream
    /// for JSONL and NMEA (no sample is kept, whatever the file's size; see
    /// `NMEAStreamedTimeline` for what an NMEA log holds); GPX is read whole. All or
    /// nothing as `load`.
    public static func summarize(
        path: String, options: TraceLoadOptions = TraceLoadOptions()
    ) throws(TraceLoadError) -> (summary: TraceSummary, format: TraceFormat) {
        let fd = try TraceFile.openRegular(path: path)
        defer { close(fd) }
        let (format, claimed) = TraceFormats.detect(path: path, fd: fd)
        return try reading(claimed: claimed) { () throws(TraceError) in
            (try format.reader.summarize(fd: fd, path: path, options: options), format)
        }
    }

    /// `body`'s result, or its error as invalid (1008), saying so when no format claimed the file.
    static func reading<T>(claimed: Bool, _ body: () throws(TraceError) -> T) throws(TraceLoadError) -> T {
        do {
            return try body()
        } catch {
            throw .invalid(claimed ? error : TraceFormats.unclaimed(error))
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

    /// Parses a trace's text in `format`.
    public static func parse(_ contents: String, path: String, format: TraceFormat, options: TraceLoadOptions = TraceLoadOptions()) throws(TraceLoadError) -> Trace {
        var contents = contents
        return try reading(claimed: true) { () throws(TraceError) in
            try contents.withUTF8 { bytes in Result { () throws(TraceError) in try format.reader.read(bytes, path: path, options: options) } }.get()
        }
    }
}
