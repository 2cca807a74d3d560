import Foundation
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
    /// A TPV with a position that cannot be passed on (an accuracy that is no number of
    /// metres, a time outside `TPVFieldCheck.plausibleYears`): not a location.
    case unusableFix(reason: String)
    /// The devices gpsd reads (DEVICES: the whole list, by path, when a watch starts).
    case devices([String])
    /// One device activated or deactivated (DEVICE: `activated` is absent once it is gone).
    case device(path: String, active: Bool)
    /// A SKY that lists satellites (``sky(_:)``), with its own time when it has one.
    case sky(SkyView, time: Timestamp?)
    /// Any other class (WATCH, GST, ATT, a SKY with only its DOPs, ...).
    case other(class: String)

    /// At most this many devices, of at most this many characters each, are kept from
    /// gpsd's reports: what gpsd says is shown in `status`, not held without bound.
    public static let maximumDevices = 16
    public static let maximumDevicePathLength = 256
    /// A TPV's `status` for a fix made by a simulator (gps.h STATUS_SIM).
    public static let simulatedStatus = 8

    /// Reads one line. `receivedAt` stands in for the fix time when the TPV has none.
    ///
    /// Field mapping (gpsd_json(5), TPV):
    /// - `lat`, `lon`: degrees, WGS84.
    /// - altitude: `altMSL`, else `altHAE`, else the deprecated `alt`.
    /// - `speed` (m/s over ground) and `track` (degrees from true north) as they are, when
    ///   valid (see ``TPVFieldCheck``).
    /// - horizontal accuracy: `eph`; else `hypot(epx, epy)`, the length of the error
    ///   box's diagonal, since `epx` and `epy` are separate longitude and latitude errors
    ///   in metres and a radius must cover both; else the protocol's default of 5 m.
    ///   gpsd guesses its estimates at 95 % confidence; they are passed on unscaled.
    /// - vertical accuracy: `epv`.
    /// - time: `time` (RFC 3339, UTC), else `receivedAt`.
    /// - `status` 8 (gps.h STATUS_SIM: the receiver says software made the fix): the fix's
    ///   `simulated`, which `--simulated-flag auto` follows (RULES N7).
    ///
    /// A field that is out of range is dropped and noted in `dropped` (`speed -1 is
    /// negative`), for the source's debug log; a fix whose accuracy or time is unusable
    /// becomes ``unusableFix(reason:)``.
    public static func decode(line: String, receivedAt: Timestamp, dropped: inout [String]) throws(GPSDReportError) -> GPSDReport {
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
            return tpv(object, receivedAt: receivedAt, dropped: &dropped)
        case "SKY":
            return sky(object)
        case "DEVICES":
            let listed = object["devices"]?.arrayValue ?? []
            return .devices(listed.prefix(maximumDevices).compactMap { $0["path"]?.stringValue.map(devicePath) })
        case "DEVICE":
            guard let path = object["path"]?.stringValue else { return .other(class: reportClass) }
            // gpsd 3.x says `activated` as a time; older ones said 0 for a closed device.
            let activated = object["activated"]
            return .device(path: devicePath(path), active: activated != nil && activated?.doubleValue != 0)
        default:
            return .other(class: reportClass)
        }
    }

    /// ``decode(line:receivedAt:dropped:)`` for callers that do not log dropped fields.
    public static func decode(line: String, receivedAt: Timestamp) throws(GPSDReportError) -> GPSDReport {
        var dropped: [String] = []
        return try decode(line: line, receivedAt: receivedAt, dropped: &dropped)
    }

    private static func devicePath(_ path: String) -> String { String(path.prefix(maximumDevicePathLength)) }

    private static func tpv(_ tpv: [String: JSONValue], receivedAt: Timestamp, dropped: inout [String]) -> GPSDReport {
        func number(_ key: String) -> Double? {
            guard let value = tpv[key]?.doubleValue, value.isFinite else { return nil }
            return value
        }
        let timeText = tpv["time"]?.stringValue
        let time = timeText.flatMap(TPVFieldCheck.time(rfc3339:))
        let mode = tpv["mode"]?.intValue ?? 0
        guard mode >= 2 else { return .noFix(time: time ?? receivedAt) }
        guard let latitude = number("lat"), let longitude = number("lon"),
            LocationFix.problem(latitude: latitude, longitude: longitude) == nil
        else { return .fixWithoutPosition(mode: mode) }
        if let timeText, time == nil {
            return .unusableFix(reason: "time \"\(timeText.prefix(40))\" is not an RFC 3339 instant in \(TPVFieldCheck.plausibleYears)")
        }
        var horizontalAccuracy = LocationFix.defaultHorizontalAccuracy
        if let eph = number("eph"), eph >= 0 {
            horizontalAccuracy = eph
        } else if let epx = number("epx"), let epy = number("epy"), epx >= 0, epy >= 0 {
            // hypot, not sqrt(x² + y²): squares of estimates over 1e154 m overflow.
            horizontalAccuracy = hypot(epx, epy)
        }
        if let problem = TPVFieldCheck.accuracyProblem(horizontalAccuracy) { return .unusableFix(reason: problem) }
        var check = TPVFieldCheck(dropped: dropped)
        let fix = LocationFix(
            latitude: latitude, longitude: longitude, altitude: number("altMSL") ?? number("altHAE") ?? number("alt"),
            horizontalAccuracy: horizontalAccuracy, verticalAccuracy: check.verticalAccuracy(number("epv")),
            speed: check.speed(number("speed")), course: check.course(number("track")), time: time ?? receivedAt,
            simulated: tpv["status"]?.intValue == simulatedStatus)
        dropped = check.dropped
        return .position(fix)
    }
}

/// A line from gpsd that is not a JSON report (logged and skipped).
public struct GPSDReportError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
