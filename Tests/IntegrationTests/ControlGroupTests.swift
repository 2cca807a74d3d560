import Foundation
import SextantClient
import SextantProtocol
import SextantTestSupport
import Testing

/// Issue 14 point 4: `--control-group` lets a group's members use the control socket
/// (docs/security.md). The daemon runs as root here; the clients run as uid 65534 with the
/// groups setpriv gives them, which need not be in /etc/group.
@Suite("The control group", .requires(.root("running sextantctl as uid 65534 with the groups setpriv gives it")))
struct ControlGroupTests {
    static let nobody: UInt32 = 65534
    static let qaGroup: UInt32 = 4242
    static let otherGroup: UInt32 = 4243

    static func daemon() throws -> DaemonHarness {
        let daemon = try DaemonHarness(arguments: ["--control-group", "\(qaGroup)"], directoryMode: 0o755)
        // Reachable by the other uid, so that the socket's mode and the daemon's check decide.
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: daemon.runtime)
        return daemon
    }

    /// `sextantctl status` as uid 65534 with primary group `gid` and supplementary `groups`.
    static func status(_ daemon: DaemonHarness, gid: UInt32, groups: [UInt32]) throws -> CommandResult {
        let groupOption = groups.isEmpty ? "--clear-groups" : "--groups=" + groups.map(String.init).joined(separator: ",")
        return try run([
            "/usr/bin/setpriv", "--reuid=\(nobody)", "--regid=\(gid)", groupOption,
            Binaries.sextantctl, "status", "--json", "--runtime-dir", daemon.runtime,
        ])
    }

    @Test("With --control-group the control socket is 0660 with that group; the app socket stays 0666")
    func socketModeAndGroup() throws {
        let daemon = try Self.daemon()
        let control = try FileManager.default.attributesOfItem(atPath: daemon.runtime + "/control.sock")
        #expect(control[.posixPermissions] as? Int == 0o660)
        #expect((control[.groupOwnerAccountID] as? NSNumber)?.uint32Value == Self.qaGroup)
        #expect(try FileManager.default.attributesOfItem(atPath: daemon.runtime + "/app.sock")[.posixPermissions] as? Int == 0o666)
    }

    @Test("A member by a supplementary group (read from /proc) and a member by primary group are served")
    func membersAreServed() throws {
        let daemon = try Self.daemon()
        let supplementary = try Self.status(daemon, gid: Self.nobody, groups: [Self.otherGroup, Self.qaGroup])
        #expect(supplementary.status == 0, "\(supplementary.stderr)\n\(daemon.log())")
        #expect(try JSONValue.parse(supplementary.stdout)["version"] != nil)
        let primary = try Self.status(daemon, gid: Self.qaGroup, groups: [])
        #expect(primary.status == 0, "\(primary.stderr)")
    }

    @Test("A non-member gets 1007 from the daemon's own check, even where the socket's mode would let it in")
    func nonMemberIsRefused() throws {
        let daemon = try Self.daemon()
        // Past the file mode, so that the daemon's check is what refuses (defence in depth).
        #expect(chmod(daemon.runtime + "/control.sock", 0o666) == 0)
        let refused = try Self.status(daemon, gid: Self.nobody, groups: [Self.otherGroup])
        #expect(refused.status != 0)
        // With --json the error is written as JSON on standard output.
        let said = refused.stdout + refused.stderr
        #expect(said.contains("1007"), "\(said)")
        #expect(said.contains("members of group \(Self.qaGroup)"), "\(said)")
        #expect(daemon.log().contains("refused a client of another user"))
    }

    @Test("Without --control-group a member of any group is refused as before")
    func noGroupNoEntry() throws {
        let daemon = try DaemonHarness(directoryMode: 0o755)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: daemon.runtime)
        #expect(chmod(daemon.runtime + "/control.sock", 0o666) == 0)
        let refused = try Self.status(daemon, gid: Self.qaGroup, groups: [Self.qaGroup])
        #expect(refused.status != 0)
        #expect((refused.stdout + refused.stderr).contains("1007"), "\(refused.stdout)\(refused.stderr)")
    }

    @Test("--control-group with a name no group has stops the start, naming it")
    func unknownGroupName() throws {
        let scratch = try TemporaryDirectory("group")
        let base = scratch.path
        let result = try run([
            Binaries.sextantd, "--runtime-dir", base + "/run", "--state-dir", base + "/state", "--no-gpsd", "--no-iio",
            "--control-group", "no-such-group-here",
        ])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--control-group no-such-group-here: no such group"), "\(result.stderr)")
    }
}
