#if canImport(Glibc)
import Glibc
#endif
import Foundation
import SextantSocket

/// Whose is the browser's side of a DevTools connection on loopback. TCP has no
/// SO_PEERCRED, so it is read as the gpsd face reads its clients': the kernel lists every
/// TCP socket of the machine with its owner's uid in /proc/self/net/tcp and tcp6, readable
/// by anyone; the browser's socket is the one whose local address is the connection's
/// remote one and whose remote address is the connection's local one (a socket accepted
/// from a listener is its owner's). The bridge hands the app's positions only to a peer of
/// its own uid or root's: another user squatting the port (Chromium takes [::1] instead,
/// without a word, when 127.0.0.1's port is taken) is refused.
enum DevToolsPeer {
    typealias Address = ProcNetTCP.Address

    /// Throws unless the socket at the other end of `local` → `remote` is this user's or root's.
    static func check(local: Address, remote: Address, proc: String = "/proc") throws(DevToolsAddress.Failure) {
        let shown = remote.ip.contains(":") ? "[\(remote.ip)]:\(remote.port)" : "\(remote.ip):\(remote.port)"
        guard let uid = owner(server: remote, client: local, proc: proc) else {
            throw .refused("\(shown) is not a socket of this machine: the bridge talks to a browser on loopback only")
        }
        guard uid == geteuid() || uid == 0 else {
            throw .refused(
                "\(shown) is another user's (uid \(uid)), not this user's (uid \(geteuid())) nor root's: refused, "
                    + "the app's positions would go to it (is your browser on the other loopback address, 127.0.0.1 or [::1]?)")
        }
    }

    /// Throws unless every socket listening on `ip`:`port` (or on the wildcard address of
    /// its family, or [::] for IPv4 too) is this user's or root's; and, when `required`,
    /// unless there is one.
    static func checkListener(ip: String, port: Int, required: Bool, proc: String = "/proc") throws(DevToolsAddress.Failure) {
        let shown = DevToolsAddress.authority(ip, UInt16(port))
        var found = false
        for uid in ProcNetTCP.tables(proc: proc).flatMap({ ProcNetTCP.listeners(in: $0, ip: ip, port: port) }) {
            found = true
            guard uid == geteuid() || uid == 0 else {
                throw .refused(
                    "\(shown) is listened on by another user (uid \(uid)), not this user (uid \(geteuid())) nor root: refused, "
                        + "the app's positions would go to it (is your browser on the other loopback address, 127.0.0.1 or [::1]?)")
            }
        }
        if required, !found { throw .unreachable("no browser listens at \(shown)") }
    }

    /// The uid owning the server's side, waiting up to a second for the kernel to list it
    /// (an accepted socket appears as its handshake completes).
    static func owner(server: Address, client: Address, proc: String) -> UInt32? {
        let deadline = ContinuousClock.now + .seconds(1)
        while true {
            if let entry = ProcNetTCP.find(peer: server, local: client, proc: proc) { return entry.uid }
            guard ContinuousClock.now < deadline else { return nil }
            usleep(10_000)
        }
    }

    /// The uid of the entry of `table` whose local address is `server` and remote `client`.
    static func owner(in table: String, server: Address, client: Address) -> UInt32? {
        ProcNetTCP.find(in: table, peer: server, local: client)?.uid
    }
}
