import ArgumentParser
import Foundation
import SextantClient
import SextantProtocol

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replay a recorded trace (Sextant JSONL, NMEA or GPX) on the daemon's virtual clock.",
        subcommands: [Start.self, Stop.self, StatusCommand.self])

    static func describe(_ r: JSONValue) -> String {
        "\(Text.plain(r["state"])): \(Text.plain(r["path"])) "
            + String(format: "%.1f/%.1fs", r["position"]?.doubleValue ?? 0, r["duration"]?.doubleValue ?? 0)
            + ", \(Text.plain(r["events"])) samples, speed \(Text.plain(r["speed"]))\(r["loop"]?.boolValue == true ? ", looping" : "")"
    }

    struct Start: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Start replaying PATH (replaces a running replay).")
        @OptionGroup var common: CommonOptions
        @Argument(help: "The trace file.") var path: String
        @Option(help: ArgumentHelp("A factor of real time, or max (as fast as clients read).", valueName: "N|max")) var speed: String = "1"
        @Flag(help: "Start again at the end.") var loop = false
        @Flag(help: "Return when the replay ends, with a progress bar on a terminal.") var wait = false

        func validate() throws {
            guard speed == "max" || (Double(speed).map { $0 > 0 && $0.isFinite } ?? false) else {
                throw ValidationError("--speed must be a positive number or max")
            }
        }

        func run() throws {
            try reporting {
                let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
                let params: JSONValue = [
                    "path": .string(absolute), "speed": speed == "max" ? "max" : .double(Double(speed)!), "loop": .bool(loop),
                ]
                guard wait else {
                    common.output(try common.call(Method.replayStart, params)) { _ in "Replaying \(absolute)" }
                    return
                }
                let connection = try common.control()
                _ = try connection.call(Method.watch, ["topics": ["replay"]])
                _ = try connection.call(Method.replayStart, params)
                let bar = ProgressBar(enabled: !common.json && isatty(STDOUT_FILENO) == 1)
                while true {
                    let event = try connection.nextEvent(timeout: 3600, description: "the replay to end") { $0.method == Event.replay }
                    let status = event.params
                    guard status["path"]?.stringValue == absolute else { continue }
                    bar.show(position: status["position"]?.doubleValue ?? 0, duration: status["duration"]?.doubleValue ?? 0, events: status["events"]?.intValue ?? 0)
                    let state = status["state"]?.stringValue
                    if state == "finished" || state == "stopped" {
                        bar.finish()
                        common.output(status, human: Replay.describe)
                        if state == "stopped" { throw Failure("the replay was stopped before its end") }
                        return
                    }
                }
            }
        }
    }

    struct Stop: ParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Stop the running replay.")
        @OptionGroup var common: CommonOptions
        func run() throws { try reporting { common.output(try common.call(Method.replayStop), human: Replay.describe) } }
    }

    struct StatusCommand: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "status", abstract: "Show the replay's progress.")
        @OptionGroup var common: CommonOptions
        func run() throws { try reporting { common.output(try common.call(Method.replayStatus), human: Replay.describe) } }
    }
}

/// A one-line progress bar redrawn in place on a terminal.
struct ProgressBar {
    let enabled: Bool

    func show(position: Double, duration: Double, events: Int) {
        guard enabled else { return }
        let fraction = duration > 0 ? min(1, max(0, position / duration)) : 1
        let width = 30
        let filled = Int((fraction * Double(width)).rounded())
        let bar = String(repeating: "█", count: filled) + String(repeating: "░", count: width - filled)
        let line = String(format: "\r%@ %3.0f%%  %.1f/%.1fs  %d samples", bar, fraction * 100, position, duration, events)
        FileHandle.standardOutput.write(Data(line.utf8))
    }

    func finish() {
        guard enabled else { return }
        FileHandle.standardOutput.write(Data("\n".utf8))
    }
}

struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print every event the daemon publishes, live, one line each (NDJSON with --json).",
        discussion: "Events that went to an app carry its id and session; Ctrl-C stops.")
    @OptionGroup var common: CommonOptions
    @Option(help: "Only events that went to this app.") var app: String?
    @Option(name: .customLong("topic"), help: ArgumentHelp("Only these event names (repeatable), e.g. location, authorization, prompt.", valueName: "name"))
    var topics: [String] = []

    func run() throws {
        try reporting {
            let connection = try common.control()
            _ = try connection.call(Method.watch, ["topics": .array(topics.map { .string($0) })])
            while true {
                let event: ServerEvent
                do {
                    event = try connection.nextEvent(timeout: 86_400)
                } catch ClientError.timedOut {
                    continue
                }
                if let app, event.params["app"]?.stringValue != app { continue }
                if common.json {
                    print(JSONValue.object(["method": .string(event.method), "params": event.params]).serialized())
                } else {
                    print(EventText.line(event))
                }
                fflush(nil)  // one line at a time, also into a pipe
            }
        }
    }
}

/// One readable line per event, for `watch` and the demo.
enum EventText {
    static func line(_ event: ServerEvent) -> String {
        let p = event.params
        let clock = String(Timestamp(seconds: Date().timeIntervalSince1970).rfc3339.dropFirst(11).dropLast())
        var who = p["app"]?.stringValue ?? "daemon"
        if let session = p["session"]?.intValue, event.method != Event.prompt, event.method != Event.promptClosed { who += "#\(session)" }
        return "\(clock)  \(who.padding(toLength: max(24, who.count), withPad: " ", startingAt: 0))  \(event.method.padding(toLength: 20, withPad: " ", startingAt: 0))  \(summary(event))"
    }

    static func summary(_ event: ServerEvent) -> String {
        let p = event.params
        switch event.method {
        case Event.location: return Text.coordinate(p) + "  @ \(Text.plain(p["time"]))"
        case Event.authorization: return "\(Text.plain(p["status"])), \(Text.plain(p["accuracy"])) accuracy"
        case Event.servicesEnabled: return p["enabled"]?.boolValue == true ? "on" : "off"
        case Event.prompt: return "\(Text.plain(p["id"])) \(Text.plain(p["kind"])) \(Text.plain(p["level"])) (answer: sextantctl prompts answer \(Text.plain(p["id"])) CHOICE)"
        case Event.promptClosed:
            return p["cancelled"]?.boolValue == true ? "\(Text.plain(p["id"])) cancelled" : "\(Text.plain(p["id"])) answered \(Text.plain(p["choice"]))"
        case Event.replay: return Replay.describe(p)
        case Event.deviceOrientation, Event.interfaceOrientation: return "\(Text.plain(p["previous"])) → \(Text.plain(p["orientation"]))"
        case Event.posture: return "\(Text.plain(p["previous"])) → \(Text.plain(p["state"])) (hinge \(Text.plain(p["hingeAngle"]))°, \(Text.plain(p["fold"])))"
        case Event.locationUnavailable: return Text.plain(p["reason"])
        default: return p.serialized()
        }
    }
}
