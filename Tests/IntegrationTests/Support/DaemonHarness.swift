import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// Where the built binaries are: beside the test bundle (`swift test` builds them all),
/// or `SEXTANT_BIN_DIR`.
enum Binaries {
    static let directory: String = {
        if let dir = ProcessInfo.processInfo.environment["SEXTANT_BIN_DIR"] { return dir }
        let me = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var dir = (me as NSString).deletingLastPathComponent
        // The test runner may live inside the .xctest bundle directory.
        for _ in 0..<4 where !FileManager.default.isExecutableFile(atPath: dir + "/sextantd") {
            dir = (dir as NSString).deletingLastPathComponent
        }
        return dir
    }()

    static var sextantd: String { directory + "/sextantd" }
    static var sextantctl: String { directory + "/sextantctl" }
    static var sampleApp: String { directory + "/sextant-sample-app" }
}

/// The repository's root, from this file's path.
enum Repository {
    static let root: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<4 { url.deleteLastPathComponent() }
        return url.path
    }()
}

/// A real `sextantd` on private directories, for one test.
final class DaemonHarness {
    private let scratch: TemporaryDirectory
    var directory: String { scratch.path }
    let runtime: String
    let state: String
    private(set) var process: Process
    private let arguments: [String]
    /// A program that runs the daemon (`prlimit --nofile=N:N`), or none.
    private let launcher: [String]
    /// The fake IIO sensors the daemon reads; without them it runs with `--no-iio`, so
    /// that a machine's real accelerometer never feeds a test.
    private let sensors: IIOTestbed?
    private let baseEnvironment: [String: String]
    let logPath: String
    /// The uid the daemon runs as when not the test's (as the shipped unit's DynamicUser).
    let user: UInt32?

    /// Starts a daemon and waits (up to 15 s) for its READY=1.
    init(
        arguments: [String] = [], sensors: IIOTestbed? = nil, state: String? = nil, directoryMode: Int = 0o700, launcher: [String] = [],
        environment: [String: String]? = nil, user: UInt32? = nil
    ) throws {
        scratch = try TemporaryDirectory("test", mode: user == nil ? directoryMode : 0o755)
        runtime = scratch.file("run")
        self.state = state ?? scratch.file("state")
        logPath = scratch.file("sextantd.log")
        self.arguments = arguments
        self.user = user
        self.launcher = user.map { ["/usr/bin/setpriv", "--reuid=\($0)", "--regid=\($0)", "--clear-groups"] + launcher } ?? launcher
        if let user {
            // Its own directories, as systemd makes them for a DynamicUser.
            for path in [runtime, self.state] {
                try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
                guard chown(path, user, user) == 0 else { throw HarnessError("chown \(path): \(String(cString: strerror(errno)))") }
            }
        }
        self.sensors = sensors
        self.baseEnvironment = environment ?? ProcessInfo.processInfo.environment
        process = Process()
        process = try start()
    }

    deinit {
        if process.isRunning {
            process.terminate()
            _ = waitForEnd(of: process)
        }
    }

