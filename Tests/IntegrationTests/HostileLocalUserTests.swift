import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// Issue 9 points 1 and 2: another local user must not be able to choose the daemon's
/// directories, redirect what it writes, or pose as the daemon to sextantctl.
@Suite("A hostile local user")
struct HostileLocalUserTests {
    static let nobody: UInt32 = 65534

    static func daemon(_ runtime: String, _ state: String, _ extra: [String] = []) throws -> CommandResult {
        try run([Binaries.sextantd, "--runtime-dir", runtime, "--state-dir", state, "--no-gpsd", "--no-iio"] + extra)
    }

    static func makeDirectory(_ path: String, mode: mode_t, owner: UInt32? = nil) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        if let owner { #expect(chown(path, owner, owner) == 0) }
        #expect(chmod(path, mode) == 0)
    }

    @Test("A runtime or state directory owned by another uid is refused; nothing is created in it", .requires(.root("giving a directory to uid 65534")))
    func directoryOfAnotherUser() throws {
        let scratch = try TemporaryDirectory("hostile", mode: 0o755)
        let base = scratch.path
        try Self.makeDirectory(base + "/run", mode: 0o700, owner: Self.nobody)
        let refused = try Self.daemon(base + "/run", base + "/state")
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("--runtime-dir \(base)/run belongs to uid 65534"), "\(refused.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: base + "/run").isEmpty)

        try Self.makeDirectory(base + "/state2", mode: 0o700, owner: Self.nobody)
        let stateRefused = try Self.daemon(base + "/run2", base + "/state2")
        #expect(stateRefused.status != 0)
        #expect(stateRefused.stderr.contains("--state-dir \(base)/state2 belongs to uid 65534"), "\(stateRefused.stderr)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: base + "/state2").isEmpty, "no store created")
    }

    @Test("A runtime or state directory its group or others may write is refused", arguments: [0o777, 0o1777, 0o770, 0o720])
    func writableDirectory(mode: Int) throws {
        let scratch = try TemporaryDirectory("hostile", mode: 0o755)
        let base = scratch.path
        try Self.makeDirectory(base + "/run", mode: mode_t(mode))
        let refused = try Self.daemon(base + "/run", base + "/state")
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("--runtime-dir \(base)/run is writable by"), "\(refused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: base + "/run/control.sock"))

        try Self.makeDirectory(base + "/state2", mode: mode_t(mode))
        let stateRefused = try Self.daemon(base + "/run2", base + "/state2")
        #expect(stateRefused.status != 0)
        #expect(stateRefused.stderr.contains("--state-dir \(base)/state2 is writable by"), "\(stateRefused.stderr)")
    }

    @Test("A runtime directory in a parent everyone may write without the sticky bit is refused (it could be swapped)")
    func swappableParent() throws {
        let scratch = try TemporaryDirectory("hostile", mode: 0o755)
        let base = scratch.path
        try Self.makeDirectory(base + "/open", mode: 0o777)
        try Self.makeDirectory(base + "/open/run", mode: 0o700)
        let refused = try Self.daemon(base + "/open/run", base + "/state")
        #expect(refused.status != 0)
        #expect(refused.stderr.contains("--runtime-dir \(base)/open/run is in \(base)/open, which everyone may write"), "\(refused.stderr)")
        // With the sticky bit (as /tmp has) only the owner may rename it: served.
        #expect(chmod(base + "/open", 0o1777) == 0)
        let daemon = Process()
        daemon.executableURL = URL(fileURLWithPath: Binaries.sextantd)
        daemon.arguments = ["--runtime-dir", base + "/open/run", "--state-dir", base + "/state", "--no-gpsd", "--no-iio"]
        daemon.standardError = FileHandle.nullDevice
        try launch(daemon)
        defer {
            daemon.terminate()
            _ = waitForEnd(of: daemon)
        }
        let deadline = monotonicSeconds() + 15
        var served = false
        while !served, daemon.isRunning, monotonicSeconds() < deadline {
            served = (try? SextantConnection.control(runtimeDirectory: base + "/open/run").call(Method.status)) != nil
            if !served { usleep(20_000) }  // not listening yet: nothing to wait on but the clock
        }
        #expect(served)
    }

