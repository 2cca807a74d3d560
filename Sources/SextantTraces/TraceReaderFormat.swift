#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A format a trace file can be read from: how it is recognised, and its three ways of
/// being read. Each lives beside its reader (`JSONL/`, `NMEA/`, `GPX/`) and is registered
/// once, in `TraceFormats.all`.
public protocol TraceReaderFormat: Sendable {
    /// What `trace info` and errors call it.
    var name: String { get }
    /// The extensions, lower case and without the dot, that claim a file for this format
    /// whatever it holds.
    var extensions: [String] { get }
    /// Whether a file without a known extension is in this format, judged by its first
    /// bytes from the first that is not white space (never empty).
    func looksLike(_ head: ArraySlice<UInt8>) -> Bool
    /// A whole file's bytes as a trace, all or nothing.
    func read(_ bytes: UnsafeBufferPointer<UInt8>, path: String, options: TraceLoadOptions) throws(TraceError) -> Trace
    /// The file as a trace to replay, checked whole before anything of it plays.
    func openForReplay(path: String, options: TraceLoadOptions) throws(TraceLoadError) -> any ReplayableTrace
    /// What `trace info` shows of the open file `fd`, all or nothing as `read`.
    func summarize(fd: Int32, path: String, options: TraceLoadOptions) throws(TraceError) -> TraceSummary
}

/// One readable format, as `TraceLoader` names the format it read a file in.
public struct TraceFormat: Sendable, Equatable, CustomStringConvertible {
    public let reader: any TraceReaderFormat

    public init(_ reader: any TraceReaderFormat) { self.reader = reader }

    public var name: String { reader.name }
    /// The name, as the closed set of formats spelt it.
    public var rawValue: String { name }
    public var description: String { name }

    public static func == (a: TraceFormat, b: TraceFormat) -> Bool { a.name == b.name }

    /// By extension, else by the first bytes (`TraceFormats.detect`).
    public static func detect(path: String, contents: String) -> TraceFormat {
        TraceFormats.detect(path: path, head: contents.utf8.prefix(64)).format
    }

    /// By extension, else by the first bytes that are not white space (`TraceFormats.detect`).
    public static func detect(path: String, head: some Sequence<UInt8>) -> TraceFormat {
        TraceFormats.detect(path: path, head: head).format
    }
}

/// The formats trace files are read from: the one place a format is registered.
public enum TraceFormats {
    /// In detection order: the first whose extension ends the path, else the first whose
    /// `looksLike` accepts the first bytes, else `fallback`.
    public static let all: [TraceFormat] = [.sextant, .nmea, .gpx, .gnsslogger, .geojson, .kml]

    /// What a file no format claims is read as.
    public static let fallback: TraceFormat = .sextant

    /// How many of a file's first bytes detection looks at.
    static let headLength = 64

    /// The bytes detection skips before the first it judges by.
    static let blanks: [UInt8] = [0x20, 0x09, 0x0A, 0x0D, 0x0B, 0x0C]

    /// A file's format by its extension, else by its first bytes that are not white space.
    /// - Returns: the format, and whether one claimed the file (false when it is `fallback`
    ///   only because nothing else matched).
    public static func detect(path: String, head: some Sequence<UInt8>) -> (format: TraceFormat, claimed: Bool) {
        let lower = path.lowercased()
        if let format = all.first(where: { $0.reader.extensions.contains { lower.hasSuffix("." + $0) } }) { return (format, true) }
        let bytes = Array(head.prefix(headLength))
        guard let first = bytes.firstIndex(where: { !blanks.contains($0) }) else { return (fallback, false) }
        if let format = all.first(where: { $0.reader.looksLike(bytes[first...]) }) { return (format, true) }
        return (fallback, false)
    }

    /// The open file `fd`'s format, by `path` and its first bytes.
    static func detect(path: String, fd: Int32) -> (format: TraceFormat, claimed: Bool) {
        detect(path: path, head: TraceFile.head(fd: fd, count: headLength))
    }

    /// The format called `name` (any case); unknown names throw, listing those known.
    public static func named(_ name: String) throws(UnknownTraceFormat) -> TraceFormat {
        guard let format = all.first(where: { $0.name == name.lowercased() }) else {
            throw UnknownTraceFormat(description: "unknown trace format \"\(name)\": the formats that can be read are \(readable)")
        }
        return format
    }

    /// `sextant (.jsonl, .json, .trace), nmea (.nmea, .log), gpx (.gpx)`, from `all`.
    public static var readable: String {
        all.map { format in
            let extensions = format.reader.extensions.map { "." + $0 }.joined(separator: ", ")
            return "\(format.name) (\(extensions.isEmpty ? "by its first lines" : extensions))"
        }.joined(separator: ", ")
    }

    /// A file no format claimed and that `fallback` could not read: the error says so and
    /// lists what can be read.
    static func unclaimed(_ error: TraceError) -> TraceError {
        var error = error
        error.reason += " (no trace format claims this file by its extension or first bytes, and as \(fallback.name) it fails; the formats that can be read are \(readable))"
        return error
    }
}

/// A format name no registered format has; the description lists those that can be read.
public struct UnknownTraceFormat: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
}
