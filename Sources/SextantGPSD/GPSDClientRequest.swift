import SextantProtocol

// The requests a gpsd client sends to Sextant's gpsd face (gpsd_json(5) "Commands"): the
// other direction of this module's reports, pure, so that the fuzzer reaches them.

/// What a gpsd client asked for with `?WATCH`, as gpsd keeps it per client: each request
/// changes the members it names and keeps the others.
public struct GPSDWatch: Equatable, Sendable {
    public init() {}

    public var enable = false
    public var json = false
    public var nmea = false
    /// 1 and 2 are answered with the NMEA Sextant generates (it has no receiver bytes).
    public var raw = 0
    public var scaled = false
    public var timing = false
    public var split24 = false
    public var pps = false
    /// Only this device's reports; nil for all.
    public var device: String?

    /// This watch changed by a `?WATCH` object's members.
    public func applying(_ members: [String: JSONValue]) throws(GPSDRequestError) -> GPSDWatch {
        var next = self
        for (key, value) in members.sorted(by: { $0.key < $1.key }) {
            switch key {
            case "class": continue
            case "enable": next.enable = try Self.flag(key, value)
            case "json": next.json = try Self.flag(key, value)
            case "nmea": next.nmea = try Self.flag(key, value)
            case "scaled": next.scaled = try Self.flag(key, value)
            case "timing": next.timing = try Self.flag(key, value)
            case "split24": next.split24 = try Self.flag(key, value)
            case "pps": next.pps = try Self.flag(key, value)
            case "raw":
                guard let level = value.intValue, (0...2).contains(level) else {
                    throw GPSDRequestError("Invalid WATCH: \"raw\" must be 0, 1 or 2")
                }
                next.raw = level
            case "device":
                guard let path = value.stringValue else { throw GPSDRequestError("Invalid WATCH: \"device\" must be a string") }
                next.device = path
            default:
                continue  // gpsd ignores members it does not know, and so do we
            }
        }
        return next
    }

    /// Whether NMEA sentences go out: asked for, or raw (Sextant's raw is its NMEA).
    public var wantsNMEA: Bool { nmea || raw > 0 }

    private static func flag(_ key: String, _ value: JSONValue) throws(GPSDRequestError) -> Bool {
        guard let flag = value.boolValue else { throw GPSDRequestError("Invalid WATCH: \"\(key)\" must be true or false") }
        return flag
    }
}

/// A request a gpsd client can send (gpsd_json(5) "Commands").
public enum GPSDRequest: Equatable, Sendable {
    /// `?WATCH;` (nil: report the watch) or `?WATCH={...};`.
    case watch([String: JSONValue]?)
    case poll
    case devices
    /// `?DEVICE;`, or `?DEVICE={...};` (a configuration, which Sextant refuses).
    case device(configure: Bool)
    case version

    /// One request, `?` included, its `;` or newline left off.
    public static func parse(_ text: Substring) throws(GPSDRequestError) -> GPSDRequest {
        let (verb, argument) = split(text)
        switch verb {
        case "?WATCH":
            guard let argument else { return .watch(nil) }
            return .watch(try object(argument, of: "WATCH"))
        case "?POLL": return .poll
        case "?DEVICES": return .devices
        case "?DEVICE":
            guard let argument else { return .device(configure: false) }
            _ = try object(argument, of: "DEVICE")
            return .device(configure: true)
        case "?VERSION": return .version
        default:
            throw GPSDRequestError("Unrecognized request '\(text.prefix(64))'")
        }
    }

    private static func split(_ text: Substring) -> (Substring, Substring?) {
        guard let equals = text.firstIndex(of: "=") else { return (text, nil) }
        return (text[..<equals], text[text.index(after: equals)...])
    }

    private static func object(_ text: Substring, of verb: String) throws(GPSDRequestError) -> [String: JSONValue] {
        let value: JSONValue
        do {
            value = try JSONValue.parse(String(text))
        } catch {
            throw GPSDRequestError("Invalid \(verb): \(error.description)")
        }
        guard let members = value.objectValue else { throw GPSDRequestError("Invalid \(verb): expected a JSON object") }
        return members
    }
}

/// A request gpsd would answer with `{"class":"ERROR","message":...}`.
public struct GPSDRequestError: Error, Equatable, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

/// Where the next request is in the bytes a gpsd client sent: each starts with `?` and ends
/// at `;` or a newline (libgps sends `;\n`, some scripts only one of them); a `;` inside a
/// JSON string does not end one. Bytes outside a request are skipped, as gpsd skips them.
public enum GPSDRequestScan: Equatable, Sendable {
    /// No whole request yet: the first `skip` bytes (those before any `?`) can go.
    case incomplete(skip: Int)
    /// A request from offset `start` to `end` (its `;` or newline, left off); the bytes up
    /// to and including `end` are used.
    case request(start: Int, end: Int)
    /// A request longer than `maxLength`: every byte is used.
    case tooLong

    /// gpsd's own limit on a client request is about 1 KiB; some room beyond it.
    public static let maxLength = 4096

    /// Scans `bytes` (offsets from its start).
    public static func next<Bytes: RandomAccessCollection>(in bytes: Bytes) -> GPSDRequestScan where Bytes.Element == UInt8, Bytes.Index == Int {
        guard let first = bytes.firstIndex(of: UInt8(ascii: "?")) else { return .incomplete(skip: bytes.count) }
        let start = first - bytes.startIndex
        var inString = false
        var escaped = false
        for index in first..<bytes.endIndex {
            let byte = bytes[index]
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: ";") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                return .request(start: start, end: index - bytes.startIndex)
            }
            if index - first >= maxLength { return .tooLong }
        }
        return .incomplete(skip: start)
    }
}