    @Test("A symlink planted at either socket path is refused; its target is untouched and no socket is left")
    func symlinkAtSocketPath() throws {
        for socketName in ["control.sock", "app.sock"] {
            let scratch = try TemporaryDirectory("hostile", mode: 0o755)
            let base = scratch.path
            try Self.makeDirectory(base + "/run", mode: 0o700)
            let victim = base + "/victim"
            #expect(FileManager.default.createFile(atPath: victim, contents: Data("secret".utf8), attributes: [.posixPermissions: 0o600]))
            #expect(symlink(victim, base + "/run/" + socketName) == 0)
            let refused = try Self.daemon(base + "/run", base + "/state")
            #expect(refused.status != 0)
            #expect(refused.stderr.contains("\(base)/run/\(socketName) exists and is not a socket"), "\(refused.stderr)")
            #expect(try FileManager.default.attributesOfItem(atPath: victim)[.posixPermissions] as? Int == 0o600)
            // When the app socket is the one refused, the control socket bound just before is gone too.
            let left = try FileManager.default.contentsOfDirectory(atPath: base + "/run").filter { $0 != socketName }
            #expect(left.isEmpty, "left behind: \(left)")
        }
    }

    @Test("The sockets have their modes whatever the umask: control 0600, app 0666", arguments: ["000", "077"])
    func socketModesIgnoreUmask(mask: String) throws {
        let daemon = try DaemonHarness(launcher: ["/bin/sh", "-c", "umask \(mask); exec \"$0\" \"$@\""])
        let control = try FileManager.default.attributesOfItem(atPath: daemon.runtime + "/control.sock")[.posixPermissions] as? Int
        let app = try FileManager.default.attributesOfItem(atPath: daemon.runtime + "/app.sock")[.posixPermissions] as? Int
        #expect(control == 0o600)
        #expect(app == 0o666)
    }

    @Test("Without XDG_RUNTIME_DIR a user's daemon and sextantctl refuse to guess a shared directory", .requires(.root("running the daemon and sextantctl as uid 65534")))
    func noSharedDefault() throws {
        let environment = ["PATH": "/usr/bin:/bin", "HOME": "/nonexistent"]
        let asNobody = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        let guessed = "/tmp/sextant-65534"
        let existedBefore = FileManager.default.fileExists(atPath: guessed)  // left by an older sextantd
        let daemon = try run(asNobody + [Binaries.sextantd, "--no-gpsd", "--no-iio"], environment: environment)
        #expect(daemon.status != 0)
        #expect(daemon.stderr.contains("no runtime directory"), "\(daemon.stderr)")
        #expect(existedBefore || !FileManager.default.fileExists(atPath: guessed), "the daemon created \(guessed)")
        let ctl = try run(asNobody + [Binaries.sextantctl, "status"], environment: environment)
        #expect(ctl.status == 1)
        #expect(ctl.stderr.contains("no runtime directory"), "\(ctl.stderr)")
    }

    @Test("sextantctl refuses a control socket served by another uid: no request is sent, exit 69", .requires(.root("running a daemon as uid 65534")))
    func foreignDaemonIsRefused() throws {
        let scratch = try TemporaryDirectory("hostile", mode: 0o755)
        let base = scratch.path
        // The other user's own daemon, in directories that user owns: a perfect impostor.
        for name in ["run", "state"] { try Self.makeDirectory(base + "/" + name, mode: 0o700, owner: Self.nobody) }
        let impostor = Process()
        impostor.executableURL = URL(fileURLWithPath: "/usr/bin/setpriv")
        impostor.arguments = ["--reuid=65534", "--regid=65534", "--clear-groups", Binaries.sextantd,
            "--runtime-dir", base + "/run", "--state-dir", base + "/state", "--no-gpsd", "--no-iio"]
        impostor.standardError = FileHandle.nullDevice
        try launch(impostor)
        defer {
            impostor.terminate()
            _ = waitForEnd(of: impostor)
        }
        // It serves once the client library can reach it, and the library refuses it by name.
        let deadline = monotonicSeconds() + 15
        var refusal: ClientError?
        while refusal == nil, monotonicSeconds() < deadline, impostor.isRunning {
            do { _ = try SextantConnection.control(runtimeDirectory: base + "/run") } catch .untrustedPeer(let path, let uid, _) {
                refusal = .untrustedPeer(path: path, uid: uid, pid: impostor.processIdentifier)
            } catch {
                usleep(20_000)  // not listening yet: nothing to wait on but the clock
            }
        }
        #expect(refusal == .untrustedPeer(path: base + "/run/control.sock", uid: Self.nobody, pid: impostor.processIdentifier))

        let revoke = try run([Binaries.sextantctl, "permissions", "revoke", "com.example.x", "--runtime-dir", base + "/run"])
        #expect(revoke.status == 69, "sextantctl(1): no daemon to talk to")
        #expect(revoke.stderr.contains("uid 65534"), "\(revoke.stderr)")
        #expect(revoke.stderr.contains(base + "/run/control.sock"), "\(revoke.stderr)")
        // The impostor heard nothing: its own user sees no permission record.
        let own = try run(["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups", Binaries.sextantctl,
            "permissions", "list", "--json", "--runtime-dir", base + "/run"])
        #expect(own.status == 0, "\(own.stderr)")
        #expect(try JSONValue.parse(own.stdout) == .array([]))
    }
}
