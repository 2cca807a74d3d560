import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// `sextantctl run -- COMMAND`, the built binary: a private daemon around one command.
///
/// Each test gives run a TMPDIR of its own, so that "nothing left behind" is checked by
/// looking there: no directory, and no process whose command line names it.
@Suite("sextantctl run", .serialized)
struct RunCommandTests {
    /// The test's private TMPDIR, removed with the suite's instance.
    private let temporary: TemporaryDirectory

    init() throws { temporary = try TemporaryDirectory("runtest") }

    private func scratch() -> String { temporary.path }

    private func ctlRun(_ arguments: [String], tmp: String) throws -> CommandResult {
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = tmp
        environment.removeValue(forKey: "SEXTANT_RUNTIME_DIR")
        return try run([Binaries.sextantctl, "run"] + arguments, environment: environment)
    }

    /// Nothing of the run is left: no file under `tmp`, no process naming it.
    private func expectNothingLeft(in tmp: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let left = try FileManager.default.contentsOfDirectory(atPath: tmp)
        #expect(left.isEmpty, "left in TMPDIR: \(left)", sourceLocation: sourceLocation)
        #expect(processes(naming: tmp).isEmpty, "processes left: \(processes(naming: tmp))", sourceLocation: sourceLocation)
    }

    @Test("COMMAND runs against a ready private daemon, with SEXTANT_RUNTIME_DIR; run exits with its status; nothing is left")
    func commandSeesDaemon() throws {
        let tmp = scratch()
        let script = "\(Binaries.sextantctl) --json status > \"$TMPDIR/../status-\(tmp.suffix(8)).json\" && exit 3"
        let result = try ctlRun(["--", "/bin/sh", "-c", script], tmp: tmp)
        #expect(result.status == 3, "\(result.stderr)")
        let statusPath = (tmp as NSString).deletingLastPathComponent + "/status-\(tmp.suffix(8)).json"
        defer { try? FileManager.default.removeItem(atPath: statusPath) }
        let status = try JSONValue.parse(String(contentsOfFile: statusPath, encoding: .utf8))
        #expect(status["servicesEnabled"] == true)
        #expect(status["sessions"] == 0)
        try expectNothingLeft(in: tmp)
    }

    @Test("COMMAND's gpsd clients find the daemon's gpsd face at GPSD_HOST:GPSD_PORT, under the rules")
    func gpsdClientsFindTheFace() throws {
        let tmp = scratch()
        let trace = Repository.root + "/Traces/demo-walk.jsonl"
        let script = #"gpspipe -w -n 6 "$GPSD_HOST:$GPSD_PORT""#
        let result = try ctlRun(["--trace", trace, "--grant", "gpsd.gpspipe:always", "--", "/bin/sh", "-c", script], tmp: tmp)
        #expect(result.status == 0, "\(result.stderr)")
        // gpsd ends its lines with CR LF: one Character in Swift, a newline all the same.
        let reports = result.stdout.split(whereSeparator: \.isNewline).compactMap { try? JSONValue.parse(String($0)) }
        let fixes = reports.filter { $0["class"] == "TPV" && $0["lat"] != nil }
        #expect(!fixes.isEmpty, "\(result.stdout)")
        #expect(fixes.allSatisfy { ($0["lat"]?.doubleValue ?? 0) > 48.8 && ($0["lat"]?.doubleValue ?? 0) < 48.9 })
        try expectNothingLeft(in: tmp)
    }

    @Test("issue 24.5: --allow-once-timeout is in sextantd's and run's --help, and run's daemon has it (status says 2 s)")
    func allowOnceTimeoutShownAndPassed() throws {
        for command in [[Binaries.sextantd, "--help"], [Binaries.sextantctl, "run", "--help"]] {
            let help = try run(command)
            #expect(help.stdout.contains("--allow-once-timeout"), "\(command): \(help.stdout)")
        }
        let tmp = scratch()
        let result = try ctlRun(["--allow-once-timeout", "2", "--", Binaries.sextantctl, "--json", "status"], tmp: tmp)
        #expect(result.status == 0, "\(result.stderr)")
        let status = try JSONValue.parse(result.stdout)
        #expect(status["allowOnceTimeout"]?.doubleValue == 2, "\(result.stdout)")
        try expectNothingLeft(in: tmp)
    }

