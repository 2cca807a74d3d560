import Foundation

/// Who the control socket serves: root, the daemon's own uid, and with `--control-group`
/// the members of that group (docs/security.md).
///
/// `SO_PEERCRED` gives the peer's uid and primary gid only. Its supplementary groups are read
/// from `/proc/PID/status` (`Groups:`), the groups the process held then, not the ones the
/// group database lists for its user: a QA shell started before `usermod -aG` is not a
/// member yet, and one started with `setpriv --groups` is. The `Uid:` line of that file must
/// still be the peer's uid: a pid that changed hands (its process gone, the number taken by
/// a process of another user) is refused rather than judged by a stranger's groups.
package struct ControlAdmission: Sendable {
    var ownerUID: UInt32
    var group: UInt32?

    /// Whether `peer` may use the control socket.
    package func admits(_ peer: PeerCredentials, groupsOf: (Int32, UInt32) -> [UInt32]? = ProcessGroups.supplementary) -> Bool {
        if peer.uid == 0 || peer.uid == ownerUID { return true }
        guard let group else { return false }
        if peer.gid == group { return true }
        return groupsOf(peer.pid, peer.uid)?.contains(group) ?? false
    }

    /// The message of the 1007 error a refused peer gets.
    package var refusal: String {
        let members = group.map { " and members of group \($0)" } ?? ""
        return "the control socket serves only uid \(ownerUID), root\(members)"
    }
}

/// A process's supplementary groups, from /proc.
enum ProcessGroups {
    /// The `Groups:` of process `pid`, or nil when it cannot be read or its effective uid
    /// is no longer `uid`.
    static func supplementary(pid: Int32, uid: UInt32) -> [UInt32]? {
        guard pid > 0, let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        return parse(status: status, uid: uid)
    }

    /// The groups listed by a `/proc/PID/status` text whose effective uid (the second of
    /// `Uid:`'s four, the one SO_PEERCRED reports) is `uid`.
    static func parse(status: String, uid: UInt32) -> [UInt32]? {
        var effectiveUID: UInt32?
        var groups: [UInt32]?
        for line in status.split(separator: "\n") {
            if line.hasPrefix("Uid:") {
                let ids = line.dropFirst(4).split(whereSeparator: { $0 == " " || $0 == "\t" })
                effectiveUID = ids.count == 4 ? UInt32(ids[1]) : nil
            } else if line.hasPrefix("Groups:") {
                let ids = line.dropFirst(7).split(whereSeparator: { $0 == " " || $0 == "\t" })
                let parsed = ids.compactMap { UInt32($0) }
                groups = parsed.count == ids.count ? parsed : nil
            }
        }
        guard effectiveUID == uid else { return nil }
        return groups
    }
}
