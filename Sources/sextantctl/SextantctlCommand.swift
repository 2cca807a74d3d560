import ArgumentParser
import SextantProtocol

@main
struct SextantctlCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sextantctl",
        abstract: "Control sextantd: permissions, prompts, Location Services, apps, replays and the device's sensors.",
        discussion: """
            sextantctl talks to the daemon's control socket (RUNTIME-DIR/control.sock), which \
            serves only the daemon's own user and root. Every command takes --runtime-dir and \
            --json; it exits with status 1 and the daemon's message on any error. The trace \
            commands work on files alone and need no daemon.
            """,
        version: sextantVersion,
        subcommands: [
            Status.self, Services.self, Permissions.self, Prompts.self, Apps.self, LocationCommand.self,
            Rotate.self, Accel.self, Hinge.self, RotationLock.self, Replay.self, Record.self, Watch.self, TraceCommand.self, Demo.self,
        ])

    /// `sextantctl --json status` works as well as `sextantctl status --json`: the options
    /// every command takes may also come before the command's name, as with git or docker.
    static func main() {
        main(movingCommonOptionsAfterCommand(Array(CommandLine.arguments.dropFirst())))
    }

    static func movingCommonOptionsAfterCommand(_ arguments: [String]) -> [String] {
        var leading: [String] = []
        var rest = arguments[...]
        while let first = rest.first {
            if first == "--json" || first.hasPrefix("--runtime-dir=") {
                leading.append(first)
                rest = rest.dropFirst()
            } else if first == "--runtime-dir", rest.count >= 2 {
                leading += rest.prefix(2)
                rest = rest.dropFirst(2)
            } else {
                break
            }
        }
        return Array(rest) + leading
    }
}
