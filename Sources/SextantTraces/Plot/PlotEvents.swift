import Foundation
import SextantCore
import SextantProtocol

/// What apps received, read from the NDJSON of `sextantctl watch --json` (or a test's
/// events in the same shape: `{"method":..., "params":{..., "app":...}}` a line), for the
/// plot to show next to the trace.
///
/// A `location` event carries the fix's own time (trace time in a replay) and its
/// `accuracy`; an `authorization`, `prompt` or `promptClosed` event carries none (a
/// prompt's `created` is the wall clock's, not the trace's) and is placed at the time of
/// the last event before it in the file that had one (or at a `time` member of the line
/// itself, which a test's events may add); before any such event, at the trace's start, as
/// a session asks before its first fix. Other events are not drawn.
public struct PlotEvents: Sendable, Equatable {
    public struct Received: Sendable, Equatable {
        public var app: String
        public var time: Timestamp
        public var point: GeoPoint
        public var reduced: Bool
    }

    public struct AuthorizationChange: Sendable, Equatable {
        public var app: String
        /// Nil: before any event with a time (the trace's start).
        public var time: Timestamp?
        public var status: String
        public var accuracy: String?
        /// The line of the events file it came from (1-based), which orders events of one time.
        public var line = 0
        /// Whether the app may have locations under this status.
        public var allowsLocations: Bool { status.hasPrefix("authorized") }

        /// What the app's lane says: `authorized`, `reduced` (authorized, reduced
        /// accuracy), or the status itself (`denied`, `restricted`, `notDetermined`).
        public var laneLabel: String {
            guard allowsLocations else { return status }
            return accuracy == LocationAccuracy.reduced.rawValue ? "reduced" : "authorized"
        }
    }

    /// A prompt the daemon raised for an app (`prompt`), and how it closed
    /// (`promptClosed`), if it did within the events.
    public struct PromptMark: Sendable, Equatable {
        public var app: String
        public var id: String
        public var kind: String
        public var level: String?
        /// Nil: before any event with a time (the trace's start).
        public var opened: Timestamp?
        public var isClosed = false
        public var closedAt: Timestamp?
        /// The lines of the events file that opened and closed it (1-based).
        public var openedLine = 0, closedLine = 0
        /// The answer, or nil when cancelled (or still open).
        public var choice: String?

        /// `prompt p-7 (authorization, whenInUse) answered allowOnce`, for a tooltip.
        public var summary: String {
            let what = [kind, level].compactMap { $0 }.joined(separator: ", ")
            let outcome = !isClosed ? "open" : choice.map { "answered \($0)" } ?? "cancelled"
            return "prompt \(id) (\(what)) \(outcome)"
        }
    }

    public var received: [Received] = []
    public var authorizations: [AuthorizationChange] = []
    public var prompts: [PromptMark] = []

    /// The apps, in the order they first appear (received fixes first, then authorization
    /// changes, then prompts): one pass with a set, as an events file may name tens of thousands.
    public var apps: [String] {
        var seen = Set<String>(), ordered: [String] = []
        for app in received.lazy.map(\.app) where seen.insert(app).inserted { ordered.append(app) }
        for app in authorizations.lazy.map(\.app) where seen.insert(app).inserted { ordered.append(app) }
        for app in prompts.lazy.map(\.app) where seen.insert(app).inserted { ordered.append(app) }
        return ordered
    }

    /// Whether any app appears at all.
    public var hasApps: Bool { !received.isEmpty || !authorizations.isEmpty || !prompts.isEmpty }

    public init() {}

    /// Reads the NDJSON text; a line that is not a JSON object with a `method` is an error
    /// naming its line (1-based); unknown methods are skipped.
    public static func parse(_ text: String, path: String) throws(TraceError) -> PlotEvents {
        var events = PlotEvents()
        var lastTime: Timestamp?
        var openPrompts: [String: Int] = [:]
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
                events.authorizations.append(AuthorizationChange(app: app, time: lastTime, status: status, accuracy: params["accuracy"]?.stringValue, line: index + 1))
            case Event.prompt, Event.promptClosed:
                guard let id = params["id"]?.stringValue, let kind = params["kind"]?.stringValue else { throw fail("a \(method) event needs an id and a kind") }
                events.notePrompt(method: method, app: app, id: id, kind: kind, params: params, at: (lastTime, index + 1), opens: &openPrompts)
            default:
                continue
            }
        }
        return events
    }

    /// A prompt opens a mark; its `promptClosed` closes the mark of the same id (or makes
    /// one, when the events begin after the prompt opened).
    private mutating func notePrompt(method: String, app: String, id: String, kind: String, params: JSONValue, at place: (time: Timestamp?, line: Int), opens: inout [String: Int]) {
        let level = params["level"]?.stringValue
        if method == Event.prompt {
            opens[id] = prompts.count
            prompts.append(PromptMark(app: app, id: id, kind: kind, level: level, opened: place.time, openedLine: place.line))
            return
        }
        let index = opens.removeValue(forKey: id) ?? {
            prompts.append(PromptMark(app: app, id: id, kind: kind, level: level, opened: place.time, openedLine: place.line))
            return prompts.count - 1
        }()
        prompts[index].isClosed = true
        prompts[index].closedAt = place.time
        prompts[index].closedLine = place.line
        prompts[index].choice = params["choice"]?.stringValue
    }
}
