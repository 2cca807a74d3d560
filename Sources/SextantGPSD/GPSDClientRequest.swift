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

    /// A `?WATCH=` or `?DEVICE=` argument: one JSON object.
    static func object(_ text: Substring, of verb: String) throws(GPSDRequestError) -> [String: JSONValue] {
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
