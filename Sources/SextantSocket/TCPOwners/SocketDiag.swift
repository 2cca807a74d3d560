import Glibc

/// Asks the kernel who owns one TCP socket of this machine, by its addresses, through
/// sock_diag(7): one netlink request and one answer, whatever the number of sockets. Reading
/// `/proc/net/tcp` instead reads every socket, TIME_WAIT ones included, which after a burst
/// of connections is tens of thousands of lines for each lookup. Anyone may ask (`ss -e`
/// does), and the shipped unit allows `AF_NETLINK`. Confined to the hub's loop, which it
/// never blocks: the kernel answers while it handles the request, and the answer is read
/// without waiting.
public final class SocketDiag {
    private let fd: CInt
    private var sequence: UInt32 = 0

    /// Nil when netlink cannot be opened (a seccomp filter, an address-family restriction).
    public init?() {
        fd = socket(AF_NETLINK, CInt(SOCK_DGRAM.rawValue) | CInt(SOCK_CLOEXEC.rawValue), Self.netlinkSockDiag)
        guard fd >= 0 else { return nil }
    }

    deinit { close(fd) }

    private static let netlinkSockDiag: CInt = 4  // NETLINK_SOCK_DIAG
    private static let sockDiagByFamily: UInt16 = 20  // SOCK_DIAG_BY_FAMILY
    private static let requestFlag: UInt16 = 1  // NLM_F_REQUEST
    private static let headerSize = 16  // struct nlmsghdr
    private static let requestSize = 56  // struct inet_diag_req_v2
    /// Where `idiag_uid` and `idiag_inode` are in an answer (nlmsghdr, then inet_diag_msg).
    private static let uidOffset = 16 + 64
    private static let inodeOffset = 16 + 68

    /// The live socket whose local address is `source` and remote one `destination`: its
    /// uid and inode. Nil when there is none (the peer closed it, or it is not on this
    /// machine) or when the kernel did not answer.
    public func tcpSocket(source: (ip: String, port: Int), destination: (ip: String, port: Int)) -> ProcNetTCP.Entry? {
        guard var src = ProcNetTCP.ipBytes(source.ip), var dst = ProcNetTCP.ipBytes(destination.ip) else { return nil }
        var family = src.count == 4 ? AF_INET : AF_INET6
        // A client of a dual-stack listener: its own socket is an IPv4 one.
        if let v4src = ProcNetTCP.mappedIPv4(src), let v4dst = ProcNetTCP.mappedIPv4(dst) {
            (src, dst, family) = (v4src, v4dst, AF_INET)
        }
        sequence &+= 1
        let request = Self.request(family: UInt8(family), source: src, sourcePort: source.port, destination: dst, destinationPort: destination.port, sequence: sequence)
        let sent = request.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, CInt(MSG_DONTWAIT)) }
        guard sent == request.count else { return nil }
        return answer(to: sequence)
    }

    /// Reads answers until the one to `sequence`, without waiting.
    private func answer(to sequence: UInt32) -> ProcNetTCP.Entry? {
        var buffer = [UInt8](repeating: 0, count: 8192)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, CInt(MSG_DONTWAIT)) }
            if count < 0, errno == EINTR { continue }
            guard count >= Self.headerSize else { return nil }
            let type = Self.load(UInt16.self, buffer, 4)
            guard Self.load(UInt32.self, buffer, 8) == sequence else { continue }  // an earlier request's late answer
            guard type == Self.sockDiagByFamily, count >= Self.inodeOffset + 4 else { return nil }  // NLMSG_ERROR: no such socket
            let inode = UInt64(Self.load(UInt32.self, buffer, Self.inodeOffset))
            // A socket in TIME_WAIT has no owner any more (inode 0): its process closed it.
            guard inode != 0 else { return nil }
            return ProcNetTCP.Entry(uid: Self.load(UInt32.self, buffer, Self.uidOffset), inode: inode)
        }
    }

    private static func load<T: FixedWidthInteger>(_: T.Type, _ bytes: [UInt8], _ offset: Int) -> T {
        bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: T.self) }
    }

    /// An `inet_diag_req_v2` for one socket, in a netlink message.
    private static func request(family: UInt8, source: [UInt8], sourcePort: Int, destination: [UInt8], destinationPort: Int, sequence: UInt32) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(headerSize + requestSize)
        func append<T: FixedWidthInteger>(_ value: T) { withUnsafeBytes(of: value) { bytes += $0 } }
        append(UInt32(headerSize + requestSize))
        append(sockDiagByFamily)
        append(requestFlag)
        append(sequence)
        append(UInt32(0))
        bytes += [family, UInt8(IPPROTO_TCP), 0, 0]
        append(UInt32.max)  // every state
        bytes += [UInt8(sourcePort >> 8 & 0xFF), UInt8(sourcePort & 0xFF), UInt8(destinationPort >> 8 & 0xFF), UInt8(destinationPort & 0xFF)]
        bytes += source + [UInt8](repeating: 0, count: 16 - source.count)
        bytes += destination + [UInt8](repeating: 0, count: 16 - destination.count)
        append(UInt32(0))  // any interface
        append(UInt32.max)  // INET_DIAG_NOCOOKIE
        append(UInt32.max)
        return bytes
    }
}
