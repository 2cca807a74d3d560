#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import CProcessControl
import Foundation

// How `sextantctl run` makes sure nothing it started outlives it (sextantctl(1), `run`):
// the daemon watches a pipe only run holds (`sextantd --exit-with-fd`), COMMAND gets
// SIGTERM as its parent-death signal, and run adopts COMMAND's orphans (a subreaper) to
// stop whatever COMMAND left running.

/// The pipe whose read end the daemon watches: run alone holds the write end (close-on-exec,
/// so that neither COMMAND nor anything it starts keeps it open), and the kernel closes it
/// when run ends, however it ends.
struct SupervisorPipe {
    /// Where the daemon finds the read end.
    static let daemonDescriptor: Int32 = 3
    /// The read end in run, never `daemonDescriptor` itself (a dup2 onto itself would leave
    /// it close-on-exec); closed once the daemon has its copy.
    let readEnd: Int32
    let writeEnd: Int32

    init() throws {
        var ends: [Int32] = [0, 0]
        // Close-on-exec set apart from pipe(2): run spawns from its main thread alone.
        guard pipe(&ends) == 0 else { throw Failure("pipe: \(String(cString: strerror(errno)))") }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        var readEnd = ends[0]
        if readEnd == Self.daemonDescriptor {
            readEnd = fcntl(ends[0], F_DUPFD_CLOEXEC, Self.daemonDescriptor + 1)
            close(ends[0])
        }
        self.readEnd = readEnd
        writeEnd = ends[1]
    }
}

/// `sextantctl exec-supervised --parent PID -- PATH ARGS...`: run's step between spawning
/// COMMAND and COMMAND itself. posix_spawn cannot set a parent-death signal, so this sets
/// SIGTERM as one and execs PATH in the same process; a run already gone by then (the
/// parent is no longer PID) ends it at once, as the signal would have.
struct ExecSupervised: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "exec-supervised", abstract: "Used by run: COMMAND with SIGTERM as its parent-death signal.", shouldDisplay: false)

    @Option(help: "The pid of run.")
    var parent: Int32

    @Argument(parsing: .postTerminator)
    var command: [String] = []

    func run() throws {
        guard let path = command.first else { throw ValidationError("give the command after --") }
        guard sextant_set_parent_death_signal(SIGTERM) == 0 else { throw Run.exit(126, "prctl: \(String(cString: strerror(errno)))") }
        guard getppid() == parent else { throw ExitCode(128 + SIGTERM) }
        // COMMAND starts as spawned: default actions, nothing blocked (as run's spawn set them).
        for number in [SIGPIPE, SIGINT, SIGTERM, SIGCHLD] { signal(number, SIG_DFL) }
        var none = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, nil)
        let argv = command.map { strdup($0) } + [nil]
        execv(path, argv)
        let code = errno
        throw Run.exit(code == ENOENT ? 127 : 126, "\(path): \(String(cString: strerror(code)))")
    }
}

/// The processes descended from this one (children, their children...), other than the
/// subtree of `excluded`: as /proc says now, zombies left out.
enum Descendants {
    static func of(_ root: pid_t, excluding excluded: pid_t) -> [pid_t] {
        var children: [pid_t: [pid_t]] = [:]
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
            guard let pid = pid_t(entry), let stat = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { continue }
            // After the command's name (which may hold anything, parentheses too): state, ppid.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 1, fields[0] != "Z", let parent = pid_t(fields[1]) else { continue }
            children[parent, default: []].append(pid)
        }
        var found: [pid_t] = []
        var next = children[root] ?? []
        while let pid = next.popLast() {
            guard pid != excluded else { continue }
            found.append(pid)
            next += children[pid] ?? []
        }
        return found
    }
}

extension PrivateDaemon {
    /// Stops what COMMAND left running, the daemon aside: SIGTERM (and SIGCONT, for one
    /// stopped), then SIGKILL to what is still there after `grace` seconds. Orphans come to
    /// run (a subreaper), which reaps them.
    func stopLeftovers(grace: Double = 5) {
        var told: Set<pid_t> = []
        let deadline = Date().addingTimeInterval(grace)
        while true {
            reapChildren()
            let left = Descendants.of(getpid(), excluding: daemonPID)
            if left.isEmpty {
                // Those that ended since the last reap are zombies, all run's (orphans adopted).
                reapChildren()
                return
            }
            let late = Date() >= deadline
            for pid in left where late || !told.contains(pid) {
                kill(pid, late ? SIGKILL : SIGTERM)
                if !late { kill(pid, SIGCONT) }
                told.insert(pid)
            }
            SignalPipe.wait(timeout: 0.05)
            _ = SignalPipe.drain()
        }
    }
}
