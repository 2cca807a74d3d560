import ArgumentParser
import Foundation
import SextantClient
import SextantProtocol

struct Watch: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "watch",
        abstract: "Print every event the daemon publishes, live, one line each (NDJSON with --json).",
        discussion: "Events that went to an app carry its id and session; Ctrl-C stops.")
    @OptionGroup var common: CommonOptions
    @Option(help: "Only events that went to this app.") var app: String?
    @Option(name: .customLong("topic"), help: ArgumentHelp("Only these event names (repeatable), e.g. location, authorization, prompt.", valueName: "name"))
    var topics: [String] = []

    func run() async throws {
        try await reporting {
            let connection = try common.control()
            // The daemon filters by app (what that app received); the check below is for an
            // older daemon that ignores the parameter.
            _ = try await connection.request(WatchRequest(topics: topics, app: app))
            while true {
                // Waits as long as the daemon is there: no time-out, no polling.
                let event = try await connection.notification()
                if let app, event.params["app"]?.stringValue != app { continue }
                if common.json {
                    printJSON(JSONValue.object(["method": .string(event.method), "params": event.params]))
                } else {
                    // One line an event, whatever an app wrote in it.
                    print(TerminalText.escaped(EventText.line(event)))
                }
                fflush(nil)  // one line at a time, also into a pipe
            }
        }
    }
}

/// One readable line per event, for `watch` and the demo.
enum EventText {
    static func line(_ event: ServerEvent) -> String {
        let clock = String(Timestamp(seconds: Date().timeIntervalSince1970).rfc3339.dropFirst(11).dropLast())
        guard let watched = try? WatchedEvent(method: event.method, params: event.params) else {
            // An event this sextantctl cannot read (a newer daemon's) is shown as it came.
            var who = event.params["app"]?.stringValue ?? "daemon"
            if let session = event.params["session"]?.intValue, event.method != Event.prompt, event.method != Event.promptClosed { who += "#\(session)" }
            return row(clock, who, event.method, event.params.serialized())
        }
        var who = watched.app ?? "daemon"
        switch watched.event {
        case .prompt, .promptClosed: break
        default: if let session = watched.session { who += "#\(session)" }
        }
        return row(clock, who, event.method, summary(watched))
    }

    private static func row(_ clock: String, _ who: String, _ method: String, _ summary: String) -> String {
        "\(clock)  \(who.padding(toLength: max(24, who.count), withPad: " ", startingAt: 0))  \(method.padding(toLength: 20, withPad: " ", startingAt: 0))  \(summary)"
    }

    /// Why a prompt closed unanswered, as `watch` says it (the daemon's `reason`).
    static let cancellations = [
        "appInBackground": "the app went to the background: L6",
        "sessionEnded": "the app's session ended",
    ]

    static func summary(_ watched: WatchedEvent) -> String {
        switch watched.event {
        case .location(let fix), .significantChange(let fix): return Text.coordinate(fix) + "  @ \(fix.time?.rfc3339 ?? "-")"
        case .authorization(let result): return "\(result.status.rawValue), \(result.accuracy.rawValue) accuracy"
        case .servicesEnabled(let enabled): return enabled ? "on" : "off"
        case .prompt(let p): return "\(Text.plain(p["id"])) \(Text.plain(p["kind"])) \(Text.plain(p["level"])) (answer: sextantctl prompts answer \(Text.plain(p["id"])) CHOICE)"
        case .promptClosed(let p):
            guard p["cancelled"]?.boolValue == true else { return "\(Text.plain(p["id"])) answered \(Text.plain(p["choice"]))" }
            return "\(Text.plain(p["id"])) cancelled" + (Self.cancellations[p["reason"]?.stringValue ?? ""].map { " (\($0))" } ?? "")
        case .replay(let status): return Replay.describe(status)
        case .deviceOrientation(let change): return "\(change.previous.rawValue) → \(change.orientation.rawValue)"
        case .interfaceOrientation(let change): return "\(change.previous?.rawValue ?? "-") → \(change.orientation.rawValue)"
        case .posture(let change):
            return "\(change.previous?.rawValue ?? "-") → \(change.state.rawValue) (hinge \(Text.number(change.hingeAngle))°, \(change.fold.rawValue))"
        case .locationUnavailable(let reason), .regionUnavailable(let reason): return TerminalText.escaped(reason)
        case .visit(let visit):
            let departure = visit.departure.map { "departure \($0.rfc3339)" } ?? "arrival"
            return "\(departure)  \(Text.coordinate(visit))  arrived \(visit.arrival.rfc3339)"
        case .region(let event):
            return "\(TerminalText.escaped(event.identifier)) \(event.transition.rawValue) (\(event.state.rawValue)) @ \(event.time.rfc3339)"
        case .heading(let heading): return Text.heading(heading)
        case .headingCalibration(let event): return event.needed ? "calibration needed" : "calibrated"
        case .session(let members): return Text.session(members)
        case .motion(let motion):
            return "x \(Text.number(motion.x)) y \(Text.number(motion.y)) z \(Text.number(motion.z)) m/s²  @ \(motion.time.rfc3339)"
        case .satellites: return watched.params.serialized()
        case .timeZone(let zone):
            let from = zone.previous.map { TerminalText.escaped($0) + " → " } ?? ""
            return "\(from)\(TimeCommand.Zone.describe(zone)) [\(zone.reason?.rawValue ?? "-")]  @ \(zone.time?.rfc3339 ?? "-")"
        case .activity(let activity): return Text.activity(activity)
        case .activityTransition(let t): return "\(t.transition.rawValue) \(t.activity.rawValue) @ \(t.time.rfc3339)"
        case .pedometer(let pedometer): return Text.pedometer(pedometer)
        case .light(let light): return "\(Text.number(light.lux)) lux  @ \(light.time.rfc3339)"
        case .proximity(let proximity): return "\(proximity.near ? "near" : "far")  @ \(proximity.time.rfc3339)"
        case .altitude(let a):
            return "relative \(Text.number(a.relativeAltitude)) m, \(Text.number(a.pressure)) kPa\(a.derived ? " (derived)" : "")  @ \(a.time.rfc3339)"
        case .deviceMotion(let m): return Text.deviceMotion(m)
        case .clockChanged(let clock): return TimeCommand.Clock.describe(clock)
        case .locations(let fixes):
            return "\(fixes.count) fixes" + (fixes.last.map { ", last " + Text.coordinate($0) + "  @ \($0.time?.rfc3339 ?? "-")" } ?? "")
        case .diagnostics(let flags):
            let raised = WireDiagnostics.flags.filter { flags[keyPath: $0.path] }.map(\.name)
            return raised.isEmpty ? "none raised" : raised.joined(separator: ", ")
        }
    }
}

extension Text {
    /// A `deviceMotion` event (or `status`'s): the frame, the quaternion, the rate.
    static func deviceMotion(_ m: WireDeviceMotion) -> String {
        let q = [m.attitude.w, m.attitude.x, m.attitude.y, m.attitude.z].map { Text.number($0) }.joined(separator: " ")
        let rate = m.rotationRate.map { "rate \(Text.number($0.x)) \(Text.number($0.y)) \(Text.number($0.z)) rad/s" } ?? "no gyroscope"
        return "\(m.referenceFrame.rawValue) q (\(q)), \(rate)  @ \(m.time.rfc3339)"
    }
}
