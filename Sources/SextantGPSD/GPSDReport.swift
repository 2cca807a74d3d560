import SextantCore
import SextantProtocol

/// One JSON line from gpsd, as far as Sextant cares (gpsd_json(5)).
///
/// The class is read from the line itself, never from libgps's accumulated `set` mask:
/// that mask keeps bits from earlier reports, so it cannot say what *this* line was.
public enum GPSDReport: Sendable, Equatable {
    /// The banner gpsd sends first on every connection.
    case version(release: String)
    /// A TPV with a 2D or 3D fix and a position.
    case position(LocationFix)
    /// A TPV with mode 0 (nothing seen yet) or 1 (no fix), at its own time when it has one.
    case noFix(time: Timestamp)
    /// A TPV that claims a fix but carries no usable latitude and longitude: not a location.
    case fixWithoutPosition(mode: Int)
    /// Any other class (SKY, DEVICES, WATCH, GST, ATT, ...).
    case other(class: String)

    /// Reads one line. `receivedAt` stands in for the fix time when the TPV has none.
    ///
    /// Field mapping (gpsd_json(5), TPV):
    /// - `lat`, `lon`: degrees, WGS84.
    /// - altitude: `altMSL`, else `altHAE`, else the deprecated `alt`.
    /// - `speed` (m/s over ground) and `track` (degrees from true north) as they are.
    /// - horizontal accuracy: `eph`; else `sqrt(epx² + epy²)`, the length of the error
    ///   box's diagonal, since `epx` and `epy` are separate longitude and latitude errors
    ///   in metres and a radius must cover both; else the protocol's default of 5 m.
    ///   gpsd guesses its estimates at 95 % confidence; they are passed on unscaled.
    /// - vertical accuracy: `epv`.
    /// - time: `time` (RFC 3339, UTC), else `receivedAt`.
    public static func decode(line: String, receivedAt: Timestamp) throws(GPSDReportError) -> GPSDReport {
        let object: [String: JSONValue]
        do {
            guard let members = try JSONValue.parse(line).objectValue else { throw GPSDReportError("not a JSON object") }
            object = members
        } catch let error as GPSDReportError {
            throw error
        } catch {
            throw GPSDReportError("invalid JSON: \(error)")
        }
        guard let reportClass = object["class"]?.stringValue else { throw GPSDReportError("no \"class\"") }
        switch reportClass {
        case "VERSION":
            return .version(release: object["release"]?.stringValue ?? "unknown")
        case "TPV":
            return tpv(object, receivedAt: receivedAt)
        default:
            return .other(class: reportClass)
        }
    }

    private static func tpv(_ tpv: [String: JSONValue], receivedAt: Timestamp) -> GPSDReport {
        func number(_ key: String) -> Double? {
            guard let value = tpv[key]?.doubleValue, value.isFinite else { return nil }
            return value
        }
        let time = tpv["time"]?.stringValue.flatMap(Timestamp.init(rfc3339:)) ?? receivedAt
        let mode = tpv["mode"]?.intValue ?? 0
        guard mode >= 2 else { return .noFix(time: time) }
        guard let latitude = number("lat"), let longitude = number("lon"),
            LocationFix.problem(latitude: latitude, longitude: longitude) == nil
        else { return .fixWithoutPosition(mode: mode) }
        var horizontalAccuracy = LocationFix.defaultHorizontalAccuracy
        if let eph = number("eph"), eph >= 0 {
            horizontalAccuracy = eph
        } else if let epx = number("epx"), let epy = number("epy"), epx >= 0, epy >= 0 {
            horizontalAccuracy = (epx * epx + epy * epy).squareRoot()
        }
        let verticalAccuracy = number("epv").flatMap { $0 >= 0 ? $0 : nil }
        return .position(
            LocationFix(
                latitude: latitude, longitude: longitude, altitude: number("altMSL") ?? number("altHAE") ?? number("alt"),
                horizontalAccuracy: horizontalAccuracy, verticalAccuracy: verticalAccuracy,
                speed: number("speed"), course: number("track"), time: time))
    }
}

/// A line from gpsd that is not a JSON report (logged and skipped).
public struct GPSDReportError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
