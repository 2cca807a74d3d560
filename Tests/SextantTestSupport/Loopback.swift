import Foundation

/// 127.0.0.1:`port` as a socket address.
public func loopbackAddress(port: UInt16) -> sockaddr_in {
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    return address
}

/// A TCP socket listening on 127.0.0.1:`port` (0: one the kernel picks), standing where a
/// server would; its descriptor and the port it is bound to.
public func listenOnLoopback(port: UInt16 = 0) throws -> (fd: Int32, port: UInt16) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { throw HarnessError("socket: \(String(cString: strerror(errno)))") }
    var yes: Int32 = 1
    setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
    var address = loopbackAddress(port: port)
    var length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafeMutablePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
    }
    guard bound, listen(fd, 8) == 0 else {
        let reason = String(cString: strerror(errno))
        close(fd)
        throw HarnessError("cannot listen on port \(port): \(reason)")
    }
    return (fd, UInt16(bigEndian: address.sin_port))
}

/// Connects to 127.0.0.1:`port` once; the descriptor, or nil when refused.
/// With `receiveBuffer`, the socket's receive buffer is set to that many bytes before it
/// connects, which keeps the kernel from growing it: a client that never reads then holds
/// at most that much, whatever the machine's TCP autotuning would allow.
public func connectLoopback(port: UInt16, receiveBuffer: Int32? = nil) -> Int32? {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { return nil }
    if var size = receiveBuffer {
        guard setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            close(fd)
            return nil
        }
    }
    var address = loopbackAddress(port: port)
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    if connected == 0 { return fd }
    close(fd)
    return nil
}

/// The lines a connected socket receives, each waited for with a deadline. Owns the
/// descriptor: closed when released.
public final class SocketLines {
    public let fd: Int32
    /// Who is at the other end, as errors name it.
    private let peer: String
    private var buffer: [UInt8] = []

    public init(fd: Int32, peer: String) {
        self.fd = fd
        self.peer = peer
    }

    deinit { close(fd) }

    public func send(_ text: String) {
        _ = text.withCString { Glibc.send(fd, $0, strlen($0), Int32(MSG_NOSIGNAL)) }
    }

    /// The next line, its CR LF or LF removed, waiting up to `timeout` seconds.
    public func nextLine(timeout: Double) throws -> String {
        let deadline = monotonicSeconds() + timeout
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line.hasSuffix("\r") ? String(line.dropLast()) : line
            }
            let remaining = deadline - monotonicSeconds()
            guard remaining > 0 else { throw HarnessError("no line from \(peer) within \(timeout) s") }
            var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, Int32((remaining * 1000).rounded(.up))) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            guard count > 0 else { throw HarnessError("\(peer) closed the connection (read \(count), errno \(errno))") }
            buffer.append(contentsOf: chunk[..<count])
        }
    }
}