    private func start() throws -> Process {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: Binaries.sextantd)
        let store = arguments.contains("--ephemeral") ? [] : ["--state-dir", state]
        var options = ["--runtime-dir", runtime] + store + ["--log-level", "debug"] + arguments
        // Hermetic: a daemon under test reads only the fake sensors it is given and reaches
        // gpsd only when told where, never this machine's own sensors or gpsd on :2947.
        let readiness = try ReadinessNotification(path: directory + "/notify.sock")
        if let user { chown(readiness.path, user, user) }
        var environment = baseEnvironment
        environment["NOTIFY_SOCKET"] = readiness.path
        if let sensors {
            environment.merge(sensors.environment) { $1 }
        } else if !options.contains("--no-iio") {
            options.append("--no-iio")
        }
        p.environment = environment
        if !arguments.contains("--gpsd") { options.append("--no-gpsd") }
        p.arguments = options
        if let program = launcher.first {
            // The launcher execs the daemon, so the process keeps its pid.
            p.executableURL = URL(fileURLWithPath: program)
            p.arguments = launcher.dropFirst() + [Binaries.sextantd] + options
        }
        if !FileManager.default.fileExists(atPath: logPath) { _ = FileManager.default.createFile(atPath: logPath, contents: nil) }
        let logHandle = FileHandle(forWritingAtPath: logPath)!
        logHandle.seekToEndOfFile()
        p.standardError = logHandle
        p.standardOutput = logHandle
        try launch(p)
        // READY=1 comes once both sockets are bound (as systemd's Type=notify expects).
        try readiness.waitForReady(of: p, timeout: 15, log: log)
        return p
    }

    /// Starts the daemon again on the same directories (after a kill).
    func restart() throws {
        if process.isRunning {
            process.terminate()
            _ = waitForEnd(of: process)
        }
        process = try start()
    }

    /// The log so far. Decoded leniently: a read can end inside a multi-byte character the
    /// daemon is still writing, and a strict decoding would then give nothing at all.
    func log() -> String {
        guard let bytes = FileManager.default.contents(atPath: logPath) else { return "" }
        return String(decoding: bytes, as: UTF8.self)
    }

    func control() throws -> SextantConnection { try SextantConnection.control(runtimeDirectory: runtime) }

    /// Connects an app and says hello.
    func app(_ id: String, state: String = "foreground", orientations: [String]? = nil) throws -> (SextantConnection, JSONValue) {
        let connection = try SextantConnection.app(runtimeDirectory: runtime)
        var params: [String: JSONValue] = ["app": .string(id), "state": .string(state)]
        if let orientations { params["orientations"] = .array(orientations.map { .string($0) }) }
        let hello = try connection.call(Method.hello, .object(params))
        return (connection, hello)
    }

    /// Polls `status` until `satisfied` holds, for what the daemon announces by no event
    /// (a source's state, a decision made before any app was there).
    func waitForStatus(_ description: String, timeout: Double = 15, until satisfied: (JSONValue) -> Bool) throws {
        var last: JSONValue = .null
        try poll(timeout: timeout, failure: { "waited \(timeout) s for \(description); last status: \(last.serialized())\n\(log())" }) {
            last = try control().call(Method.status)
            return satisfied(last) ? () : nil
        }
    }

    /// Runs `sextantctl` against this daemon.
    func ctl(_ arguments: [String], asUser: UInt32? = nil) throws -> CommandResult {
        var command = [Binaries.sextantctl] + arguments + ["--runtime-dir", runtime]
        if let uid = asUser {
            command = ["/usr/bin/setpriv", "--reuid=\(uid)", "--regid=\(uid)", "--clear-groups"] + command
        }
        return try run(command)
    }

    /// Sends SIGKILL and waits for the process to be gone.
    func kill9() {
        kill(process.processIdentifier, SIGKILL)
        _ = waitForEnd(of: process)
    }

    /// SIGTERM; the exit status.
    func terminate() -> Int32 {
        process.terminate()
        return waitForEnd(of: process)
    }

    /// Writes a file in the test's directory.
    func write(_ name: String, _ text: String) throws -> String { try scratch.write(name, text) }
}

extension SextantConnection {
    /// Events until (and including) the first that matches.
    func events(until description: String, timeout: Double = 20, where matches: (ServerEvent) -> Bool) throws -> [ServerEvent] {
        var seen: [ServerEvent] = []
        _ = try nextEvent(timeout: timeout, description: description) { event in
            seen.append(event)
            return matches(event)
        }
        return seen
    }
}

/// The daemon's error for a call, or nil when it succeeded.
func rpcError(_ body: () throws -> JSONValue) throws -> RPCError? {
    do {
        _ = try body()
        return nil
    } catch ClientError.rpc(let error) {
        return error
    }
}

/// The daemon's error code for a call, or nil when it succeeded.
func errorCode(_ body: () throws -> JSONValue) throws -> Int? { try rpcError(body)?.code }
