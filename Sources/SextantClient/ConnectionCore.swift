#if canImport(Glibc)
import Glibc
#endif
import SextantProtocol
import SextantSocket
import Synchronization

/// One connection's socket, its inbox and the thread that reads it.
///
/// Why a thread and not NIO: a client has one socket, and the programs that use it
/// (sextantctl, the sample app) link neither NIO nor Foundation; a thread blocked in
/// `read(2)` costs no CPU while nothing comes, and hands each message to the task (or the
/// blocking caller) waiting for it the moment it is read. Writes are made by the caller,
/// one line at a time under a lock: a request is a few hundred bytes into the socket's
/// buffer, which the daemon drains.
final class ConnectionCore: @unchecked Sendable {
    let path: String
    let lineLimit: Int
    /// Closed only once the reader has ended, so that its descriptor is never reused under it.
    private let socket: OwnedDescriptor
    let monitor = Monitor()
    /// Guarded by `monitor`.
    var inbox: Inbox
    /// Guarded by `monitor`: set by the first `close`.
    private var closing = false
    private var reader: pthread_t?
    /// Held while a line is written, so that two tasks' lines never interleave.
    private let writing = Mutex(())

    init(socket: OwnedDescriptor, path: String, lineLimit: Int, keptLimit: Int) {
        self.socket = socket
        self.path = path
        self.lineLimit = lineLimit
        inbox = Inbox(limit: keptLimit)
    }

    var fd: Int32 { socket.raw }

    /// The reader's stack: it reads into a buffer on the heap and parses one line at a time.
    static let readerStackSize = 512 << 10

    func startReading() {
        let context = Unmanaged.passRetained(self).toOpaque()
        var thread = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setstacksize(&attributes, Self.readerStackSize)
        let started = pthread_create(
            &thread, &attributes,
            { context in
                let core = Unmanaged<ConnectionCore>.fromOpaque(context!).takeRetainedValue()
                core.readUntilEnd()
                return nil
            }, context)
        if started == 0 {
            reader = thread
        } else {
            Unmanaged<ConnectionCore>.fromOpaque(context).release()
            finish(.io("cannot start the reader of \(path): \(String(cString: strerror(started)))"))
        }
    }

    // MARK: - Reading

    private func readUntilEnd() {
        var framer = LineFramer(limit: lineLimit)
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while waitForRoom() {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count < 0 { return finish(.io("read \(path): \(String(cString: strerror(errno)))")) }
            if count == 0 { return finish(.closed) }
            let (lines, overLimit) = chunk.withUnsafeBytes { framer.lines(in: UnsafeRawBufferPointer(rebasing: $0[..<count])) }
            let wakeups = monitor.withLock { lines.compactMap { inbox.receive($0) } }
            monitor.broadcast()
            for wakeup in wakeups { wakeup() }
            if overLimit {
                shutdown(fd, Int32(SHUT_RDWR))
                return finish(.lineTooLong(path: path, limit: lineLimit))
            }
        }
    }

    /// Waits until the inbox has room (or someone waits for an answer); false once ended.
    private func waitForRoom() -> Bool {
        monitor.withLock {
            while !inbox.wantsMore {
                if inbox.ending != nil { return false }
                _ = monitor.wait(until: nil)
            }
            return true
        }
    }

    /// The connection is over: every waiter hears `reason`.
    private func finish(_ reason: ClientError) {
        let wakeup = monitor.withLock { inbox.end(reason) }
        monitor.broadcast()
        wakeup()
    }

    /// Ends the connection from this side: waiters hear `closed`, the reader stops, the
    /// descriptor is closed. Once; later calls do nothing.
    func close() {
        let first = monitor.withLock {
            defer { closing = true }
            return !closing
        }
        guard first else { return }
        finish(.closed)
        shutdown(fd, Int32(SHUT_RDWR))
        if let reader {
            if pthread_equal(reader, pthread_self()) != 0 { pthread_detach(reader) } else { pthread_join(reader, nil) }
        }
        socket.close()
    }

    // MARK: - Writing

    /// Writes `text` whole; a daemon that closed its end first gives its reason.
    func write(_ text: String) throws(ClientError) {
        if let ending = monitor.withLock({ inbox.endingError }) { throw ending }
        var failure: Int32 = 0
        writing.withLock { _ in
            var bytes = Array(text.utf8)
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeMutableBytes { send(fd, $0.baseAddress! + offset, $0.count - offset, Int32(MSG_NOSIGNAL)) }
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = errno
                    return
                }
                offset += written
            }
        }
        guard failure != 0 else { return }
        guard failure == EPIPE || failure == ECONNRESET else { throw .io("write \(path): \(String(cString: strerror(failure)))") }
        throw reasonForClosing()
    }

    /// The daemon closed before our line went out. It may have said why first (an error with
    /// a null id, such as 1007 to a foreign uid): the reader, which sees the close, says.
    private func reasonForClosing() -> ClientError {
        let deadline = Monitor.now() + 5
        return monitor.withLock {
            while inbox.ending == nil, monitor.wait(until: deadline) {}
            return inbox.endingError ?? .closed
        }
    }

    // MARK: - Waiting

    /// Blocks the calling thread until `take` finds something, the connection ends, or
    /// `deadline` passes (`.timedOut(what)`).
    func wait<T>(until deadline: Double, for what: String, take: (inout Inbox) throws(ClientError) -> T?) throws(ClientError) -> T {
        try monitor.withLock { () throws(ClientError) -> T in
            inbox.blockedWaiters += 1
            monitor.broadcast()
            defer { inbox.blockedWaiters -= 1 }
            while true {
                if let found = try take(&inbox) { return found }
                if !monitor.wait(until: deadline) {
                    if let found = try take(&inbox) { return found }
                    throw .timedOut(what)
                }
            }
        }
    }

    /// Takes from the inbox without waiting, then lets the reader on if it waited for room.
    func take<T>(_ body: (inout Inbox) throws(ClientError) -> T) throws(ClientError) -> T {
        defer { monitor.broadcast() }
        return try monitor.withLock { () throws(ClientError) -> T in try body(&inbox) }
    }
}
