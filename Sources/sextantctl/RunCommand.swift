import ArgumentParser
import Foundation
import SextantClient
import SextantProtocol

/// `sextantctl run -- COMMAND`: a private daemon for the length of one command, as
/// `dbus-run-session` gives a private bus. COMMAND finds it through SEXTANT_RUNTIME_DIR.
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run",
        abstract: "Run COMMAND against a private sextantd on fresh temporary directories, then stop it.",
        discussion: """
            The daemon starts with an ephemeral store, no gpsd and no IIO sensors (unless --gpsd or \
            --iio), and COMMAND starts once it has said READY=1, with SEXTANT_RUNTIME_DIR (every \
            client's default) and SEXTANT_DAEMON_LOG in its environment. When COMMAND ends, the \
            daemon is stopped and the directories removed (kept with --keep); run exits with \
            COMMAND's status. SIGINT and SIGTERM reach COMMAND, then the daemon. Exit status: \
            COMMAND's; 64 bad usage or a trace that does not load; 69 the daemon did not start; \
            70 the daemon died while COMMAND ran (its log's tail is printed); 126 COMMAND cannot \
            be run; 127 COMMAND not found.
            """)

    @Option(help: ArgumentHelp("Replay this trace (Sextant JSONL, NMEA or GPX) once the daemon is ready.", valueName: "path"), completion: .file())
    var trace: String?
    @Option(parsing: .unconditional, help: ArgumentHelp("The replay's speed: a factor of real time, or max.", valueName: "N|max"), completion: Completions.speeds)
    var speed: String = "1"
    @Flag(help: "Replay the trace over and over.")
    var loop = false
    @Option(
        help: ArgumentHelp("Control actions to play at times of the trace (sextant-trace(5), CONTROL LINES), as replay start --scenario.", valueName: "FILE"),
        completion: .file())
    var scenario: String?
    @Option(help: "Device profile: phone, tablet or foldable.")
    var profile: DeviceProfile = .phone
    @Option(name: .customLong("prompt-policy"), help: ArgumentHelp("Answer new prompts with this choice, or ask.", valueName: "ask|CHOICE"), completion: Completions.policies)
    var promptPolicy: String?
    @Option(name: .customLong("grant"), help: ArgumentHelp("Authorize an app before COMMAND starts (repeatable).", valueName: "APP[:always][:approximate]"))
    var grants: [String] = []
    @Option(help: ArgumentHelp("Location Services at the start.", valueName: "on|off"))
    var services: OnOff = .on
    @Option(help: ArgumentHelp("Take live fixes from this gpsd (none by default).", valueName: "host[:port]"))
    var gpsd: String?
    @Flag(help: "Read the IIO sensors udev lists (e.g. a umockdev testbed's); off by default.")
    var iio = false
    @Flag(help: "Keep the directories, the store and the daemon's log, and print where they are.")
    var keep = false
    @Option(help: ArgumentHelp("Write the daemon's log to this file (kept).", valueName: "path"), completion: .file())
    var log: String?
    @Option(
        name: .customLong("allow-once-timeout"),
        help: ArgumentHelp("Seconds an allowOnce grant survives in the background (default 10, the grace of \"in use\"): the daemon's option.", valueName: "seconds"))
    var allowOnceTimeout: Double?
    @Option(help: ArgumentHelp("The phone to play (docs/platforms.md PF1): the daemon's option.", valueName: "ios|android"))
    var platform: String?
    @Option(name: .customLong("android-api"), help: ArgumentHelp("With --platform android: the API level (29-36, default 36).", valueName: "level"))
    var androidAPI: Int?

    @Argument(parsing: .postTerminator, help: ArgumentHelp("The command to run, after --.", valueName: "command"))
    var command: [String] = []

    func validate() throws {
        guard !command.isEmpty else { throw ValidationError("give the command to run after --, e.g. sextantctl run -- pytest") }
        guard ReplaySpeed(parsing: speed) != nil else {
            throw ValidationError(ReplaySpeed.optionProblem)
        }
        if androidAPI != nil || platform != nil, case .failure(let problem) = DevicePlatform.parse(name: platform ?? "ios", androidAPI: androidAPI) {
            throw ValidationError(problem.description)
        }
        let modes = ["ask"] + PromptChoice.allCases.filter(\.isAuthorizationChoice).map(\.rawValue)
        if let promptPolicy, !modes.contains(promptPolicy) {
            throw ValidationError("--prompt-policy must be one of: \(modes.joined(separator: ", "))")
        }
        for grant in grants { _ = try GrantSpec(grant) }
        if speed != "1" || loop || scenario != nil, trace == nil { throw ValidationError("--speed, --loop and --scenario go with --trace") }
    }

    func run() throws {
        switch CommandLookup.resolve(command[0], path: ProcessInfo.processInfo.environment["PATH"]) {
        case .missing:
            throw Run.exit(127, "\(command[0]): command not found")
        case .notExecutable(let path):
            throw Run.exit(126, "\(path): cannot be run (not an executable file)")
        case .found(let path):
            let session = try PrivateDaemon(options: self)
            let status = session.run(command: [path] + command.dropFirst())
            throw ExitCode(status)
        }
    }

    static func exit(_ status: Int32, _ message: String) -> ExitCode {
        FileHandle.standardError.write(Data("sextantctl run: \(message)\n".utf8))
        return ExitCode(status)
    }

    /// What the options set up, for COMMAND (`SEXTANT_RUN_SCENE`): the pytest plugin sets
    /// it again before each test (docs/testing.md).
    var scene: JSONValue {
        let grantList: [JSONValue] = grants.compactMap { try? GrantSpec($0) }.map {
            ["app": .string($0.app), "always": .bool($0.always), "approximate": .bool($0.approximate)]
        }
        return [
            "trace": JSONValue(trace.map { URL(fileURLWithPath: $0).standardizedFileURL.path }), "speed": ReplaySpeed(parsing: speed)?.json ?? .null,
            "loop": .bool(loop), "grants": .array(grantList), "services": .bool(services == .on), "promptPolicy": JSONValue(promptPolicy),
            "scenario": JSONValue(scenarioPath),
        ]
    }

    /// `--scenario` as the daemon opens it, whatever run's working directory.
    var scenarioPath: String? { scenario.map { URL(fileURLWithPath: $0).standardizedFileURL.path } }

    /// The daemon's arguments, after the directories.
    var daemonArguments: [String] {
        var arguments = ["--profile", profile.rawValue]
        if let promptPolicy { arguments += ["--prompt-policy", promptPolicy] }
        arguments += gpsd.map { ["--gpsd", $0] } ?? ["--no-gpsd"]
        if !iio { arguments.append("--no-iio") }
        if let allowOnceTimeout { arguments += ["--allow-once-timeout", String(allowOnceTimeout)] }
        if let platform { arguments += ["--platform", platform] }
        if let androidAPI { arguments += ["--android-api", String(androidAPI)] }
        // gpsd's protocol on a free loopback port, for COMMAND's gpsd clients (GPSD_HOST, GPSD_PORT).
        arguments += ["--gpsd-listen", "127.0.0.1:0"]
        return arguments
    }
}

/// `--grant APP[:always][:approximate]`.
struct GrantSpec {
    var app: String
    var always = false
    var approximate = false

    init(_ text: String) throws {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        app = parts[0]
        guard AppID.isValid(app) else { throw ValidationError("--grant \(text): \(app.isEmpty ? "no app id" : "\(app) is not a valid app id")") }
        for word in parts.dropFirst() {
            switch word {
            case "always": always = true
            case "approximate": approximate = true
            default: throw ValidationError("--grant \(text): \(word) is neither always nor approximate")
            }
        }
    }

    var request: PermissionsSet { .grant(app, always: always, approximate: approximate) }
}

extension DeviceProfile: ExpressibleByArgument {}
