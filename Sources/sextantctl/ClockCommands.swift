import ArgumentParser
import SextantProtocol

/// `sextantctl time`, `time advance DURATION`, `time set TIME`, `time reset`: the device's
/// clock (RULES C1–C10). Apps never move it; this is the control side's time travel.
extension TimeCommand {
    struct Clock: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Show the device's clock (the default).")
        @OptionGroup var common: CommonOptions

        func run() throws {
            try reporting { common.output(try common.call(TimeGet())) { Self.describe($0) } }
        }

        /// `Device time: 2026-12-01T10:00:00.000Z (host + 7776000 s; monotonic + 7776000 s)`.
        static func describe(_ state: DeviceClockState) -> String {
            // Whole seconds, rounded: the JSON (--json) has the exact figure.
            func signed(_ seconds: Double) -> String { (seconds < 0 ? "- " : "+ ") + "\(Int64(abs(seconds).rounded())) s" }
            let wall = state.offsetSeconds == 0 ? "host time" : "host \(signed(state.offsetSeconds))"
            return "Device time: \(state.wall.rfc3339) (\(wall); monotonic \(signed(state.monotonicOffsetSeconds)))"
        }
    }

    struct Advance: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "advance",
            abstract: "Move the device's clock forward: timers due by then fire at once.",
            discussion: "DURATION is a number with a unit, s, m, h or d (61s, 15m, 2h, 90d), or seconds alone.")
        @OptionGroup var common: CommonOptions
        @Argument(help: "How far: 61s, 15m, 2h, 90d.") var duration: String

        func run() throws {
            try reporting {
                guard let seconds = TimeAdvance.seconds(parsing: duration) else {
                    throw ValidationError("DURATION must be a number with s, m, h or d (61s, 15m, 2h, 90d), not \(TerminalText.escaped(duration))")
                }
                let request = try common.request(TimeAdvance.self, ["seconds": .double(seconds)])
                common.output(try common.call(request)) { Clock.describe($0) }
            }
        }
    }

    struct SetWall: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set", abstract: "Set the device's wall clock (earlier moves only the wall: RULES C4).")
        @OptionGroup var common: CommonOptions
        @Argument(help: "An RFC 3339 time, such as 2026-12-01T10:00:00Z.") var time: String

        func run() throws {
            try reporting {
                let request = try common.request(TimeSet.self, ["wall": .string(time)])
                common.output(try common.call(request)) { Clock.describe($0) }
            }
        }
    }

    struct Reset: ParsableCommand {
        static let configuration = CommandConfiguration(commandName: "reset", abstract: "Put the device's wall clock back on the host's.")
        @OptionGroup var common: CommonOptions

        func run() throws {
            try reporting { common.output(try common.call(TimeReset())) { Clock.describe($0) } }
        }
    }
}
