#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Synchronization

// What `sextantctl run` needs of POSIX to supervise two children (the daemon and COMMAND):
// spawning, a self-pipe that turns SIGINT, SIGTERM and SIGCHLD into readable bytes, and the
// datagram socket on which the daemon says READY=1.

/// The write end of the self-pipe, set once before any handler is installed: a signal
/// handler may only call async-signal-safe functions: write(2) is one, and so is a
/// lock-free atomic load (a lock is not: the handler may interrupt its holder).
private let signalPipeWriteEnd = Atomic<Int32>(-1)

/// A signal as the handler saw it.
struct ReceivedSignal {
    var number: Int32
    /// True when the terminal's line discipline sent it (Ctrl-C): every process of the
    /// foreground group, COMMAND included, already has it, so it is not passed on again.
    var fromTerminal: Bool
}

/// SIGINT, SIGTERM and SIGCHLD, delivered as records on a pipe that `poll` can wait on.
enum SignalPipe {
    private static let readEndStorage = Atomic<Int32>(-1)
    static var readEnd: Int32 { readEndStorage.load(ordering: .acquiring) }

    static func install() throws {
        var ends: [Int32] = [0, 0]
        guard pipe(&ends) == 0 else { throw Failure("pipe: \(String(cString: strerror(errno)))") }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, O_NONBLOCK)
        }
        readEndStorage.store(ends[0], ordering: .releasing)
        signalPipeWriteEnd.store(ends[1], ordering: .releasing)
        for number in [SIGINT, SIGTERM, SIGCHLD] {
            var action = sigaction()
            action.__sigaction_handler.sa_sigaction = { number, info, _ in
                // si_code SI_KERNEL (0x80): sent by the kernel, as the tty does for Ctrl-C.
                var record: (Int32, Int32) = (number, info?.pointee.si_code ?? 0)
                _ = withUnsafeBytes(of: &record) { write(signalPipeWriteEnd.load(ordering: .acquiring), $0.baseAddress, $0.count) }
            }
            action.sa_flags = SA_SIGINFO | SA_RESTART
            sigemptyset(&action.sa_mask)
            sigaction(number, &action, nil)
        }
        // A parent may have started us with them blocked (Foundation's Process does):
        // blocked, they would never reach the handler.
        var handled = sigset_t()
        sigemptyset(&handled)
        for number in [SIGINT, SIGTERM, SIGCHLD] { sigaddset(&handled, number) }
        pthread_sigmask(SIG_UNBLOCK, &handled, nil)
    }

    /// Every signal recorded so far, without waiting.
    static func drain() -> [ReceivedSignal] {
        var signals: [ReceivedSignal] = []
        var record: (Int32, Int32) = (0, 0)
        while withUnsafeMutableBytes(of: &record, { read(readEnd, $0.baseAddress, $0.count) }) == MemoryLayout.size(ofValue: record) {
            signals.append(ReceivedSignal(number: record.0, fromTerminal: record.1 == 0x80))
        }
        return signals
    }

    /// Waits until a signal arrives, `other` is readable, or `timeout` seconds pass (nil: no limit).
    /// Returns whether `other` is readable.
    @discardableResult
    static func wait(alsoOn other: Int32? = nil, timeout: Double?) -> Bool {
        var descriptors = [pollfd(fd: readEnd, events: Int16(POLLIN), revents: 0)]
        if let other { descriptors.append(pollfd(fd: other, events: Int16(POLLIN), revents: 0)) }
        let milliseconds = timeout.map { Int32(max(0, min($0, 86_400)) * 1000) } ?? -1
        guard poll(&descriptors, nfds_t(descriptors.count), milliseconds) > 0 else { return false }
        return descriptors.count > 1 && descriptors[1].revents & Int16(POLLIN) != 0
    }
}

/// How a child ended, as a shell reports it: its exit status, or 128 + the signal's number.
enum ChildExit {
    /// Every child that has ended, reaped: pid and status.
    static func reapAll() -> [(pid: pid_t, status: Int32)] {
        var ended: [(pid: pid_t, status: Int32)] = []
        var raw: Int32 = 0
        while case let pid = waitpid(-1, &raw, WNOHANG), pid > 0 { ended.append((pid, status(raw))) }
        return ended
    }