    @Test("--grant, --services off, --prompt-policy and --profile are in force when COMMAND starts")
    func optionsInForce() throws {
        let tmp = scratch()
        let script = "\(Binaries.sextantctl) --json permissions list && \(Binaries.sextantctl) --json status"
        let result = try ctlRun(
            ["--grant", "com.example.a:always:approximate", "--grant", "com.example.b", "--services", "off", "--prompt-policy", "dontAllow",
             "--profile", "foldable", "--", "/bin/sh", "-c", script], tmp: tmp)
        #expect(result.status == 0, "\(result.stderr)")
        let lines = result.stdout.split(separator: "\n").map { try? JSONValue.parse(String($0)) }
        let permissions = try #require(lines.first??.arrayValue)
        let a = try #require(permissions.first { $0["app"] == "com.example.a" })
        #expect(a["status"] == "authorizedAlways" && a["accuracy"] == "reduced")
        #expect(permissions.contains { $0["app"] == "com.example.b" && $0["status"] == "authorizedWhenInUse" && $0["accuracy"] == "full" })
        let status = try #require(lines.last ?? nil)
        #expect(status["servicesEnabled"] == false)
        #expect(status["promptPolicy"]?["mode"] == "dontAllow")
        #expect(status["profile"] == "foldable")
        try expectNothingLeft(in: tmp)
    }

    @Test("Each run starts from a fresh store: a grant in one run is gone in the next")
    func runsDoNotLeak() throws {
        let tmp = scratch()
        let first = try ctlRun(["--", Binaries.sextantctl, "permissions", "grant", "com.example.leak"], tmp: tmp)
        #expect(first.status == 0, "\(first.stderr)")
        let second = try ctlRun(["--", Binaries.sextantctl, "--json", "permissions", "list"], tmp: tmp)
        #expect(second.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]", "\(second.stdout)")
        try expectNothingLeft(in: tmp)
    }

