import Foundation
import SextantProtocol
import SextantSocket

/// Listening sockets handed over by systemd (socket activation, sd_listen_fds(3)): the
/// daemon serves them instead of binding its own, so that systemd can start it on the
/// first connection and keep the sockets open across restarts.
///
/// The protocol: `LISTEN_PID` is this process's pid (the variables were meant for it, not
/// inherited from a parent that got them), `LISTEN_FDS` says how many descriptors follow
/// from 3, and `LISTEN_FDNAMES` names them, colon-separated (`FileDescriptorName=` in the
/// socket unit; `--fdname` for systemd-socket-activate). The names chosen are the socket
/// files' names, `app.sock` and `control.sock`. The variables are removed once read, so that
/// no process the daemon might start takes the descriptors for its own.
struct SocketActivation {
    /// The descriptors passed, by name; empty when the daemon was started by hand.
    private(set) var sockets: [String: OwnedDescriptor] = [:]

    /// Where passed descriptors start (SD_LISTEN_FDS_START).
    static let firstDescriptor: Int32 = 3
    static let knownNames = [DefaultPaths.appSocketName, DefaultPaths.controlSocketName]

    /// Reads and unsets the variables; checks every descriptor passed. A passed descriptor
    /// that is not a listening Unix stream socket, or has no name the daemon knows, stops the
    /// start with a message naming it.
    static func take(environment: [String: String] = ProcessInfo.processInfo.environment) throws(DaemonStartError) -> SocketActivation {
        defer { for name in ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"] { unsetenv(name) } }
        guard let pidText = environment["LISTEN_PID"], let countText = environment["LISTEN_FDS"] else { return SocketActivation() }
        // Meant for another process (a parent that was activated and started us): not ours.
        guard let pid = Int32(pidText), pid == getpid() else { return SocketActivation() }
        guard let count = Int32(countText), count >= 0, count <= 64 else {
            throw DaemonStartError(description: "socket activation: LISTEN_FDS=\(countText) is not a number of descriptors from 0 to 64")
        }
        guard count > 0 else { return SocketActivation() }
        let names = environment["LISTEN_FDNAMES"].map { $0.split(separator: ":", omittingEmptySubsequences: false).map(String.init) } ?? []
        guard names.count == Int(count) else {
            throw DaemonStartError(
                description: "socket activation: \(count) descriptors passed but LISTEN_FDNAMES names \(names.count) "
                    + "(name them \(knownNames.joined(separator: " and ")) with FileDescriptorName= or --fdname)")
        }
        // Every descriptor is checked before any is adopted: one that is not what systemd
        // passes (LISTEN_FDS larger than what was passed) may be the runtime's own, and
        // closing that one would crash the daemon instead of refusing (issue 28.10).
        var checked: [String: Int32] = [:]
        for (offset, name) in names.enumerated() {
            let fd = firstDescriptor + Int32(offset)
            guard knownNames.contains(name) else {
                throw DaemonStartError(
                    description: "socket activation: descriptor \(fd) is named \"\(name)\"; sextantd serves "
                        + knownNames.joined(separator: " and "))
            }
            if let problem = listeningUnixStreamProblem(fd) {
                throw DaemonStartError(description: "socket activation: descriptor \(fd) (\(name)) \(problem)")
            }
            if let first = checked[name] {
                throw DaemonStartError(description: "socket activation: descriptors \(first) and \(fd) are both named \(name)")
            }
            checked[name] = fd
        }
        var activation = SocketActivation()
        for (name, fd) in checked {
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
            activation.sockets[name] = OwnedDescriptor(adopting: fd)
        }
        return activation
    }

    /// Whether systemd passed both sockets, so that the daemon binds none of its own.
    var passesEverySocket: Bool { Self.knownNames.allSatisfy { sockets[$0] != nil } }

    /// Takes the descriptor passed for `name`, if any: the caller owns it from then on.
    mutating func claim(_ name: String) -> OwnedDescriptor? { sockets.removeValue(forKey: name) }

    /// Why `fd` cannot be served as one of the daemon's sockets, or nil when it can: it must
    /// be open, a socket, of the Unix family, a stream, and listening.
    private static func listeningUnixStreamProblem(_ fd: Int32) -> String? {
        var info = stat()
        guard fstat(fd, &info) == 0 else { return "is not open (LISTEN_FDS counts more descriptors than were passed)" }
        guard info.st_mode & S_IFMT == S_IFSOCK else { return "is not a socket but \(fileKind(info.st_mode))" }
        func option(_ name: Int32) -> Int32? {
            var value: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            return getsockopt(fd, SOL_SOCKET, name, &value, &length) == 0 ? value : nil
        }
        guard let domain = option(SO_DOMAIN), let type = option(SO_TYPE), let listening = option(SO_ACCEPTCONN) else {
            return "is a socket whose options cannot be read: \(String(cString: strerror(errno)))"
        }
        guard domain == AF_UNIX else { return "is not a Unix socket but \(familyName(domain)) (ListenStream= takes a path)" }
        guard type == Int32(SOCK_STREAM.rawValue) else { return "is not a stream socket (ListenStream=)" }
        guard listening != 0 else { return "is not listening" }
        return nil
    }

    private static func fileKind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFREG: "a regular file"
        case S_IFDIR: "a directory"
        case S_IFIFO: "a pipe"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        default: "a file of mode \(String(mode & S_IFMT, radix: 8))"
        }
    }

    private static func familyName(_ domain: Int32) -> String {
        switch domain {
        case AF_INET: "an IPv4 socket"
        case AF_INET6: "an IPv6 socket"
        case AF_NETLINK: "a netlink socket"
        default: "a socket of family \(domain)"
        }
    }

    /// The path a Unix socket is bound to, for the log.
    static func boundPath(of fd: Int32) -> String? {
        var address = sockaddr_un()
        var length = socklen_t(MemoryLayout<sockaddr_un>.size)
        let got = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard got == 0 else { return nil }
        return withUnsafeBytes(of: address.sun_path) { bytes in
            let path = bytes.prefix(while: { $0 != 0 })
            return path.isEmpty ? nil : String(decoding: path, as: UTF8.self)
        }
    }
}
