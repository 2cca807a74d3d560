import Foundation
import SextantSocket

/// Who is at the other end of a loopback TCP connection: TCP has no SO_PEERCRED. The peer's
/// socket is the one whose local address is the connection's remote one. Its uid and inode
/// come from the kernel by the socket's addresses (``SocketDiag``, or `/proc/self/net/tcp`
/// where netlink is refused), which anyone may read; its process from the one holding
/// `socket:[inode]` among its descriptors, which only root and the process's own uid may
/// look at (`/proc/PID/fd`), then `/proc/PID/comm` its executable's name.
struct GPSDPeer: Equatable, Sendable {
    var uid: UInt32
    var pid: Int32?
    var gid: UInt32?
    /// The executable's name as the kernel keeps it (`comm`, at most 15 bytes).
    var command: String?

    /// The app id the authorization engine knows the client by: `gpsd.` and the
    /// executable's name, characters outside `[A-Za-z0-9._-]` replaced by `_`; where the
    /// name cannot be read, `gpsd.uid` and the uid, so that each user has a decision of
    /// its own; `gpsd.unknown` only for a peer whose uid is not known either (not on
    /// this machine).
    static func appID(command: String?, uid: UInt32? = nil) -> String {
        guard let command, !command.isEmpty else { return uid.map { "gpsd.uid\($0)" } ?? unknownApp }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")
        return "gpsd." + String(command.prefix(200).map { allowed.contains($0) ? $0 : "_" })
    }

    static let unknownApp = "gpsd.unknown"

    /// What a lookup starts from: the connection's two addresses ("ADDRESS", PORT as
    /// `SocketAddress` gives them), and the peer's socket when the loop already asked the
    /// kernel for it.
    struct Query: Sendable {
        var peer: (ip: String, port: Int)
        var local: (ip: String, port: Int)
        var socket: ProcNetTCP.Entry?
    }

    /// Finds the peer: its socket (from the query, else /proc), then, where this process
    /// may look at the processes of the socket's uid, the process holding it. Nil when the
    /// socket is not found (another network namespace, a remote peer, already closed).
    static func identify(_ query: Query, proc: String = "/proc") -> GPSDPeer? {
        guard let entry = query.socket ?? ProcNetTCP.find(peer: query.peer, local: query.local, proc: proc) else { return nil }
        var found = GPSDPeer(uid: entry.uid)
        guard entry.inode != 0, mayLookAtProcesses(of: entry.uid) else { return found }
        guard let pid = pidHolding(socketInode: entry.inode, uid: entry.uid, proc: proc) else { return found }
        found.pid = pid
        found.command = ProcFile.read("\(proc)/\(pid)/comm")?.trimmingCharacters(in: .whitespacesAndNewlines)
        found.gid = gid(of: pid, proc: proc)
        return found
    }

    /// Whether /proc/PID/fd of `uid`'s processes is readable to this one: root's (with its
    /// capabilities) or its own. A daemon that runs as a user of its own (the shipped
    /// unit's DynamicUser) sees no one else's, and does not scan for them.
    static func mayLookAtProcesses(of uid: UInt32) -> Bool {
        geteuid() == 0 || geteuid() == uid
    }

    /// The pid of `uid` whose descriptors include `socket:[inode]`: only that uid's
    /// processes are looked into (a /proc/PID directory belongs to its process's uid). The
    /// search has no time limit: a client's app id, and so its decision, must not depend on
    /// how loaded the machine is. It is bounded by the lookups' queue instead (one waiting
    /// per open connection, taken off when it closes: ``GPSDPeerLookups``).
    ///
    /// A child the client is starting holds its descriptors from fork to exec, and from the
    /// moment exec names it until its close-on-exec descriptors are closed it holds them
    /// under its new name: found first (the search goes newest first), it would lend the
    /// client its name. So the holder found is walked up to its topmost ancestor that holds
    /// the socket too.
    static func pidHolding(socketInode inode: UInt64, uid: UInt32, proc: String) -> Int32? {
        let target = "socket:[\(inode)]"
        // Newest first: a client has most often just been started.
        for pid in ProcDirectory.entries(proc).compactMap({ Int32($0) }).sorted(by: >) {
            guard holds(pid, target, uid: uid, proc: proc) else { continue }
            var holder = pid
            while let parent = parentPID(of: holder, proc: proc), parent > 1, holds(parent, target, uid: uid, proc: proc) {
                holder = parent
            }
            return holder
        }
        return nil
    }

    /// Whether process `pid`, of `uid`, has a descriptor on `target` (`socket:[INODE]`).
    private static func holds(_ pid: Int32, _ target: String, uid: UInt32, proc: String) -> Bool {
        var info = stat()
        guard stat("\(proc)/\(pid)", &info) == 0, info.st_uid == uid else { return false }
        let fdDirectory = "\(proc)/\(pid)/fd"
        return ProcDirectory.entries(fdDirectory).contains { ProcDirectory.link("\(fdDirectory)/\($0)") == target }
    }

    /// The parent's pid, from /proc/PID/stat (the field after the state, past the command's
    /// closing parenthesis: a command may hold spaces and parentheses).
    static func parentPID(of pid: Int32, proc: String) -> Int32? {
        guard let stat = ProcFile.read("\(proc)/\(pid)/stat"), let close = stat.lastIndex(of: ")") else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        return fields.count > 1 ? Int32(fields[1]) : nil
    }

    private static func gid(of pid: Int32, proc: String) -> UInt32? {
        guard let status = ProcFile.read("\(proc)/\(pid)/status") else { return nil }
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Gid:") }) else { return nil }
        return line.split(whereSeparator: { $0 == "\t" || $0 == " " }).dropFirst().first.flatMap { UInt32($0) }
    }
}

/// Directory entries and symbolic links read with readdir(3) and readlink(2): a search of
/// /proc reads thousands of them, and Foundation's FileManager costs several times more.
enum ProcDirectory {
    static func entries(_ path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    static func link(_ path: String) -> String? {
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { readlink(path, $0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count) }
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count], as: UTF8.self)
    }
}
