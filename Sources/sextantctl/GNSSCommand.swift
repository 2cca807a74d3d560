import ArgumentParser
import SextantProtocol

/// `sextantctl gnss profile SPEC|off`: the GNSS profile every source's fixes pass through.
struct GNSSCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gnss", abstract: "Make fixes what a GNSS receiver would report (RULES N1–N7).", subcommands: [Profile.self])

    struct Profile: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "profile",
            abstract: "Set the GNSS profile, or turn it off.",
            discussion: """
                SPEC is a preset (open-sky, urban, forest, indoor) and events, separated by commas: \
                cold-start, tunnel@START+DURATION (seconds after the first fix). off clears it. \
                Every source starts afresh with it; the same seed gives the same fixes.
                """)
        @OptionGroup var common: CommonOptions
        @Argument(help: "A spec such as urban,tunnel@60+30, or off.", completion: Completions.gnssProfiles) var spec: String
        @Option(help: ArgumentHelp("The generator's seed (the daemon's --seed unless given).", valueName: "n")) var seed: UInt64?

        func run() throws {
            try reporting {
                common.output(try common.call(GNSSProfileSet(profile: spec, seed: seed))) { Self.describe($0) }
            }
        }

        static func describe(_ state: GNSSProfileState) -> String {
            guard let profile = state.profile else { return "GNSS profile: off" }
            return "GNSS profile: \(profile), seed \(state.seed)"
        }
    }
}