    static func status(_ raw: Int32) -> Int32 {
        let signal = raw & 0x7f
        return signal == 0 ? (raw >> 8) & 0xff : 128 + signal
    }

    /// The child's status if it has ended (reaping it), else nil.
    static func poll(_ pid: pid_t) -> Int32? {
        var raw: Int32 = 0
        return waitpid(pid, &raw, WNOHANG) == pid ? status(raw) : nil
    }
}

/// Where a COMMAND name leads, decided as a shell decides before running it.
enum CommandLookup: Equatable {
    case found(String)
    case missing  // 127
    case notExecutable(String)  // 126

    static func resolve(_ name: String, path: String?) -> CommandLookup {
        if name.contains("/") { return check(name) ?? .missing }
        var firstNotExecutable: CommandLookup?
        for directory in (path ?? "/usr/local/bin:/usr/bin:/bin").split(separator: ":", omittingEmptySubsequences: false) {
            let candidate = (directory.isEmpty ? "." : String(directory)) + "/" + name
            switch check(candidate) {
            case .found(let path)?: return .found(path)
            case .notExecutable(let path)?: firstNotExecutable = firstNotExecutable ?? .notExecutable(path)
            default: continue
            }
        }
        return firstNotExecutable ?? .missing
    }

    private static func check(_ path: String) -> CommandLookup? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let isFile = info.st_mode & S_IFMT == S_IFREG
        return isFile && access(path, X_OK) == 0 ? .found(path) : .notExecutable(path)
    }
}

/// Spawns `arguments` (arguments[0] a path) with `environment`. With `logPath`, its standard
/// output and error go to that file and its input is /dev/null; with `ownProcessGroup`, a
/// Ctrl-C on the terminal does not reach it (its supervisor decides when it stops); with
/// `passing`, the child gets descriptor `source` as `target` (without close-on-exec).
func spawn(
    _ arguments: [String], environment: [String: String], logPath: String? = nil, ownProcessGroup: Bool = false,
    passing: (source: Int32, target: Int32)? = nil
) throws(SpawnError) -> pid_t {
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if let passing {
        precondition(passing.source != passing.target, "dup2 onto itself would keep close-on-exec")
        posix_spawn_file_actions_adddup2(&actions, passing.source, passing.target)
    }
    if let logPath {
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_APPEND, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
    }
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    // The child starts with the default actions for the signals run catches, none blocked.
    var defaults = sigset_t(), empty = sigset_t()
    sigemptyset(&defaults)
    sigemptyset(&empty)
    for number in [SIGINT, SIGTERM, SIGCHLD, SIGPIPE] { sigaddset(&defaults, number) }
    posix_spawnattr_setsigdefault(&attributes, &defaults)
    posix_spawnattr_setsigmask(&attributes, &empty)
    var flags = Int32(POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK)
    if ownProcessGroup {
        flags |= Int32(POSIX_SPAWN_SETPGROUP)
        posix_spawnattr_setpgroup(&attributes, 0)
    }
    posix_spawnattr_setflags(&attributes, Int16(flags))

    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
        argv.forEach { free($0) }
        envp.forEach { free($0) }
    }
    var pid: pid_t = 0
    let result = posix_spawn(&pid, arguments[0], &actions, &attributes, argv, envp)
    guard result == 0 else { throw SpawnError(path: arguments[0], code: result) }
    return pid
}

struct SpawnError: Error, CustomStringConvertible {
    var path: String
    var code: Int32
    var description: String { "\(path): \(String(cString: strerror(code)))" }
    /// As a shell would exit: 127 when there is no such file, 126 when it cannot be run.
    var exitStatus: Int32 { code == ENOENT ? 127 : 126 }
}

/// The datagram socket whose path the daemon finds in NOTIFY_SOCKET, as systemd gives it.
final class ReadinessSocket {
    let path: String
    let fd: Int32

    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw Failure("socket: \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            throw Failure("the notification socket's path is too long: \(path) (set TMPDIR to a shorter directory)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: bytes) }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw Failure("bind \(path): \(reason)")
        }
    }

    deinit { close(fd) }

    /// Reads the notifications waiting; true if one of them says READY=1.
    func receivedReady() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        var ready = false
        while true {
            let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            guard count > 0 else { return ready }
            if String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\n").contains("READY=1") { ready = true }
        }
    }
}
