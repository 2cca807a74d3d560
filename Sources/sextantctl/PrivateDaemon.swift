#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import CProcessControl
import Foundation
import SextantClient
import SextantProtocol

/// One `sextantctl run`: a private sextantd on a fresh temporary directory, COMMAND run
/// against it, and everything taken down again, whichever way COMMAND or the daemon ends.
final class PrivateDaemon {
    let options: Run
    /// Made with mkdtemp(3): run/ (the sockets), notify.sock, sextantd.log, state/ with --keep.
    let directory: String
    let logPath: String
    var runtimeDirectory: String { directory + "/run" }
    private(set) var daemonPID: pid_t = 0
    /// The pipe the daemon watches (`--exit-with-fd`): its write end stays open until run ends.
    private var supervisorPipe: SupervisorPipe?
    /// Set once the daemon is known to have ended (it is reaped then), with its status.
    private var daemonExit: Int32?
    /// Where the daemon's gpsd face listens (the port it was given: 0, the system's choice).
    private var gpsdFace: (host: String, port: String)?

    init(options: Run) throws {
        self.options = options
        let base = ProcessInfo.processInfo.environment["TMPDIR"].flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((base + "/sextant-run-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw Run.exit(69, "cannot create a directory in \(base): \(String(cString: strerror(errno)))")
        }
        directory = String(cString: made)
        logPath = options.log.map { URL(fileURLWithPath: $0).standardizedFileURL.path } ?? directory + "/sextantd.log"
    }

    /// Runs COMMAND (its path resolved) and returns the status `run` exits with.
    func run(command: [String]) -> Int32 {
        defer { removeDirectories() }
        do {
            try SignalPipe.install()
            try startDaemon()
            try configure()
        } catch let exit as ExitCode {
            stopDaemon()
            return exit.rawValue
        } catch {
            stopDaemon()
            return Run.exit(69, "\(error)").rawValue
        }
        // Told to stop while the daemon was being set up: COMMAND never starts.
        if let stop = SignalPipe.drain().first(where: { $0.number != SIGCHLD }) {
            stopDaemon()
            return 128 + stop.number
        }
        var environment = ProcessInfo.processInfo.environment
        environment["SEXTANT_RUNTIME_DIR"] = runtimeDirectory
        environment["SEXTANT_DAEMON_LOG"] = logPath
        environment["SEXTANT_RUN_SCENE"] = options.scene.serialized()
        if let gpsdFace {
            environment["GPSD_HOST"] = gpsdFace.host
            environment["GPSD_PORT"] = gpsdFace.port
        }
        // COMMAND's orphans come to run, which stops them when COMMAND ends.
        _ = sextant_become_subreaper()
        let child: pid_t
        do {
            child = try spawn(Self.supervised(command), environment: environment)
        } catch {
            stopDaemon()
            return Run.exit(error.exitStatus, error.description).rawValue
        }
        let status = waitForCommand(child)
        stopLeftovers()
        if let died = daemonExit {
            FileHandle.standardError.write(Data("sextantctl run: sextantd died while the command ran (status \(died)); the end of its log:\n\(logTail())\n".utf8))
            return 70
        }
        stopDaemon()
        return status
    }

    // MARK: - The daemon

    private func startDaemon() throws {
        guard let sextantd = Self.locateSextantd() else {
            throw Run.exit(69, "cannot find sextantd: set SEXTANT_BIN to its path, or put it beside sextantctl or on PATH")
        }
        try FileManager.default.createDirectory(atPath: runtimeDirectory, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let readiness = try ReadinessSocket(path: directory + "/notify.sock")
        var environment = ProcessInfo.processInfo.environment
        environment["NOTIFY_SOCKET"] = readiness.path
        // --ephemeral makes its store under TMPDIR: inside ours, it goes with it even if the daemon is killed.
        environment["TMPDIR"] = directory
        // With --keep the store stays too; else the daemon's own temporary store is gone with it.
        let store = options.keep ? ["--state-dir", directory + "/state"] : ["--ephemeral"]
        // The daemon stops when run is gone, however it went; unless kept, it then removes
        // the directory, which run would have removed.
        let pipe = try SupervisorPipe()
        supervisorPipe = pipe
        let supervision = ["--exit-with-fd", String(SupervisorPipe.daemonDescriptor)] + (options.keep ? [] : ["--exit-removes", directory])
        let arguments = [sextantd, "--runtime-dir", runtimeDirectory] + store + supervision + options.daemonArguments
        do {
            daemonPID = try spawn(
                arguments, environment: environment, logPath: logPath, ownProcessGroup: true,
                passing: (pipe.readEnd, SupervisorPipe.daemonDescriptor))
        } catch {
            throw Run.exit(69, "cannot start sextantd: \(error)")
        }
        close(pipe.readEnd)
        // READY=1 comes once both sockets are bound. A daemon that dies first, or a signal to
        // us, ends the wait at once; the minute is for a machine that is very busy.
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            let readable = SignalPipe.wait(alsoOn: readiness.fd, timeout: deadline.timeIntervalSinceNow)
            if readable, readiness.receivedReady() { return }
            if let stop = SignalPipe.drain().first(where: { $0.number != SIGCHLD }) { throw ExitCode(128 + stop.number) }
            if let status = ChildExit.poll(daemonPID) {
                daemonExit = status
                throw Run.exit(69, "sextantd exited at start (status \(status)):\n\(logTail())")
            }
        }
        throw Run.exit(69, "sextantd did not say READY=1 within 60 s:\n\(logTail())")
    }

    /// What the options ask of the daemon before COMMAND starts, through its control socket.
    private func configure() throws {
        var step = "connecting"
        do {
            let control = try SextantConnection.control(runtimeDirectory: runtimeDirectory)
            step = "status"
            if let listener = try control.call(StatusRequest())["gpsdListeners"]?.arrayValue?.first?.stringValue,
                let colon = listener.lastIndex(of: ":")
            {
                gpsdFace = (String(listener[..<colon]), String(listener[listener.index(after: colon)...]))
            }
            step = "--services off"
            if options.services == .off { _ = try control.call(ServicesSet(enabled: false)) }
            for grant in options.grants {
                step = "--grant \(grant)"
                _ = try control.call(try GrantSpec(grant).request)
            }
            if let trace = options.trace {
                step = "--trace \(trace)"
                let absolute = URL(fileURLWithPath: trace).standardizedFileURL.path
                let speed = ReplaySpeed(parsing: options.speed) ?? .factor(1)
                // RULES T1: the trace waits for COMMAND's first location request.
                let id = try control.send(ReplayStart(path: absolute, speed: speed, loop: options.loop, startOnRequest: true, scenario: options.scenarioPath))
                // No fixed limit: a large trace takes its time to load; a dead daemon closes the socket.
                _ = try control.responseWithoutLimit(to: id)
            }
        } catch let error as ClientError {
            // The daemon refusing an option's value is a usage error, as a bad flag is.
            if case .rpc(let refusal) = error { throw Run.exit(64, "\(step): \(refusal.message)") }
            throw Run.exit(69, "\(step): \(error)\n\(logTail())")
        }
    }

    /// SIGTERM, then up to 10 s for a clean stop, then SIGKILL: the daemon never outlives run.
    private func stopDaemon() {
        guard daemonPID > 0, daemonExit == nil else { return }
        kill(daemonPID, SIGTERM)
        let deadline = Date().addingTimeInterval(10)
        while Date() < deadline {
            if let status = ChildExit.poll(daemonPID) {
                daemonExit = status
                return
            }
            SignalPipe.wait(timeout: min(0.5, max(0, deadline.timeIntervalSinceNow)))
            _ = SignalPipe.drain()
        }
        kill(daemonPID, SIGKILL)
        var raw: Int32 = 0
        waitpid(daemonPID, &raw, 0)
        daemonExit = ChildExit.status(raw)
    }

    // MARK: - COMMAND

    /// Waits for COMMAND to end, passing on SIGINT and SIGTERM sent to run; notes the daemon's
    /// death on the way (COMMAND sees its connections close).
    private func waitForCommand(_ child: pid_t) -> Int32 {
        while true {
            if let ended = reapChildren().first(where: { $0.pid == child }) { return ended.status }
            SignalPipe.wait(timeout: nil)
            for signal in SignalPipe.drain() where signal.number != SIGCHLD && !signal.fromTerminal {
                kill(child, signal.number)
            }
        }
    }

    /// Reaps every child that has ended (COMMAND, the daemon, orphans adopted), noting the
    /// daemon's status; returns them all.
    @discardableResult
    func reapChildren() -> [(pid: pid_t, status: Int32)] {
        let ended = ChildExit.reapAll()
        if daemonExit == nil, let daemon = ended.first(where: { $0.pid == daemonPID }) { daemonExit = daemon.status }
        return ended
    }

    /// COMMAND as spawned: through `sextantctl exec-supervised`, which gives it SIGTERM as its
    /// parent-death signal, then execs it.
    static func supervised(_ command: [String]) -> [String] {
        // sextantctl by its own name beside this binary: installed, the binary is the multi-call
        // `sextant`, which chooses the program by the name it is run as.
        let me = DemoTools.ownDirectory() + "/sextantctl"
        return [me, "exec-supervised", "--parent", String(getpid()), "--"] + command
    }

    // MARK: - Files

    private func removeDirectories() {
        if options.keep {
            FileHandle.standardError.write(Data("sextantctl run: kept \(directory) (runtime run/, store state/), daemon log \(logPath)\n".utf8))
        } else {
            try? FileManager.default.removeItem(atPath: directory)
        }
    }

    func logTail(lines: Int = 20) -> String {
        let text = (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? ""
        return text.split(separator: "\n", omittingEmptySubsequences: false).suffix(lines + 1).joined(separator: "\n")
    }

    /// SEXTANT_BIN, else the sextantd beside this sextantctl, else the first on PATH.
    static func locateSextantd() -> String? {
        let environment = ProcessInfo.processInfo.environment
        if let chosen = environment["SEXTANT_BIN"], !chosen.isEmpty { return chosen }
        if let me = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            let beside = (me as NSString).deletingLastPathComponent + "/sextantd"
            if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        }
        if case .found(let path) = CommandLookup.resolve("sextantd", path: environment["PATH"]) { return path }
        return nil
    }
}
