import ArgumentParser
import Foundation
import SextantProtocol

struct SextantctlCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "sextantctl",
        abstract: "Control sextantd: permissions, prompts, Location Services, apps, replays and the device's sensors.",
        discussion: """
            sextantctl talks to the daemon's control socket (RUNTIME-DIR/control.sock), which \
            serves only the daemon's own user and root. Every command takes --runtime-dir and \
            --json; on an error it prints the daemon's message (JSON on standard output with --json) \
            and exits with the status of sextantctl(1)'s table: 1 the daemon refused, 64 usage, \
            69 no daemon, 75 a wait timed out. The trace \
            commands work on files alone and need no daemon.
            """,
        version: sextantVersion,
        subcommands: [
            Status.self, Services.self, Permissions.self, Prompts.self, Apps.self, LocationCommand.self,
            Rotate.self, Accel.self, Hinge.self, RotationLock.self, Replay.self, Record.self, GNSSCommand.self, Watch.self, TraceCommand.self, Demo.self, Run.self, ResetCommand.self, ExecSupervised.self,
            RegionsCommand.self,
            Panel.self,
            Magnet.self, HeadingCommand.self,
            BrowserCommand.self,
            TimeCommand.self,
            ActivityCommand.self,
            Light.self, Proximity.self, Pressure.self,
            Gyro.self,
        ])

    /// `sextantctl --json status` works as well as `sextantctl status --json`: the options
    /// every command takes may also come before the command's name, as with git or docker.
    static func main(arguments commandLine: [String]) async {
        // A parent may start us with SIGINT and SIGTERM blocked (Foundation's Process does):
        // `watch` and the waits must still end on Ctrl-C or kill.
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        sigaddset(&stopSignals, SIGINT)
        sigaddset(&stopSignals, SIGTERM)
        pthread_sigmask(SIG_UNBLOCK, &stopSignals, nil)
        let arguments = movingCommonOptionsAfterCommand(commandLine)
        // With --json (before a `--` that starts run's COMMAND), every error is JSON on stdout.
        ExitStatus.jsonErrors = arguments.prefix { $0 != "--" }.contains("--json")
        do {
            var command = try parseAsRoot(arguments)
            if var waiting = command as? AsyncParsableCommand {
                try await waiting.run()
            } else {
                try command.run()
            }
        } catch {
            if ExitStatus.jsonErrors, !(error is ExitCode), exitCode(for: error) == .validationFailure {
                ExitStatus.reportUsage(message(for: error))
                Foundation.exit(ExitStatus.usage)
            }
            exit(withError: error)
        }
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
        // Before a `--`: what follows it is positional (a LAT LON, or run's COMMAND).
        var moved = Array(rest)
        moved.insert(contentsOf: leading, at: moved.firstIndex(of: "--") ?? moved.endIndex)
        return moved
    }
}
