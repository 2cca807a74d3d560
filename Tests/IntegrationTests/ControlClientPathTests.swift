import Foundation
import SextantProtocol
import SextantTestSupport
import Testing

/// Issue 28.2: the paths a control client names (`record.start`, `replay.start`) are opened
/// with the client's rights, not the daemon's (docs/security.md, "Paths a client names").
/// The daemon runs as root; the client is a member of its control group with uid 65534.
@Suite("Paths a control client names", .requires(.root("running sextantctl as uid 65534 against a daemon run by root")))
struct ControlClientPathTests {
    static let member: UInt32 = ControlGroupTests.nobody
    static let group: UInt32 = ControlGroupTests.qaGroup
    static let secret = "root:$6$SECRETSALT$hashhashhash:19000:0:99999:7:::\n"

    /// `sextantctl ARGS --json` as the member: uid 65534, primary group the control group.
    static func asMember(_ daemon: DaemonHarness, _ arguments: [String]) throws -> CommandResult {
        try run(
            ["/usr/bin/setpriv", "--reuid=\(member)", "--regid=\(group)", "--clear-groups", Binaries.sextantctl] + arguments
                + ["--json", "--runtime-dir", daemon.runtime])
    }

    /// A root-only file (0600) holding `secret`, in a directory of `mode` that root owns.
    static func rootOnlyFile(in scratch: TemporaryDirectory) throws -> String {
        let path = try scratch.write("shadow", secret)
        #expect(chmod(path, 0o600) == 0)
        return path
    }

    static func mode(_ path: String) throws -> Int {
        try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int ?? -1
    }

    static func owner(_ path: String) throws -> UInt32? {
        (try FileManager.default.attributesOfItem(atPath: path)[.ownerAccountID] as? NSNumber)?.uint32Value
    }

    /// A directory that belongs to the member, with `mode`.
    static func membersDirectory(_ name: String, mode: Int = 0o700) throws -> TemporaryDirectory {
        let scratch = try TemporaryDirectory(name, mode: mode)
        #expect(chown(scratch.path, member, group) == 0)
        return scratch
    }

    @Test("Issue 28.2: record start on a root-only file in a 0700 directory: permission denied, the file neither replaced nor re-moded", arguments: [0o700, 0o755])
    func recordDoesNotReplaceRootFiles(directoryMode: Int) throws {
        let daemon = try ControlGroupTests.daemon()
        let scratch = try TemporaryDirectory("root-only", mode: directoryMode)
        let target = try Self.rootOnlyFile(in: scratch)
        let result = try Self.asMember(daemon, ["record", "start", target])
        let said = result.stdout + result.stderr
        #expect(result.status != 0, "\(said)")
        #expect(said.contains("permission denied") && said.contains(target), "\(said)")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == Self.secret)
        #expect(try Self.mode(target) == 0o600)
        #expect(try Self.owner(target) == 0)
        // Nothing is recording: a later start by the daemon's own user is not refused.
        #expect(try daemon.control().call(Method.status)["recording"]?.stringValue == nil)
    }

    @Test("Issue 28.2: record start through the member's symlink to a root-only file: permission denied, the file untouched")
    func recordDoesNotFollowLinksToRootFiles() throws {
        let daemon = try ControlGroupTests.daemon()
        let scratch = try TemporaryDirectory("root-only", mode: 0o755)
        let target = try Self.rootOnlyFile(in: scratch)
        let own = try Self.membersDirectory("member-links")
        let link = own.file("trace.jsonl")
        #expect(symlink(target, link) == 0 && lchown(link, Self.member, Self.group) == 0)
        let result = try Self.asMember(daemon, ["record", "start", link])
        #expect(result.status != 0)
        #expect((result.stdout + result.stderr).contains("permission denied"), "\(result.stdout)\(result.stderr)")
        #expect(try String(contentsOfFile: target, encoding: .utf8) == Self.secret)
        #expect(try Self.mode(target) == 0o600)
    }

    @Test("Issue 28.2: replay start on a root-only file says permission denied, with no line or byte of it")
    func replayDoesNotReadRootFiles() throws {
        let daemon = try ControlGroupTests.daemon()
        let scratch = try TemporaryDirectory("root-only", mode: 0o755)
        var targets = [try Self.rootOnlyFile(in: scratch)]
        if FileManager.default.fileExists(atPath: "/etc/shadow") { targets.append("/etc/shadow") }
        for target in targets {
            let result = try Self.asMember(daemon, ["replay", "start", target])
            let said = result.stdout + result.stderr
            #expect(result.status != 0, "\(said)")
            #expect(said.contains("permission denied") && said.contains(target), "\(said)")
            #expect(!said.contains("root:") && !said.contains("SECRETSALT") && !said.contains(target + ":1"), "\(said)")
        }
        #expect(!daemon.log().contains("SECRETSALT"))
    }

