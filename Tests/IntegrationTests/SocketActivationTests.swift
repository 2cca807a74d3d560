import Foundation
import SextantClient
import SextantProtocol
import SextantSocket
import SextantTestSupport
import Testing

/// Issue 14 point 4: sextantd serves the listening sockets systemd passes (LISTEN_FDS,
/// sd_listen_fds(3)), tested under Debian's systemd-socket-activate, which passes them as
/// systemd does.
@Suite("Socket activation")
struct SocketActivationTests {
    @Test("Under systemd-socket-activate the daemon serves both sockets passed: an app and sextantctl work; the files stay systemd's")
    func servesPassedSockets() throws {
        let scratch = try TemporaryDirectory("activate")
        let base = scratch.path
        let runtime = base + "/run", state = base + "/state"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let readiness = try ReadinessNotification(path: base + "/notify.sock")
        let logPath = base + "/sextantd.log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)

        let daemon = try SocketActivator(
            [
                "--listen=\(runtime)/app.sock", "--listen=\(runtime)/control.sock", "--fdname=app.sock:control.sock",
                "--setenv=NOTIFY_SOCKET=\(readiness.path)",
                Binaries.sextantd, "--runtime-dir", runtime, "--state-dir", state, "--no-gpsd", "--no-iio", "--log-level", "debug",
            ], log: logPath)
        defer { _ = daemon.stop() }
        let log = { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }
        try Self.waitForSocketFiles([runtime + "/app.sock", runtime + "/control.sock"], of: daemon, log: log)

        // The first connection starts the daemon (the activator execs it); hello is answered
        // once it serves the socket that connection was queued on.
        let app = try SextantConnection.app(runtimeDirectory: runtime)
        let hello = try app.call(Method.hello, ["app": "com.example.activated", "state": "foreground"])
        #expect(hello["session"] != nil, "\(hello.serialized())\n\(log())")
        try readiness.waitForReady(while: { daemon.isRunning }, timeout: 15, log: log)

        let status = try run([Binaries.sextantctl, "status", "--json", "--runtime-dir", runtime])
        #expect(status.status == 0, "\(status.stderr)\n\(log())")
        #expect(try JSONValue.parse(status.stdout)["sessions"] == 1, "\(status.stdout)")
        #expect(log().contains("\(runtime)/control.sock"), "the log names the socket served:\n\(log())")
        app.close()

        #expect(daemon.stop() == 0, "\(log())")
        // The daemon removes only the socket files it created itself; these are the activator's.
        #expect(FileManager.default.fileExists(atPath: runtime + "/app.sock"))
        #expect(FileManager.default.fileExists(atPath: runtime + "/control.sock"))
    }

    @Test(
        "As under DynamicUser=: sockets root made, the daemon as uid 65534; root's sextantctl trusts it (root placed the socket) and is served",
        .requires(.root("to make the sockets as systemd does and start the daemon as another uid")))
    func daemonOfAnotherUserOnRootsSockets() throws {
        // Under /run, where every directory up to / is root's alone, as /run/sextant is.
        let scratch = try TemporaryDirectory("test", mode: 0o755, in: "/run")
        let base = scratch.path
        let runtime = base + "/run", state = base + "/state"
        try FileManager.default.createDirectory(atPath: runtime, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        #expect(chmod(base, 0o755) == 0 && chown(state, 65534, 65534) == 0)
        let readiness = try ReadinessNotification(path: base + "/notify.sock")
        #expect(chmod(readiness.path, 0o666) == 0, "the daemon, uid 65534, says READY=1 there")
        let logPath = base + "/sextantd.log"
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)

        let daemon = try SocketActivator(
            [
                "--listen=\(runtime)/app.sock", "--listen=\(runtime)/control.sock", "--fdname=app.sock:control.sock",
                "--setenv=NOTIFY_SOCKET=\(readiness.path)",
                "/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups",
                Binaries.sextantd, "--runtime-dir", runtime, "--state-dir", state, "--no-gpsd", "--no-iio",
            ], log: logPath)
        defer { _ = daemon.stop() }
        let log = { (try? String(contentsOfFile: logPath, encoding: .utf8)) ?? "" }
        try Self.waitForSocketFiles([runtime + "/app.sock", runtime + "/control.sock"], of: daemon, log: log)
        let first = try OwnedDescriptor.unixStreamSocket()
        try first.connect(to: UnixSocketAddress(path: runtime + "/control.sock"))  // starts the daemon
        try readiness.waitForReady(while: { daemon.isRunning }, timeout: 15, log: log)

        // Once the daemon listens on the socket itself, the kernel names it as the peer.
        let probe = try OwnedDescriptor.unixStreamSocket()
        try probe.connect(to: UnixSocketAddress(path: runtime + "/control.sock"))
        #expect(try probe.peerCredentials().uid == 65534)
        let status = try run([Binaries.sextantctl, "status", "--json", "--runtime-dir", runtime])
        #expect(status.status == 0, "\(status.stderr)\n\(log())")
        #expect(try JSONValue.parse(status.stdout)["version"] != nil)
    }

