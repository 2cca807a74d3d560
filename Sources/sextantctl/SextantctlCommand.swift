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
        version: "0.1.0",
        subcommands: [
            Status.self, Services.self, Permissions.self, Prompts.self, Apps.self, LocationCommand.self,
            Rotate.self, Accel.self, Hinge.self, RotationLock.self, Replay.self, Record.self, Watch.self, TraceCommand.self, Demo.self,
        ])
}
