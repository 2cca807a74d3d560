import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport

// What the gpsd-face tests need: a plain TCP client of gpsd's protocol, the real gpsd
// clients from Debian (gpspipe, python3-gps, a small libgps program built here), and the
// daemon's bound gpsd port.

/// The Debian gpsd clients the tests run, when installed.
enum GPSDClients {
    static let gpspipe = "/usr/bin/gpspipe"
    /// Debian's Python, which python3-gps installs into (not a pyenv one on PATH).
    static let python = "/usr/bin/python3"

    static let requirement = Requirement.all([
        .tool(gpspipe, package: "gpsd-clients"), .tool(python, package: "python3-gps"), .file("/usr/include/gps.h", package: "libgps-dev"),
    ])

    /// `Tools/ci/gpsd-clients/libgps-reader.c` built once per test run with `cc -lgps`, into the
    /// build folder (`.build/test-tools`), never TMPDIR: a static is never deinitialised, so a
    /// temporary directory held by one would be left behind after every run (issue 43.11).
    /// Built under a name of this process's own, then renamed into place: two test processes
    /// may build it at once.
    static let libgpsReader: Result<String, HarnessError> = {
        let directory = toolsDirectory
        guard (try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)) != nil else {
            return .failure(HarnessError("cannot make \(directory) to build libgps-reader in"))
        }
        let output = directory + "/libgps-reader"
        let building = output + ".\(getpid())"
        let source = Repository.root + "/Tools/ci/gpsd-clients/libgps-reader.c"
        guard let built = try? run(["/usr/bin/cc", "-O2", "-Wall", "-o", building, source, "-lgps", "-lm"]), built.status == 0,
            rename(building, output) == 0
        else {
            unlink(building)
            return .failure(HarnessError("cannot build \(source) against libgps (Debian: libgps-dev)"))
        }
        return .success(output)
    }()

    /// Where test tools built from the repository's sources go: beside the build's own products.
    static let toolsDirectory = Repository.root + "/.build/test-tools"
}

/// A real client process whose standard output goes to a file, stopped at the end of the test.
final class ClientProcess {
    let process = Process()
    let outputPath: String
    private let exited = DispatchSemaphore(value: 0)

    init(_ command: [String], directory: String, name: String, environment: [String: String]? = nil) throws {
        outputPath = directory + "/" + name + ".out"
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        if let environment { process.environment = environment }
        _ = FileManager.default.createFile(atPath: outputPath + ".err", contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: outputPath)
        process.standardError = FileHandle(forWritingAtPath: outputPath + ".err")
        process.standardInput = FileHandle.nullDevice
        process.terminationHandler = { [exited] _ in exited.signal() }
        try launch(process)
    }

    deinit { stop(process) }

    var name: String { process.executableURL!.lastPathComponent }

    /// Waits for the process to end by itself; its exit status.
    func exitStatus(timeout: Double) throws -> Int32 {
        guard exited.wait(timeout: .now() + timeout) == .success else {
            throw HarnessError("\(name) did not finish within \(timeout) s; it printed:\n\(output())\n\(errors())")
        }
        return process.terminationStatus
    }

    /// Waits for the process to end by itself, successfully; its output lines.
    func finish(timeout: Double) throws -> [String] {
        guard try exitStatus(timeout: timeout) == 0 else {
            throw HarnessError("\(process.executableURL!.lastPathComponent) exited with \(process.terminationStatus):\n\(output())\n\(errors())")
        }
        // Split on Character.isNewline: gpsd ends its lines with CR LF, one Swift Character.
        return output().split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// Waits until the process printed `line` (it says nothing else that can be waited on).
    func waitForLine(_ line: String, timeout: Double = 10) throws {
        try waitForOutput(timeout: timeout, every: 0.01, "print \(line)") { $0.split(whereSeparator: \.isNewline).contains(Substring(line)) ? () : nil }
    }

    /// Waits until what the process printed gives `found` an answer, while it runs.
    func waitForOutput<T>(timeout: Double, every interval: Double = 0.02, _ what: String, _ found: (String) -> T?) throws -> T {
        try poll(timeout: timeout, every: interval, failure: { "\(name) did not \(what) within \(timeout) s:\n\(output())\n\(errors())" }) {
            if let answer = found(output()) { return answer }
            guard process.isRunning else { throw HarnessError("\(name) ended before it did \(what):\n\(output())\n\(errors())") }
            return nil
        }
    }

    func output() -> String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
    func errors() -> String { (try? String(contentsOfFile: outputPath + ".err", encoding: .utf8)) ?? "" }
}

/// A gpsd-protocol client on a plain socket: requests out, one report a line in.
final class GPSDFaceClient {
    private let lines: SocketLines