    @Test("LISTEN_PID of another process is not ours: the daemon binds its own sockets")
    func variablesOfAnotherProcessAreIgnored() throws {
        let daemon = try DaemonHarness(launcher: ["/usr/bin/env", "LISTEN_PID=1", "LISTEN_FDS=2", "LISTEN_FDNAMES=app.sock:control.sock"])
        var info = stat()
        #expect(lstat(daemon.runtime + "/control.sock", &info) == 0 && info.st_mode & S_IFMT == S_IFSOCK)
        #expect(try daemon.ctl(["status"]).status == 0)
        #expect(daemon.terminate() == 0)
        #expect(!FileManager.default.fileExists(atPath: daemon.runtime + "/control.sock"), "its own socket files are removed at stop")
    }

    @Test(
        "A passed descriptor the daemon cannot serve stops the start with a message naming it",
        arguments: [
            ("LISTEN_FDS=1 LISTEN_FDNAMES=printer.sock", "3</dev/null", "descriptor 3 is named \"printer.sock\""),
            ("LISTEN_FDS=1 LISTEN_FDNAMES=app.sock", "3</dev/null", "descriptor 3 (app.sock) is not a socket"),
            ("LISTEN_FDS=2 LISTEN_FDNAMES=app.sock", "3</dev/null 4</dev/null", "2 descriptors passed but LISTEN_FDNAMES names 1"),
            ("LISTEN_FDS=lots LISTEN_FDNAMES=app.sock", "", "LISTEN_FDS=lots is not a number"),
        ])
    func unusableDescriptor(variables: String, redirections: String, message: String) throws {
        let scratch = try TemporaryDirectory("activate")
        let base = scratch.path
        // sh's exec keeps the pid, so LISTEN_PID=$$ is the daemon's, as systemd sets it.
        let script = "LISTEN_PID=$$ \(variables) exec \"$0\" \"$@\" \(redirections)"
        let result = try run([
            "/bin/sh", "-c", script, Binaries.sextantd, "--runtime-dir", base + "/run", "--state-dir", base + "/state", "--no-gpsd", "--no-iio",
        ])
        #expect(result.status != 0)
        #expect(result.stderr.contains("socket activation: \(message)"), "\(result.stderr)")
    }

    @Test(
        "issue 28.10: a descriptor that is not a listening Unix stream socket, or not passed at all, is refused by number and kind, never adopted",
        arguments: [
            // LISTEN_FDS counts descriptors that were never passed: 5 may be the runtime's own.
            ("unix unix", "app.sock:control.sock:app.sock:control.sock:app.sock", 5, "descriptor 5 (app.sock) is not "),
            ("file", "app.sock", 1, "descriptor 3 (app.sock) is not a socket but a regular file"),
            ("udp", "app.sock", 1, "descriptor 3 (app.sock) is not a Unix socket but an IPv4 socket"),
            ("tcp", "control.sock", 1, "descriptor 3 (control.sock) is not a Unix socket but an IPv4 socket"),
            ("unixdgram", "app.sock", 1, "descriptor 3 (app.sock) is not a stream socket"),
            ("unix unix", "app.sock:app.sock", 2, "descriptors 3 and 4 are both named app.sock"),
        ])
    func descriptorOfTheWrongKind(passed: String, names: String, count: Int, message: String) throws {
        let scratch = try TemporaryDirectory("activate")
        let base = scratch.path
        let result = try run(
            ["/usr/bin/python3", "-c", Self.passingDescriptors, passed, names, String(count), base, Binaries.sextantd]
                + ["--runtime-dir", base + "/run", "--state-dir", base + "/state", "--no-gpsd", "--no-iio"])
        #expect(result.status == 1, "refused with exit 1, not a crash: \(result.status)\n\(result.stderr)")
        #expect(result.stderr.contains("cannot start: socket activation: \(message)"), "\(result.stderr)")
    }

