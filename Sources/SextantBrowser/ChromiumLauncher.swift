import CProcessControl
import Foundation
import Synchronization

/// `--launch`: Debian's Chromium started headless with a private profile, driven through
/// `--remote-debugging-pipe` (``DevToolsPipe``): it opens no DevTools port, so no other
/// local user can reach it. It ends with the bridge however the bridge ends: Chromium
/// exits, its helpers with it, when its pipe reaches end of file (the bridge's ends close
/// with the bridge, SIGKILL included), and it is sent SIGKILL by the kernel when the
/// thread that started it ends (PR_SET_PDEATHSIG), which lives as long as the browser.
public final class ChromiumLauncher: Sendable {
    public let pid: pid_t
    private let profile: URL
    private let child = ChildState()
    private let pipe: Mutex<DevToolsPipe.Ends?>

    /// Held (flock) for as long as the bridge runs: a profile whose lock no one holds was
    /// left by a bridge that was killed, and the next launch removes it.
    private let profileLock: Int32

    public init(executable: String, extraArguments: [String] = []) throws {
        ProfileDirectory.removeAbandoned()
        (profile, profileLock) = try ProfileDirectory.make()
        var arguments = [
            executable, "--headless", "--remote-debugging-pipe", "--user-data-dir=\(profile.path)",
            "--no-first-run", "--no-default-browser-check", "--disable-gpu",
        ] + Self.sensorFeatures
        // Chromium refuses to run as root inside its sandbox.
        if getuid() == 0 { arguments.append("--no-sandbox") }
        arguments += extraArguments + ["about:blank"]
        // A write to the pipe of a browser gone must be an error, not the end of the bridge.
        signal(SIGPIPE, SIG_IGN)
        var commands: [Int32] = [-1, -1], answers: [Int32] = [-1, -1]
        // Close-on-exec: no other child of the bridge holds them (the bridge starts no other).
        guard Glibc.pipe(&commands) == 0, Glibc.pipe(&answers) == 0 else { throw LaunchFailure("pipe: \(String(cString: strerror(errno)))") }
        for fd in commands + answers { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
        let started = Self.start(arguments, commands: commands[0], answers: answers[1], child: child)
        close(commands[0])
        close(answers[1])
        guard started > 0 else {
            close(commands[1])
            close(answers[0])
            try? FileManager.default.removeItem(at: profile)
            close(profileLock)
            throw LaunchFailure("cannot start \(executable): \(String(cString: strerror(-started)))")
        }
        pid = started
        pipe = Mutex(DevToolsPipe.Ends(commands: commands[1], answers: answers[0]))
    }

    /// What Chromium needs to give pages the generic `AmbientLightSensor` (and `Magnetometer`):
    /// Blink's interface (`SensorExtraClasses`) and the device service's sensors behind it
    /// (`GenericSensorExtraClasses`); without the second, the sensor starts and fails with
    /// NotReadableError. A browser started by hand (`--cdp`) needs the same two flags.
    public static let sensorFeatures = ["--enable-blink-features=SensorExtraClasses", "--enable-features=GenericSensorExtraClasses"]

    /// Starts the browser on a thread of its own that then waits for it: the parent-death
    /// signal follows the thread, not the process. The pid, or minus errno.
    private static func start(_ arguments: [String], commands: Int32, answers: Int32, child: ChildState) -> pid_t {
        let result = Mutex<pid_t?>(nil)
        let told = DispatchSemaphore(value: 0)
        let thread = Thread {
            let argv = arguments.map { strdup($0) } + [nil]
            let pid = sextant_spawn_with_pipe(arguments[0], argv, commands, answers, SIGKILL)
            let error = errno
            for pointer in argv { free(pointer) }
            result.withLock { $0 = pid > 0 ? pid : -error }
            told.signal()
            guard pid > 0 else { return }
            var status: Int32 = 0
            while waitpid(pid, &status, 0) < 0, errno == EINTR {}
            child.exited()
        }
        thread.name = "chromium"
        thread.start()
        told.wait()
        return result.withLock { $0 ?? -EINVAL }
    }

    /// The bridge's ends of the DevTools pipe, handed over once (the connection owns them).
    func takePipe() throws -> DevToolsPipe.Ends {
        guard let ends = pipe.withLock({ ends in defer { ends = nil }; return ends }) else {
            throw LaunchFailure("the launched browser's DevTools pipe is in use already")
        }
        return ends
    }

    /// Whether the browser is still running.
    public var isRunning: Bool { !child.hasExited }

    /// Stops the browser (SIGTERM to its process group, SIGKILL after 5 s), waits for it
    /// and removes its profile.
    public func stop() {
        if let ends = pipe.withLock({ ends in defer { ends = nil }; return ends }) {
            close(ends.commands)
            close(ends.answers)
        }
        if !child.hasExited {
            kill(-pid, SIGTERM)
            if !child.waitForExit(seconds: 5) {
                kill(-pid, SIGKILL)
                _ = child.waitForExit(seconds: 5)
            }
        }
        try? FileManager.default.removeItem(at: profile)
        close(profileLock)
    }
}

/// The launched browser's private profiles, in the temporary directory: each appears under
/// its name already locked (made under another name, then renamed), so that a launch never
/// takes another's for abandoned.
enum ProfileDirectory {
    static let prefix = "sextant-browser-launch-"
    static let lockName = "sextant.lock"

    /// A new profile, and the descriptor holding its lock.
    static func make() throws -> (URL, Int32) {
        let temporary = FileManager.default.temporaryDirectory
        let name = "\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let staging = temporary.appendingPathComponent("sextant-staging-\(name)")
        try FileManager.default.createDirectory(at: staging, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let lock = open(staging.appendingPathComponent(lockName).path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard lock >= 0, flock(lock, LOCK_EX) == 0 else {
            try? FileManager.default.removeItem(at: staging)
            throw LaunchFailure("cannot lock a profile in \(temporary.path): \(String(cString: strerror(errno)))")
        }
        let profile = temporary.appendingPathComponent(prefix + name)
        guard rename(staging.path, profile.path) == 0 else {
            close(lock)
            try? FileManager.default.removeItem(at: staging)
            throw LaunchFailure("cannot make a profile in \(temporary.path): \(String(cString: strerror(errno)))")
        }
        return (profile, lock)
    }

    /// Removes this user's profiles whose lock no bridge holds (their bridge was killed).
    static func removeAbandoned() {
        let temporary = FileManager.default.temporaryDirectory
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary.path)) ?? []
        for name in names where name.hasPrefix(prefix) {
            let path = temporary.appendingPathComponent(name).path
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == geteuid() else { continue }
            let lock = open(path + "/" + lockName, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
            guard lock >= 0 else { continue }
            if flock(lock, LOCK_EX | LOCK_NB) == 0 { try? FileManager.default.removeItem(atPath: path) }
            close(lock)
        }
    }
}

/// Whether the launched browser has exited, told by the thread that waits for it.
private final class ChildState: Sendable {
    private let done = Mutex(false)
    private let exitedSignal = DispatchSemaphore(value: 0)

    var hasExited: Bool { done.withLock { $0 } }

    func exited() {
        done.withLock { $0 = true }
        exitedSignal.signal()
    }

    func waitForExit(seconds: Double) -> Bool {
        if hasExited { return true }
        guard exitedSignal.wait(timeout: .now() + seconds) == .success else { return false }
        exitedSignal.signal()
        return true
    }
}

public struct LaunchFailure: Error, CustomStringConvertible {
    public var description: String
    init(_ description: String) { self.description = description }
}