    @Test("Bad input: no COMMAND is 64, a missing one 127, one that cannot run 126, a trace that does not load 64; no daemon left")
    func badInput() throws {
        let tmp = scratch()
        let none = try ctlRun([], tmp: tmp)
        #expect(none.status == 64 && none.stderr.contains("give the command"), "\(none.stderr)")
        let missing = try ctlRun(["--", "no-such-command-\(UUID().uuidString.prefix(6))"], tmp: tmp)
        #expect(missing.status == 127 && missing.stderr.contains("command not found"), "\(missing.stderr)")
        let notExecutable = try ctlRun(["--", Repository.root + "/README.md"], tmp: tmp)
        #expect(notExecutable.status == 126 && notExecutable.stderr.contains("README.md"), "\(notExecutable.stderr)")
        let badTrace = tmp + "/../bad-\(tmp.suffix(8)).jsonl"
        try "{\"sextant\":\"trace\",\"version\":1,\"start\":\"2026-03-01T08:00:00.000Z\"}\n{\"t\":\"soon\"}\n".write(toFile: badTrace, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: badTrace) }
        let trace = try ctlRun(["--trace", badTrace, "--", "/bin/true"], tmp: tmp)
        #expect(trace.status == 64 && trace.stderr.contains("--trace") && trace.stderr.contains(":2:"), "\(trace.stderr)")
        let grant = try ctlRun(["--grant", "not an id", "--", "/bin/true"], tmp: tmp)
        #expect(grant.status == 64, "\(grant.stderr)")
        try expectNothingLeft(in: tmp)
    }

    @Test("SIGTERM to run reaches COMMAND while the daemon still serves, then the daemon stops; run exits with COMMAND's status")
    func sigtermReachesCommandFirst() throws {
        let tmp = scratch()
        // On TERM the command asks the daemon for its status: it must still be there.
        let script = """
            trap '\(Binaries.sextantctl) status >/dev/null && exit 42; exit 43' TERM
            echo started
            while :; do sleep 0.05; done
            """
        let (process, output) = try launchRun(script: script, tmp: tmp)
        let line = try readLine(output.fileHandleForReading.fileDescriptor, timeout: 30)
        #expect(line == "started")
        kill(process.processIdentifier, SIGTERM)
        #expect(waitForEnd(of: process) == 42)
        try expectNothingLeft(in: tmp)
    }

    @Test("issue 28.11: SIGKILL on run stops its daemon and COMMAND and removes its directory; only COMMAND's own children are left")
    func killedRunLeavesNothingOfItsOwn() throws {
        let tmp = scratch()
        // COMMAND prints its pid and its background child's, then becomes the sleep (exec: same pid).
        let script = "sleep 1001 & echo $$ $!; exec sleep 1000"
        let (process, output) = try launchRun(script: script, tmp: tmp)
        let pids = try readLine(output.fileHandleForReading.fileDescriptor, timeout: 30).split(separator: " ").compactMap { pid_t($0) }
        try #require(pids.count == 2)
        let daemons = processes(naming: tmp + "/sextant-run-")
        #expect(daemons.count == 1, "the daemon names its directory: \(daemons)")
        kill(process.processIdentifier, SIGKILL)
        // Foundation's Process sees an exit when every holder of a descriptor it gave the child
        // has closed it: the child left behind holds one, so it is stopped before the wait.
        defer {
            for pid in daemons + pids { kill(pid, SIGKILL) }
            _ = waitForEnd(of: process)
        }
        // Neither is run's test's child any more: gone is what /proc says, waited on with a deadline.
        for pid in daemons + [pids[0]] {
            _ = try poll(timeout: 20, failure: { "process \(pid) outlived run: \(Self.commandLine(pid))" }) { Self.isRunning(pid) ? nil : () }
        }
        _ = try poll(timeout: 20, failure: { "left in TMPDIR: \((try? FileManager.default.contentsOfDirectory(atPath: tmp)) ?? [])" }) {
            ((try? FileManager.default.contentsOfDirectory(atPath: tmp)) ?? []).isEmpty ? () : nil
        }
        #expect(Self.isRunning(pids[1]), "COMMAND's own child is what sextantctl(1) says is left")
    }

    @Test("issue 28.11: what COMMAND leaves running in the background is stopped when it ends, before run exits")
    func backgroundChildrenStopWithCommand() throws {
        let tmp = scratch()
        // Each closes what it inherited beyond 0-2 (Foundation's Process sees the end of run
        // only once every holder of its descriptor is gone). One ignores SIGTERM: it gets
        // SIGKILL after the grace; one is in a session of its own.
        let script = """
            bare() { exec python3 -c 'import os, sys; os.closerange(3, 65536); os.execvp(sys.argv[1], sys.argv[1:])' "$@"; }
            bare sleep 1000 & echo $!
            (trap '' TERM; bare sleep 1002) & echo $!
            setsid python3 -c 'import os; os.closerange(3, 65536); os.execvp("sleep", ["sleep", "1003"])' & echo $!
            exit 4
            """
        let result = try ctlRun(["--", "/bin/sh", "-c", script], tmp: tmp)
        #expect(result.status == 4, "\(result.stderr)")
        let pids = result.stdout.split(separator: "\n").compactMap { pid_t($0) }
        #expect(pids.count == 3, "\(result.stdout)")
        // run reaped them: not even a zombie is left.
        for pid in pids { #expect(kill(pid, 0) != 0, "still there: \(Self.commandLine(pid))") }
        try expectNothingLeft(in: tmp)
    }

    /// Whether `pid` is a process that has not ended (a zombie has).
    static func isRunning(_ pid: pid_t) -> Bool {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8), let close = stat.lastIndex(of: ")") else { return false }
        return stat[stat.index(after: close)...].split(separator: " ").first != "Z"
    }

    static func commandLine(_ pid: pid_t) -> String {
        String(decoding: (FileManager.default.contents(atPath: "/proc/\(pid)/cmdline") ?? Data()).map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
    }

    @Test("The daemon dying during the run: COMMAND's connections close, run exits 70 with the log's tail")
    func daemonDies() throws {
        let tmp = scratch()
        // The daemon is the process whose command line names this run's runtime directory.
        let script = """
            pid=$(pgrep -f -- "--runtime-dir $SEXTANT_RUNTIME_DIR")
            kill -KILL $pid
            \(Binaries.sextantctl) status >/dev/null 2>&1 && exit 9
            exit 0
            """
        let result = try ctlRun(["--", "/bin/sh", "-c", script], tmp: tmp)
        #expect(result.status == 70, "\(result.stderr)")
        #expect(result.stderr.contains("sextantd died") && result.stderr.contains("sextantd ready"), "\(result.stderr)")
        try expectNothingLeft(in: tmp)
    }

    @Test("--keep keeps the directories and the log and says where; --trace replays at --speed max")
    func keepAndTrace() throws {
        let tmp = scratch()
        let trace = tmp + "/../walk-\(tmp.suffix(8)).jsonl"
        try syntheticTrace(count: 20, step: 1).write(toFile: trace, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: trace) }
        let result = try ctlRun(["--keep", "--trace", trace, "--speed", "max", "--", Binaries.sextantctl, "replay", "status"], tmp: tmp)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains((trace as NSString).lastPathComponent), "\(result.stdout)")
        let kept = try FileManager.default.contentsOfDirectory(atPath: tmp)
        #expect(kept.count == 1 && result.stderr.contains("kept \(tmp)/\(kept.first ?? "")"), "\(kept) \(result.stderr)")
        let log = try String(contentsOfFile: tmp + "/" + kept[0] + "/sextantd.log", encoding: .utf8)
        #expect(log.contains("sextantd stopped"))
        #expect(FileManager.default.fileExists(atPath: tmp + "/" + kept[0] + "/state/sextant.sqlite3"))
        try FileManager.default.removeItem(atPath: tmp + "/" + kept[0])
        try expectNothingLeft(in: tmp)
    }
}

