#if canImport(Glibc)
import Glibc
#endif
import NIOCore

/// What is written to one channel, on the channel's own loop: a turn's bytes go to the
/// socket with one `send(2)` while NIO holds nothing of this channel, else through NIO.
///
/// NIO's write and flush (the pipeline, its pending-writes manager, the bookkeeping after
/// the system call) cost about 4,800 instructions a delivery, half of what a delivered
/// fix costs in all; the system call itself is what a server doing only the writes pays.
/// So when nothing of this channel waits in NIO, the bytes go straight to the socket; what
/// the kernel does not take (its buffer full: `EAGAIN`, or a part) goes to NIO, which
/// writes it when the socket drains, and from then on everything goes through NIO until
/// it has written all it was handed: the bytes leave in the order they were asked. Any
/// other failure (the peer gone) is left to NIO too, which closes the channel as it
/// always did. NIO's water marks keep bounding what a client that does not read holds:
/// what it cannot take is in NIO's buffer, as before.
///
/// Confined to the channel's loop (``ChannelOperation/run()`` runs there), the only thread
/// that can close the channel: until the channel goes inactive its descriptor is open and
/// is this channel's, so the number cannot be another file's under us. NIO closes the
/// socket and tells the pipeline the channel is inactive in one call on this loop
/// (`close0`), and the first handler it tells (``ClosedMark``) forgets the number; what
/// runs in that call before it (the failed writes' promises) never writes here: a direct
/// send runs only in a task of its own (a turn's flush, a batch handed over). So no
/// delivery reads NIO's `isActive`, an atomic in an object of its own: a cache miss a
/// delivery in a fan-out to many apps. Carried between loops by ``LoopBatch`` without
/// being touched on the way, hence `@unchecked Sendable`.
package final class SocketOutput: @unchecked Sendable {
    let channel: Channel
    @exclusivity(unchecked) private var descriptor = Descriptor.unknown
    /// Writes handed to NIO that it has not finished: while any, everything goes to NIO.
    @exclusivity(unchecked) private var inNIO = 0
    /// Writes sent straight to the socket, whole or in part (tests count them).
    @exclusivity(unchecked) private(set) var sentDirectly = 0
    /// Writes that went through NIO.
    @exclusivity(unchecked) private(set) var handedToNIO = 0

    private enum Descriptor {
        case unknown
        case looking
        /// The channel's open socket, until the channel goes inactive.
        case known(CInt)
        /// Not a socket channel whose descriptor could be proven, or closed: NIO writes everything.
        case none
    }

    package init(channel: Channel) { self.channel = channel }

    /// Writes `bytes` and flushes: straight to the socket when it can, else through NIO.
    func writeAndFlush(_ bytes: ByteBuffer) {
        guard let fd = directDescriptor else { return handToNIO(bytes, flush: true) }
        let sent = bytes.withUnsafeReadableBytes { Self.send(fd, $0) }
        finishDirectSend(sent, of: bytes.readableBytes) { bytes }
    }

    /// The same for a run of shared lines, sent from their chunk: a slice of it is made
    /// only for what goes to NIO.
    func writeAndFlush(_ run: SharedLineRun) {
        guard let fd = directDescriptor else { return handToNIO(run.bytes(atFlush: true), flush: true) }
        let sent = run.withBytes { Self.send(fd, $0) }
        finishDirectSend(sent, of: run.count) { run.bytes(atFlush: true) }
    }

    /// The socket's descriptor while a write may go straight to it.
    private var directDescriptor: CInt? {
        guard inNIO == 0, case .known(let fd) = descriptor else {
            if case .unknown = descriptor { lookUpDescriptor() }
            return nil
        }
        return fd
    }

    private static func send(_ fd: CInt, _ bytes: UnsafeRawBufferPointer) -> Int {
        Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
    }

    /// After a `send` of `length` bytes that returned `sent` (errno untouched since): what
    /// the kernel did not take goes to NIO, from `bytes`.
    private func finishDirectSend(_ sent: Int, of length: Int, _ bytes: () -> ByteBuffer) {
        sentDirectly += 1
        if sent == length { return }
        guard sent >= 0 || errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR else {
            // The peer is gone, or worse: NIO's own write meets the same error and closes.
            return handToNIO(bytes(), flush: true)
        }
        var rest = bytes()
        rest.moveReaderIndex(forwardBy: max(sent, 0))
        handToNIO(rest, flush: true)
    }

    /// Writes `bytes` without flushing (more follows this turn): through NIO, so that the
    /// flush sends them with what follows.
    func write(_ bytes: ByteBuffer) { handToNIO(bytes, flush: false) }

    /// Flushes what NIO holds; nothing to do when it holds nothing.
    func flush() {
        guard inNIO > 0 else { return }
        channel.flush()
    }

    func close() { channel.close(promise: nil) }

    func writeAndClose(_ bytes: ByteBuffer) {
        channel.writeAndFlush(bytes).whenComplete { [channel] _ in channel.close(promise: nil) }
    }

    private func handToNIO(_ bytes: ByteBuffer, flush: Bool) {
        handedToNIO += 1
        inNIO += 1
        let written = channel.eventLoop.makePromise(of: Void.self)
        written.futureResult.assumeIsolated().whenComplete { [self] _ in inNIO -= 1 }
        if flush {
            channel.writeAndFlush(bytes, promise: written)
        } else {
            channel.write(bytes, promise: written)
        }
    }

    /// Finds the channel's descriptor, once. NIO does not give it; its socket channel
    /// names it in its description ("SocketChannel { BaseSocket { fd=N }, …"). The number
    /// read there is used only once the kernel has said that it is this very socket: the
    /// socket's cookie (SO_COOKIE, unique while the system runs) read through the number
    /// equals the one NIO reads through its own descriptor. Anything else: NIO writes.
    private func lookUpDescriptor() {
        guard let fd = Self.describedDescriptor(of: channel), let provider = channel as? SocketOptionProvider else {
            descriptor = .none
            return
        }
        descriptor = .looking
        let cookie: EventLoopFuture<UInt64> = provider.unsafeGetSocketOption(level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(Self.socketCookie))
        cookie.assumeIsolated().whenComplete { [self] result in
            // Read on this loop: the channel's descriptor cannot have closed in between unless
            // it is inactive; once the mark is in the pipeline, its going inactive is heard.
            if case .success(let theirs) = result, channel.isActive, Self.cookie(of: fd) == theirs,
                (try? channel.pipeline.syncOperations.addHandler(ClosedMark(self), position: .first)) != nil
            {
                descriptor = .known(fd)
            } else {
                descriptor = .none
            }
        }
    }

    /// The channel went inactive: its descriptor is closed, and its number may be reused.
    fileprivate func channelClosed() { descriptor = .none }

    /// SO_COOKIE (asm-generic/socket.h), which Swift's Glibc module does not export.
    static let socketCookie: Int32 = 57

    static func cookie(of fd: CInt) -> UInt64? {
        var value: UInt64 = 0
        var length = socklen_t(MemoryLayout<UInt64>.size)
        guard getsockopt(fd, SOL_SOCKET, socketCookie, &value, &length) == 0, length == MemoryLayout<UInt64>.size else { return nil }
        return value
    }

    /// The number after "fd=" in the description of one of NIO's socket channels.
    static func describedDescriptor(of channel: Channel) -> CInt? {
        let text = String(describing: channel)
        guard text.hasPrefix("SocketChannel {"), let mark = text.range(of: "fd=") else { return nil }
        let digits = text[mark.upperBound...].prefix(while: { $0.isASCII && $0.isNumber })
        guard let fd = CInt(digits), fd >= 0 else { return nil }
        return fd
    }
}

/// First in a channel's pipeline once its descriptor is known: tells the ``SocketOutput``
/// the channel went inactive before any other handler hears it. It holds the output until
/// the channel closes (NIO then removes its handlers).
private final class ClosedMark: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    private let output: SocketOutput

    init(_ output: SocketOutput) { self.output = output }

    func channelInactive(context: ChannelHandlerContext) {
        output.channelClosed()
        context.fireChannelInactive()
    }
}
