import ArgumentParser
import SextantClient
import SextantProtocol

struct ActivityCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "activity", abstract: "Hold the device's activity by hand, or give it back (RULES A9).",
        subcommands: [Set.self, Permission.self])

    struct Set: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "set",
            abstract: "Hold an activity over the recorded and the derived ones; auto gives it back.",
            discussion: """
                ACTIVITY is stationary, walking, running, cycling, automotive or auto. A held activity \
                is reported with high confidence from now, to `activity.start` and transition \
                subscribers alike, until `activity set auto`; steps are still counted from the fixes' \
                speed (RULES A7).
                """)
        @OptionGroup var common: CommonOptions
        @Argument(help: "The activity to hold, or auto.") var activity: String

        func validate() throws {
            guard activity == "auto" || ActivityType(rawValue: activity) != nil else {
                throw ValidationError("give one of \((ActivityType.allCases.map(\.rawValue) + ["auto"]).joined(separator: ", "))")
            }
        }

        func run() throws {
            try reporting {
                let held = ActivityType(rawValue: activity)
                common.output(try common.call(ActivitySet(activity: held))) { _ in
                    held.map { "Holding the activity \($0.rawValue)" } ?? "Activity given back to the trace"
                }
            }
        }
    }
}

extension ActivityCommand {
    struct Permission: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "permission",
            abstract: "Set an app's Motion & Fitness status: authorized, denied or notDetermined (RULES A11).",
            discussion: """
                Activity updates, transitions, the pedometer and their queries are refused (1001) to an \
                app not authorized, as iOS refuses them without Motion & Fitness and Android without \
                ACTIVITY_RECOGNITION. Stored with the location permissions; a status other than \
                authorized ends what the app's sessions started.
                """)
        @OptionGroup var common: CommonOptions
        @Argument(help: "The app id.") var app: String
        @Argument(help: "authorized, denied or notDetermined.") var status: MotionAuthorizationStatus

        func run() throws {
            try reporting {
                common.output(try common.call(MotionPermissionsSet(app: app, status: status))) { _ in
                    "Motion & Fitness for \(app): \(status.rawValue)"
                }
            }
        }
    }
}

extension MotionAuthorizationStatus: ExpressibleByArgument {}

extension Text {
    /// An `activity` event or `status`'s `activity`: `stationary+automotive (high, derived) since T`.
    static func activity(_ a: WireActivity) -> String {
        let types = a.types.isEmpty ? "unknown" : a.types.map(\.rawValue).joined(separator: "+")
        return "\(types) (\(a.confidence.rawValue), \(a.source)) since \(a.startDate.rfc3339)"
    }

    /// A `pedometer` event: `230 steps, 167.9 m, 1.92 steps/s`.
    static func pedometer(_ p: WirePedometer) -> String {
        "\(p.numberOfSteps) steps, \(number(p.distance)) m" + (p.currentCadence.map { ", \(number($0)) steps/s" } ?? "")
    }
}