/// Pids of the processes whose command line contains `text`.
func processes(naming text: String) -> [Int32] {
    let me = getpid()
    return ((try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []).compactMap { entry in
        guard let pid = Int32(entry), pid != me,
            let raw = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline")
        else { return nil }
        let line = String(decoding: raw.map { $0 == 0 ? 32 : $0 }, as: UTF8.self)
        return line.contains(text) ? pid : nil
    }
}

/// One line from a file descriptor, waiting at most `timeout` seconds.
func readLine(_ fd: Int32, timeout: Double) throws -> String {
    var bytes: [UInt8] = []
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, Int32(max(1, deadline.timeIntervalSinceNow * 1000))) > 0 else { continue }
        var byte: UInt8 = 0
        guard read(fd, &byte, 1) == 1 else { break }
        if byte == UInt8(ascii: "\n") { return String(decoding: bytes, as: UTF8.self) }
        bytes.append(byte)
    }
    throw HarnessError("no line within \(timeout) s (got \(String(decoding: bytes, as: UTF8.self)))")
}

@Suite("sextantd --ephemeral")
struct EphemeralStoreTests {
    @Test("The store lives in a private directory under TMPDIR while the daemon runs and is gone after SIGTERM")
    func storeGoneAtExit() throws {
        let scratch = try TemporaryDirectory("ephemeral")
        let tmp = scratch.path
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = tmp
        let daemon = try DaemonHarness(arguments: ["--ephemeral"], environment: environment)
        _ = try daemon.control().call(Method.permissionsSet, ["app": "com.example.kept", "status": "denied"])
        let stores = try FileManager.default.contentsOfDirectory(atPath: tmp)
        #expect(stores.count == 1 && stores[0].hasPrefix("sextantd-ephemeral-"), "\(stores)")
        #expect(FileManager.default.fileExists(atPath: tmp + "/" + stores[0] + "/sextant.sqlite3"))
        #expect(!FileManager.default.fileExists(atPath: daemon.state), "nothing written to the --state-dir it was not given")
        #expect(daemon.terminate() == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: tmp).isEmpty)
    }

    @Test("--ephemeral with --state-dir is a usage error (64)")
    func excludesStateDir() throws {
        let result = try run([Binaries.sextantd, "--ephemeral", "--state-dir", "/tmp/x", "--no-gpsd", "--no-iio"])
        #expect(result.status == 64 && result.stderr.contains("--ephemeral"), "\(result.stderr)")
    }
}

extension RunCommandTests {
    /// `sextantctl run -- /bin/sh -c SCRIPT` with TMPDIR `tmp`, its standard output a pipe.
    func launchRun(script: String, tmp: String) throws -> (Process, Pipe) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Binaries.sextantctl)
        process.arguments = ["run", "--", "/bin/sh", "-c", script]
        var environment = ProcessInfo.processInfo.environment
        environment["TMPDIR"] = tmp
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        try launch(process)
        return (process, output)
    }
}
