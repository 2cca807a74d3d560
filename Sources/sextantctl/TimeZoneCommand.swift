import ArgumentParser
import SextantProtocol

/// `sextantctl time zone [set ZONE|auto]`: the device's zone (RULES Z1–Z10); `sextantctl
/// time [advance|set|reset]`: its clock (RULES C1–C10, ClockCommands.swift).
struct TimeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "time", abstract: "The device's clock (RULES C1–C10) and time zone (RULES Z1–Z10).",
        subcommands: [Zone.self, Clock.self, Advance.self, SetWall.self, Reset.self], defaultSubcommand: Clock.self)

    struct Zone: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "zone",
            abstract: "Show the device's time zone, or set it by hand (stored), or back to automatic.",
            discussion: """
                time zone: the zone now. time zone set ZONE: the zone wins over the position's, \
                as "Set Automatically" off does on a phone (RULES Z9), kept across restarts. \
                time zone set auto: the zone follows the position again.
                """,
            subcommands: [Show.self, Set.self], defaultSubcommand: Show.self)

        struct Show: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "show", abstract: "Show the device's time zone (as status does).")
            @OptionGroup var common: CommonOptions

            func run() throws {
                try reporting {
                    let status = try common.call(StatusRequest())
                    common.output(status["timeZone"] ?? .null) { Self.describe($0) }
                }
            }

            static func describe(_ zone: JSONValue) -> String {
                guard let wire = try? WireTimeZone(json: zone) else { return "Time zone: unknown" }
                var text = "Time zone: " + Zone.describe(wire)
                if zone["table"]?.isNull ?? true { text += " (no time zone table: the zone follows nothing; sextantd --time-zone-table)" }
                return text
            }
        }

        struct Set: ParsableCommand {
            static let configuration = CommandConfiguration(commandName: "set", abstract: "Set the zone by hand (an IANA id such as Europe/Lisbon), or auto.")
            @OptionGroup var common: CommonOptions
            @Argument(help: "A zone id, or auto.") var zone: String

            func run() throws {
                try reporting {
                    let request = TimeZoneSet(zone: zone == "auto" ? nil : zone)
                    common.output(try common.call(request)) { "Time zone: " + Zone.describe($0) }
                }
            }
        }

        /// `Europe/Madrid (UTC+02:00, DST), automatic` — or `unknown`.
        static func describe(_ zone: WireTimeZone) -> String {
            let mode = zone.automatic ? "automatic" : "set by hand"
            guard let id = zone.zone else { return "unknown (no fix yet), \(mode)" }
            var text = TerminalText.escaped(id)
            if let offset = zone.utcOffset {
                let sign = offset < 0 ? "-" : "+"
                let minutes = abs(offset) / 60
                text += " (UTC\(sign)\(minutes / 60 < 10 ? "0" : "")\(minutes / 60):\(minutes % 60 < 10 ? "0" : "")\(minutes % 60)"
                text += zone.isDST == true ? ", DST)" : ")"
            }
            return text + ", \(mode)"
        }
    }
}
