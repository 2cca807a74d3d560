import Foundation
import SextantTestSupport
import Testing

@testable import SextantHub
@testable import SextantServer

/// Issue 28.2: the rights a control client's paths are opened with (`PeerFileAccess`).
@Suite("Opening a control client's paths with its rights")
struct PeerFileAccessTests {
    static let member = PeerCredentials(pid: getpid(), uid: 65534, gid: 65534)

    @Test("Issue 28.2: the daemon's own uid and root keep the daemon's rights; another uid gets its own, or none from a daemon that is not root")
    func rightsByPeer() {
        #expect(PeerFileAccess(peer: PeerCredentials(pid: 1, uid: 1000, gid: 1000), daemonUID: 1000).rights == .daemons)
        #expect(PeerFileAccess(peer: PeerCredentials(pid: 1, uid: 0, gid: 0), daemonUID: 1000).rights == .daemons)
        #expect(PeerFileAccess(peer: nil, daemonUID: 1000).rights == .daemons)
        #expect(PeerFileAccess(peer: Self.member, daemonUID: 0).rights == .clients(uid: 65534, gid: 65534, pid: getpid()))
        let unprivileged = PeerFileAccess(peer: Self.member, daemonUID: 1000)
        #expect(unprivileged.rights == .everyones(clientUID: 65534, daemonUID: 1000))
        guard case .failure(let refusal) = unprivileged.perform(on: "/etc/passwd", writing: true, { $0 }) else {
            Issue.record("a daemon that is not root opened a file to write for another uid")
            return
        }
        #expect(refusal.description.contains("uid 65534"), "\(refusal)")
    }

    @Test("Issue 28.2: a daemon that is not root reads for another uid only a file every user may read, where only root could change it")
    func unprivilegedDaemonReadsWhatEveryoneMay() throws {
        let access = PeerFileAccess(rights: .everyones(clientUID: 65534, daemonUID: 1000))
        #expect(try access.perform(on: "/etc/passwd", writing: false) { $0 }.get() == "/etc/passwd")
        let scratch = try TemporaryDirectory("everyones", mode: 0o755)
        let private0600 = try scratch.write("private", "x\n")
        #expect(chmod(private0600, 0o600) == 0)
        // World-readable, but in a directory under /tmp, which anyone may write.
        let open0644 = try scratch.write("open", "x\n")
        #expect(chmod(open0644, 0o644) == 0)
        for path in [private0600, open0644, scratch.path + "/missing", scratch.path] {
            guard case .failure(let refusal) = access.perform(on: path, writing: false, { $0 }) else {
                Issue.record("\(path) was opened for another uid")
                continue
            }
            #expect(refusal.description.hasPrefix("permission denied"), "\(refusal)")
        }
    }

    @Test(
        "Issue 28.2: a file made with a member's rights belongs to it, and the daemon's other threads keep theirs",
        .requires(.root("taking another uid's filesystem ids")))
    func filesBelongToThePeer() throws {
        let scratch = try TemporaryDirectory("peer-files", mode: 0o777)
        let made = scratch.file("made-as-member")
        let access = PeerFileAccess(rights: .clients(uid: 65534, gid: 65534, pid: 0))
        let descriptor = try access.perform(on: made, writing: true) { open($0, O_WRONLY | O_CREAT | O_EXCL, 0o600) }.get()
        #expect(descriptor >= 0)
        close(descriptor)
        var info = stat()
        #expect(stat(made, &info) == 0 && info.st_uid == 65534 && info.st_gid == 65534)
        // A root-only file stays out of the member's reach...
        let secret = try scratch.write("secret", "root's\n")
        #expect(chmod(secret, 0o600) == 0)
        let denied = try access.perform(on: secret, writing: false) { open($0, O_RDONLY) < 0 ? errno : 0 }.get()
        #expect(denied == EACCES)
        // ...and this thread is root still: what it makes is root's.
        let mine = try scratch.write("mine", "")
        #expect(stat(mine, &info) == 0 && info.st_uid == 0)
        let readable = open(secret, O_RDONLY)
        #expect(readable >= 0)
        close(readable)
    }
}
