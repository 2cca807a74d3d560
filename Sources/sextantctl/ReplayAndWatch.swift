import ArgumentParser
import Foundation
import SextantClient
import SextantProtocol
import SextantTraces

struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "replay",
        abstract: "Replay a recorded trace (Sextant JSONL, NMEA or GPX) on the daemon's virtual clock.",
        subcommands: [Start.self, Stop.self, StatusCommand.self, Pause.self, Resume.self, Seek.self, Step.self])

    static func describe(_ r: JSONValue) -> String {
        "\(Text.plain(r["state"])): \(Text.plain(r["path"])) "
            + String(format: "%.1f/%.1fs", r["position"]?.doubleValue ?? 0, r["duration"]?.doubleValue ?? 0)
            + ", \(Text.plain(r["events"])) samples, speed \(Text.plain(r["speed"]))\(r["loop"]?.boolValue == true ? ", looping" : "")"
            + (r["waitingForRequest"]?.boolValue == true ? ", waiting for an app's location request" : "")
    }

    /// The same line, of a decoded status (a `replay` event).
    static func describe(_ r: ReplayStatus) -> String {
        "\(r.state.rawValue): \(r.path.map(TerminalText.escaped) ?? "-") " + String(format: "%.1f/%.1fs", r.position, r.duration)
            + ", \(r.events) samples, speed \(Text.plain(r.speed.json))\(r.loop ? ", looping" : "")"
            + (r.waitingForRequest ? ", waiting for an app's location request" : "")
    }

    struct Start: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "start",
            abstract: "Start replaying PATH (replaces a running replay).",
            discussion: """
                With --wait, sextantctl follows the replay it started, with a progress bar on a terminal, \
                and exits 0 when it finishes (or pauses at --until); 1 at once when it is stopped or another replay replaces \
                it. Ctrl-C (or SIGTERM) stops the replay it started and exits 130; with --detach the \
                replay goes on without it. Loading a trace has no time limit.
                """)
        @OptionGroup var common: CommonOptions
        @Argument(help: "The trace file.", completion: .file()) var path: String
        @Option(
            parsing: .unconditional, help: ArgumentHelp("A factor of real time, or max (as fast as clients read).", valueName: "N|max"),
            completion: Completions.speeds) var speed: String = "1"
        @Flag(help: "Start again at the end.") var loop = false
        @Option(help: ArgumentHelp("Pause when the replay's clock reaches T seconds of the trace.", valueName: "T")) var until: Double?
        @Flag(help: "Wait, paused at the start, for the first location request of an app (or replay resume).") var startOnRequest = false
        @Option(
            help: ArgumentHelp("Control actions to play at times of the trace (sextant-trace(5), CONTROL LINES).", valueName: "FILE"),
            completion: .file()) var scenario: String?
        @Option(
            name: .customLong("gnss-provider"),
            help: ArgumentHelp("Whose fixes a GnssLogger recording plays: gps, flp, nlp, any, or auto (the daemon's --gnss-provider).", valueName: "provider"))
        var gnssProvider: GnssProvider?
        @Flag(help: "Return when the replay ends (see below).") var wait = false
        @Flag(help: "With --wait: Ctrl-C leaves the replay running.") var detach = false

        func validate() throws {
            guard ReplaySpeed(parsing: speed) != nil else {
                throw ValidationError(ReplaySpeed.optionProblem)
            }
            if let until { guard until >= 0, until.isFinite else { throw ValidationError("--until must be a number of seconds, 0 or more") } }
            if detach, !wait { throw ValidationError("--detach goes with --wait") }
        }

        func run() async throws {
            try await reporting {
                let absolute = URL(fileURLWithPath: path).standardizedFileURL.path
                let scenarioPath = scenario.map { URL(fileURLWithPath: $0).standardizedFileURL.path }
                let request = ReplayStart(
                    path: absolute, speed: ReplaySpeed(parsing: speed) ?? .factor(1), loop: loop, until: until,
                    startOnRequest: startOnRequest ? true : nil, scenario: scenarioPath, gnssProvider: gnssProvider?.rawValue)
                let connection = try common.control()
                guard wait else {
                    let id = try connection.send(request)
                    // No fixed limit: loading a large trace takes the time it takes.
                    common.output(try await connection.answer(to: id)) { _ in "Replaying \(absolute)" }
                    return
                }
                let follower = ReplayFollower(connection: connection, path: absolute, detach: detach, pausesAtEnd: until != nil, bar: ProgressBar(enabled: !common.json && isatty(STDOUT_FILENO) == 1))
                let final = try await follower.start(request)
                common.output(final, human: Replay.describe)
            }
        }
    }

    struct Pause: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "pause", abstract: "Pause the running replay on its clock.")
        @OptionGroup var common: CommonOptions
        func run() throws { try reporting { common.output(try common.call(ReplayPause())) { Replay.describe($0.json) } } }
    }

    struct Resume: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "resume",
            abstract: "Resume a paused replay where it stopped.",
            discussion: """
                With --until T the replay pauses again when its clock reaches T seconds of the trace (of the current \
                lap), the samples at exactly T played, at any speed. With --wait, sextantctl returns once the replay \
                pauses or finishes (exit 0), or fails if it is stopped.
                """)
        @OptionGroup var common: CommonOptions
        @Option(help: ArgumentHelp("Pause again when the replay's clock reaches T seconds of the trace.", valueName: "T")) var until: Double?
        @Flag(help: "Return when the replay pauses or ends.") var wait = false

        func validate() throws {
            if let until { guard until >= 0, until <= 1e9, until.isFinite else { throw ValidationError("--until must be a number of seconds from 0 to 1e9") } }
        }

        func run() async throws {
            try await reporting {
                guard wait else { return common.output(try common.call(ReplayResume(until: until))) { Replay.describe($0.json) } }
                let connection = try common.control()
                _ = try await connection.request(WatchRequest(topics: [Event.replay]))
                var status = try await connection.request(ReplayResume(until: until)).json
                // As long as it runs: the daemon's going away ends the wait.
                while status["state"] == "running" {
                    let event = try await connection.notification()
                    if event.method == Event.replay { status = event.params }
                }
                if status["state"] == "stopped" { throw StatusFailure(ExitStatus.failed, "the replay was stopped before it paused") }
                common.output(status, human: Replay.describe)
            }
        }
    }

    struct Seek: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "seek", abstract: "Move the replay's clock to T seconds of the trace.")
        @OptionGroup var common: CommonOptions
        @Argument(help: ArgumentHelp("Seconds from the trace's start.", valueName: "T")) var position: Double
        func validate() throws { guard position >= 0, position.isFinite else { throw ValidationError("T must be a number of seconds, 0 or more") } }
        func run() throws { try reporting { common.output(try common.call(ReplaySeek(position: position))) { Replay.describe($0.json) } } }
    }

    struct Step: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "step", abstract: "Play the next N samples of a paused replay (default 1).")
        @OptionGroup var common: CommonOptions
        @Argument(help: "How many samples.") var count: Int = 1
        func validate() throws { guard (1...1_000_000).contains(count) else { throw ValidationError("N must be from 1 to 1000000") } }
        func run() throws { try reporting { common.output(try common.call(ReplayStep(count: count))) { Replay.describe($0.json) } } }
    }

    struct Stop: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "stop", abstract: "Stop the running replay.")
        @OptionGroup var common: CommonOptions
        func run() throws { try reporting { common.output(try common.call(ReplayStop())) { Replay.describe($0.json) } } }
    }

    struct StatusCommand: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "status", abstract: "Show the replay's progress.")
        @OptionGroup var common: CommonOptions
        func run() throws { try reporting { common.output(try common.call(ReplayStatusRequest())) { Replay.describe($0.json) } } }
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
