import Testing

@testable import SextantHub
@testable import SextantServer

/// Who the control socket serves (docs/security.md): root, the owner, and with
/// `--control-group` that group's members, by primary or supplementary group.
@Suite("Control socket admission")
struct ControlAdmissionTests {
    static let status = """
        Name:\tsextantctl
        Uid:\t65534\t65534\t65534\t65534
        Gid:\t65534\t65534\t65534\t65534
        Groups:\t4243 4242 
        NSpid:\t1234
        """

    @Test("Supplementary groups come from Groups: when Uid:'s effective uid is the peer's; otherwise none")
    func parseStatus() {
        #expect(ProcessGroups.parse(status: Self.status, uid: 65534) == [4243, 4242])
        #expect(ProcessGroups.parse(status: Self.status, uid: 1000) == nil, "the pid is another user's now")
        #expect(ProcessGroups.parse(status: "Uid:\t5\t5\t5\t5\nGroups:\t\n", uid: 5) == [])
        #expect(ProcessGroups.parse(status: "Uid:\t5\t5\t5\t5\nGroups:\t12 x\n", uid: 5) == nil, "a line not understood admits no one")
        #expect(ProcessGroups.parse(status: "Uid:\t5\t5\t5\t5\n", uid: 5) == nil)
    }

    @Test("Root and the owner always; a group member only with a control group; the groups are asked of the peer's pid and uid")
    func admits() {
        let stranger = PeerCredentials(pid: 77, uid: 65534, gid: 65534)
        let groupless = ControlAdmission(ownerUID: 1000, group: nil)
        #expect(groupless.admits(PeerCredentials(pid: 1, uid: 0, gid: 0)) { _, _ in nil })
        #expect(groupless.admits(PeerCredentials(pid: 1, uid: 1000, gid: 1000)) { _, _ in nil })
        #expect(!groupless.admits(stranger) { _, _ in [4242] })
        let qa = ControlAdmission(ownerUID: 1000, group: 4242)
        #expect(qa.admits(stranger) { pid, uid in pid == 77 && uid == 65534 ? [4242] : nil })
        #expect(!qa.admits(stranger) { _, _ in [4243] })
        #expect(!qa.admits(stranger) { _, _ in nil }, "groups that cannot be read admit no one")
        #expect(qa.admits(PeerCredentials(pid: 77, uid: 65534, gid: 4242)) { _, _ in nil }, "the primary group from SO_PEERCRED")
        #expect(qa.refusal.contains("members of group 4242"))
    }
}