    /// Opens the descriptors named in argv[1] (`unix`: a listening Unix stream socket,
    /// `unixdgram`, `udp`, `tcp` on loopback, `file`: a regular file) as 3, 4, ..., then
    /// execs the daemon in the same process with LISTEN_PID, LISTEN_FDS and LISTEN_FDNAMES.
    static let passingDescriptors = """
        import os, socket, sys
        kinds, names, count, base, program = sys.argv[1].split(), sys.argv[2], sys.argv[3], sys.argv[4], sys.argv[5]
        opened = []
        for index, kind in enumerate(kinds):
            if kind == "file":
                fd = os.open(program, os.O_RDONLY)
            else:
                family = socket.AF_INET if kind in ("udp", "tcp") else socket.AF_UNIX
                type = socket.SOCK_DGRAM if kind in ("udp", "unixdgram") else socket.SOCK_STREAM
                s = socket.socket(family, type)
                s.bind(("127.0.0.1", 0) if family == socket.AF_INET else f"{base}/passed{index}.sock")
                if type == socket.SOCK_STREAM: s.listen()
                fd = s.detach()
            opened.append(fd)
        moved = [os.dup(fd) for fd in opened]
        for fd in opened: os.close(fd)
        for index, fd in enumerate(moved):
            os.dup2(fd, 3 + index)
            os.close(fd)
        os.environ.update(LISTEN_PID=str(os.getpid()), LISTEN_FDS=count, LISTEN_FDNAMES=names)
        os.execv(program, [program] + sys.argv[6:])
        """

    /// The activator creates the socket files before it waits for a connection, and says
    /// nothing we could wait on: the files' appearance is polled, against a deadline.
    static func waitForSocketFiles(_ paths: [String], of process: SocketActivator, log: () -> String) throws {
        let deadline = monotonicSeconds() + 15
        while !paths.allSatisfy({ FileManager.default.fileExists(atPath: $0) }) {
            guard process.isRunning, monotonicSeconds() < deadline else { throw HarnessError("the activator made no sockets:\n\(log())") }
            usleep(10_000)
        }
    }
}

/// Debian's systemd-socket-activate, which passes listening sockets as systemd does, run
/// with posix_spawn rather than Foundation's Process: the activator closes every descriptor
/// but the sockets before it execs the daemon, and Process takes the closing of the one it
/// watches for an exit, then blocks in waitpid on it, and reaps no other child of the test
/// until the daemon stops. Spawned with no signal blocked (the test runner blocks some).
final class SocketActivator {
    let pid: pid_t
    private var exitStatus: Int32?

    init(_ arguments: [String], log: String) throws {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, log, O_WRONLY | O_APPEND, 0)
        posix_spawn_file_actions_addopen(&actions, 2, log, O_WRONLY | O_APPEND, 0)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t(), all = sigset_t()
        sigemptyset(&none)
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let program = "/usr/bin/systemd-socket-activate"
        let argv = ([program] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var spawned = pid_t()
        let result = posix_spawn(&spawned, program, &actions, &attributes, argv, environ)
        guard result == 0 else { throw HarnessError("posix_spawn \(program): \(String(cString: strerror(result)))") }
        pid = spawned
    }

    deinit { _ = stop() }

    var isRunning: Bool {
        guard exitStatus == nil else { return false }
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return true }
        exitStatus = Self.decode(status)
        return false
    }

    /// SIGTERM (to the daemon, which has the activator's pid once it execs), then its exit status.
    func stop() -> Int32 {
        if let exitStatus { return exitStatus }
        kill(pid, SIGTERM)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let decoded = Self.decode(status)
        exitStatus = decoded
        return decoded
    }

    /// The exit code, or 128 + the signal that ended it.
    private static func decode(_ status: Int32) -> Int32 {
        status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }
}
