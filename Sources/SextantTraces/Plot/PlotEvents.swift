import Foundation
import SextantCore
import SextantProtocol

/// What apps received, read from the NDJSON of `sextantctl watch --json` (or a test's
/// events in the same shape: `{"method":..., "params":{..., "app":...}}` a line), for the
/// plot to show next to the trace.
///
/// A `location` event carries the fix's own time (trace time in a replay) and its
/// `accuracy`; an `authorization` event carries none and is placed at the time of the
/// last event before it in the file that had one (or at a `time` member of the line
/// itself, which a test's events may add). Other events are not drawn.
public struct PlotEvents: Sendable, Equatable {
    public struct Received: Sendable, Equatable {
        public var app: String
        public var time: Timestamp
        public var point: GeoPoint
        public var reduced: Bool
    }

    public struct AuthorizationChange: Sendable, Equatable {
        public var app: String
        public var time: Timestamp
        public var status: String
        /// Whether the app may have locations under this status.
        public var allowsLocations: Bool { status.hasPrefix("authorized") }
    }

    public var received: [Received] = []
    public var authorizations: [AuthorizationChange] = []

    /// The apps, in the order they first appear (received fixes first, then authorization
    /// changes): one pass with a set, as an events file may name tens of thousands.
    public var apps: [String] {
        var seen = Set<String>(), ordered: [String] = []
        for app in received.lazy.map(\.app) where seen.insert(app).inserted { ordered.append(app) }
        for app in authorizations.lazy.map(\.app) where seen.insert(app).inserted { ordered.append(app) }
        return ordered
    }

    /// Whether any app appears at all.
    public var hasApps: Bool { !received.isEmpty || !authorizations.isEmpty }

    public init() {}

    /// Reads the NDJSON text; a line that is not a JSON object with a `method` is an error
    /// naming its line (1-based); unknown methods are skipped.
    public static func parse(_ text: String, path: String) throws(TraceError) -> PlotEvents {
        var events = PlotEvents()
        var lastTime: Timestamp?
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            guard !line.isEmpty else { continue }
            func fail(_ reason: String) -> TraceError { TraceError(path: path, line: index + 1, reason: reason) }
            guard let value = try? JSONValue.parse(line), let method = value["method"]?.stringValue else {
                throw fail("not an event: expected a JSON object with a \"method\" (the NDJSON of watch --json)")
            }
            let params = value["params"] ?? .object([:])
            let time = (params[LocationKey.time]?.stringValue ?? value["time"]?.stringValue).flatMap { Timestamp(rfc3339: $0) }
            if let time { lastTime = time }
            guard let app = params["app"]?.stringValue else { continue }
            switch method {
            case Event.location:
                guard let time, let lat = params[LocationKey.latitude]?.doubleValue, let lon = params[LocationKey.longitude]?.doubleValue,
                    LocationFix.problem(latitude: lat, longitude: lon) == nil
                else { throw fail("a location event needs lat, lon (degrees) and an RFC 3339 time") }
                events.received.append(Received(app: app, time: time, point: GeoPoint(latitude: lat, longitude: lon), reduced: params[LocationKey.accuracy]?.stringValue == LocationAccuracy.reduced.rawValue))
            case Event.authorization:
                guard let status = params["status"]?.stringValue else { throw fail("an authorization event needs a status") }
                guard let at = lastTime else { throw fail("an authorization event before any event with a time: nowhere to place it") }
                events.authorizations.append(AuthorizationChange(app: app, time: at, status: status))
            default:
                continue
            }
        }
        return events
    }
}