    /// `receiveBuffer`: as `connectLoopback`'s, for a client that is to fall behind.
    init(port: UInt16, receiveBuffer: Int32? = nil) throws {
        guard let fd = connectLoopback(port: port, receiveBuffer: receiveBuffer) else {
            throw HarnessError("cannot connect to the gpsd face on port \(port): \(String(cString: strerror(errno)))")
        }
        lines = SocketLines(fd: fd, peer: "the gpsd face")
    }

    func send(_ text: String) { lines.send(text) }

    /// The next line, CR LF removed, waiting up to `timeout` seconds.
    func nextLine(timeout: Double) throws -> String { try lines.nextLine(timeout: timeout) }

    /// The next JSON report that matches; lines that are not JSON (NMEA) are skipped.
    func nextReport(timeout: Double = 10, where matches: (JSONValue) -> Bool = { _ in true }) throws -> JSONValue {
        let deadline = monotonicSeconds() + timeout
        while true {
            let line = try nextLine(timeout: max(0, deadline - monotonicSeconds()))
            if let report = try? JSONValue.parse(line), matches(report) { return report }
        }
    }

    /// Reports up to and including the first that matches `last`.
    func reports(until last: (JSONValue) -> Bool, timeout: Double = 30) throws -> [JSONValue] {
        let deadline = monotonicSeconds() + timeout
        var seen: [JSONValue] = []
        while true {
            let report = try nextReport(timeout: max(0, deadline - monotonicSeconds()))
            seen.append(report)
            if last(report) { return seen }
        }
    }
}

extension JSONValue {
    /// A gpsd TPV that carries a position.
    var isPositionTPV: Bool { self["class"] == "TPV" && self["lat"]?.doubleValue != nil && self["lon"]?.doubleValue != nil }
    var isNoFixTPV: Bool { self["class"] == "TPV" && self["mode"]?.intValue == 1 && self["lat"] == nil }
}

extension DaemonHarness {
    /// The port the daemon's first gpsd listener is bound to (tests listen on port 0).
    func gpsdFacePort() throws -> UInt16 {
        let listeners = try control().call(Method.status)["gpsdListeners"]?.arrayValue ?? []
        guard let first = listeners.first?.stringValue, let port = first.split(separator: ":").last.flatMap({ UInt16($0) }) else {
            throw HarnessError("status shows no gpsd listener: \(listeners)")
        }
        return port
    }

    /// The `apps.list` entries of gpsd clients.
    func gpsdSessions() throws -> [JSONValue] {
        (try control().call(Method.appsList).arrayValue ?? []).filter { $0["kind"] == "gpsd" }
    }

    /// Waits until `count` gpsd clients stream locations (their `?WATCH` was handled) and
    /// their authorization request is settled: decided (a policy's answer applies once
    /// stored, a moment later), or waiting as an open prompt.
    func waitForGPSDWatchers(_ count: Int, timeout: Double = 15) throws {
        try waitForStatus("\(count) gpsd clients watching", timeout: timeout) { _ in
            let prompted = Set(((try? control().call(Method.promptsList).arrayValue) ?? []).compactMap { $0["app"]?.stringValue })
            return ((try? gpsdSessions()) ?? []).filter { session in
                guard session["locationStreaming"] == true, let app = session["app"]?.stringValue else { return false }
                return session["authorization"]?["status"] != "notDetermined" || prompted.contains(app)
            }.count >= count
        }
    }

    /// Grants `always` to the gpsd clients of these commands (`gpsd.COMMAND`) before they
    /// connect: a client authorized at its `?WATCH` hears no "no fix" TPV first (G3), so a
    /// test can count its lines exactly. (With only a prompt policy, the policy's answer
    /// applies once stored, a moment after the watch, and that TPV comes first.)
    func grantGPSDClients(_ commands: [String]) throws {
        for command in commands {
            _ = try control().call(Method.permissionsSet, ["app": .string("gpsd." + command), "status": "authorizedAlways"])
        }
    }

    /// Starts replaying `path` as fast as the clients read.
    func replayAtMax(_ path: String) throws {
        _ = try control().call(Method.replayStart, ["path": .string(path), "speed": "max"])
    }
}

/// The comm (kernel name) of this test process, as /proc tells it to anyone.
func ownCommand() -> String {
    ((try? String(contentsOfFile: "/proc/self/comm", encoding: .utf8)) ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
}

/// How many locations a trace holds, as `sextantctl trace info` counts them.
func locationCount(_ path: String) throws -> Int {
    let result = try run([Binaries.sextantctl, "trace", "info", path, "--json"])
    guard result.status == 0, let count = (try? JSONValue.parse(result.stdout))?["samples"]?["location"]?.intValue, count > 0 else {
        throw HarnessError("sextantctl trace info \(path): \(result.stdout)\(result.stderr)")
    }
    return count
}