    @Test("Issue 28.2: the member's new recording belongs to the member; an existing one keeps its owner and mode")
    func recordingsBelongToTheMember() throws {
        let daemon = try ControlGroupTests.daemon()
        let own = try Self.membersDirectory("member-records")
        let fresh = own.file("new.jsonl")
        let started = try Self.asMember(daemon, ["record", "start", fresh])
        #expect(started.status == 0, "\(started.stdout)\(started.stderr)\n\(daemon.log())")
        #expect(try Self.asMember(daemon, ["record", "stop"]).status == 0)
        #expect(try Self.owner(fresh) == Self.member)
        #expect(try String(contentsOfFile: fresh, encoding: .utf8).contains("\"sextant\":\"trace\""))

        let existing = try own.write("old.jsonl", "old\n")
        #expect(chown(existing, Self.member, Self.group) == 0 && chmod(existing, 0o640) == 0)
        #expect(try Self.asMember(daemon, ["record", "start", existing]).status == 0)
        #expect(try Self.asMember(daemon, ["record", "stop"]).status == 0)
        #expect(try Self.mode(existing) == 0o640)
        #expect(try Self.owner(existing) == Self.member)
        #expect(try String(contentsOfFile: existing, encoding: .utf8).contains("\"sextant\":\"trace\""))
    }

    @Test("Issue 28.2: the member replays a trace in its own 0700 directory, which the daemon reads with the member's rights")
    func memberReplaysItsOwnTrace() throws {
        let daemon = try ControlGroupTests.daemon()
        let own = try Self.membersDirectory("member-traces")
        let trace = try own.write("walk.jsonl", syntheticTrace(count: 3, step: 1))
        #expect(chown(trace, Self.member, Self.group) == 0 && chmod(trace, 0o600) == 0)
        let result = try Self.asMember(daemon, ["replay", "start", trace, "--speed", "max"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)\n\(daemon.log())")
    }

    @Test("Issue 28.2: a record into a FIFO or a directory is refused by name, before anything is written")
    func recordRefusesWhatIsNotARegularFile() throws {
        let daemon = try ControlGroupTests.daemon()
        let own = try Self.membersDirectory("member-special")
        let fifo = own.file("fifo")
        #expect(mkfifo(fifo, 0o600) == 0 && chown(fifo, Self.member, Self.group) == 0)
        for (path, reason) in [(fifo, "not a regular file"), (own.path, "is a directory")] {
            let result = try Self.asMember(daemon, ["record", "start", path])
            #expect(result.status != 0)
            #expect((result.stdout + result.stderr).lowercased().contains(reason), "\(result.stdout)\(result.stderr)")
        }
    }

    /// One request on control.sock as the member, through a raw socket: sextantctl would
    /// (rightly) not trust a daemon of another uid on a socket root did not place.
    static func rawAsMember(_ daemon: DaemonHarness, _ method: String, path: String) throws -> String {
        let script = """
            import json, socket, sys
            s = socket.socket(socket.AF_UNIX)
            s.connect(sys.argv[1])
            s.sendall(json.dumps({"jsonrpc": "2.0", "id": 1, "method": sys.argv[2], "params": {"path": sys.argv[3]}}).encode() + b"\\n")
            print(s.makefile().readline())
            """
        let result = try run([
            "/usr/bin/setpriv", "--reuid=\(member)", "--regid=\(group)", "--clear-groups", "/usr/bin/python3", "-c", script,
            daemon.runtime + "/control.sock", method, path,
        ])
        return result.stdout + result.stderr
    }

    @Test(
        "Issue 28.2: a daemon that is not root replays for a member only what every user may read, and records nothing for it",
        .requires(.tool("/usr/bin/python3", package: "python3")))
    func unprivilegedDaemon() throws {
        let daemonUID: UInt32 = 4000
        // The harness's readiness socket is root's: opened to the daemon's uid before it drops
        // root. The daemon is in the control group, to give its socket that group.
        let launcher = [
            "/bin/sh", "-c",
            "chmod 666 \"$NOTIFY_SOCKET\" && exec /usr/bin/setpriv --reuid=\(daemonUID) --regid=\(daemonUID) --groups=\(Self.group) \"$0\" \"$@\"",
        ]
        let daemon = try DaemonHarness(arguments: ["--control-group", "\(Self.group)"], directoryMode: 0o1777, launcher: launcher)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: daemon.runtime)
        // Under /run, not /tmp: every directory above it is root's and written by root alone.
        let shared = try TemporaryDirectory("everyone", mode: 0o755, in: "/run")
        let open = try shared.write("open.jsonl", syntheticTrace(count: 3, step: 1))
        #expect(chmod(open, 0o644) == 0)
        let played = try Self.rawAsMember(daemon, Method.replayStart, path: open)
        #expect(played.contains("\"result\""), "\(played)\n\(daemon.log())")

        // The daemon's own file, which the member may not read.
        let daemons = try shared.write("daemons.jsonl", syntheticTrace(count: 3, step: 1))
        #expect(chown(daemons, daemonUID, daemonUID) == 0 && chmod(daemons, 0o600) == 0)
        let refused = try Self.rawAsMember(daemon, Method.replayStart, path: daemons)
        #expect(refused.contains("1006") && refused.contains("permission denied"), "\(refused)")

        let writable = try TemporaryDirectory("daemons-own", mode: 0o755, in: "/run")
        #expect(chown(writable.path, daemonUID, daemonUID) == 0)
        let recorded = try Self.rawAsMember(daemon, Method.recordStart, path: writable.file("rec.jsonl"))
        #expect(recorded.contains("cannot open files with uid \(Self.member)'s rights"), "\(recorded)")
        #expect(!FileManager.default.fileExists(atPath: writable.file("rec.jsonl")))
    }
}
