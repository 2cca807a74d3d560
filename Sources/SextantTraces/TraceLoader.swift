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
        let lower = path.lowercased()
        if lower.hasSuffix(".gpx") { return .gpx }
        if lower.hasSuffix(".nmea") || lower.hasSuffix(".log") { return .nmea }
        if lower.hasSuffix(".jsonl") || lower.hasSuffix(".json") || lower.hasSuffix(".trace") { return .sextant }
        let head = contents.drop { $0.isWhitespace }
        if head.hasPrefix("<") { return .gpx }
        if head.hasPrefix("$") || head.hasPrefix("!") { return .nmea }
        return .sextant
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
    /// Reads and parses a trace file of any supported format. All or nothing.
    public static func load(path: String, options: TraceLoadOptions = TraceLoadOptions()) throws(TraceLoadError) -> Trace {
        let contents = try contents(ofFile: path)
        return try parse(contents, path: path, format: TraceFormat.detect(path: path, contents: contents), options: options)
    }

    /// A trace file's text: unreadable (1006) if it cannot be read, invalid (1008) if it
    /// is not UTF-8.
    public static func contents(ofFile path: String) throws(TraceLoadError) -> String {
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: path))
            guard let text = String(data: data, encoding: .utf8) else {
                throw TraceLoadError.invalid(TraceError(path: path, line: 1, reason: "not UTF-8 text"))
            }
            return text
        } catch let error as TraceLoadError {
            throw error
        } catch {
            throw .unreadable(path: path, reason: describe(error))
        }
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

    static func describe(_ error: any Error) -> String {
        let ns = error as NSError
        if let underlying = ns.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain,
            let code = POSIXErrorCode(rawValue: Int32(underlying.code))
        {
            return String(cString: strerror(code.rawValue))
        }
        if ns.domain == NSCocoaErrorDomain {
            switch ns.code {
            case NSFileReadNoSuchFileError: return "no such file"
            case NSFileReadNoPermissionError: return "permission denied"
            default: break
            }
        }
        return ns.localizedDescription
    }
}
