import Foundation
import Logging
import NIOCore
import NIOPosix
import SextantCore
import SextantProtocol
import Testing

@_spi(Sources) @_spi(Daemon) @testable import SextantHub

/// `SocketOutput` on real NIOPosix loops and Unix sockets: a turn's bytes go straight to
/// the socket while NIO holds nothing of the channel; what the kernel does not take goes
/// through NIO, and everything after it until NIO has written it, so nothing is lost or
/// reordered; and nothing is sent through a descriptor number once its channel closed.
@Suite("A turn's bytes straight to the socket", .timeLimit(.minutes(1)))
struct SocketOutputTests {
    /// A writer on `hubLoop` for a channel on `channelLoop` over one end of a socket pair;
    /// the other end is the test's, blocking.
    struct Rig {
        let writer: NIOLoopBound<LineWriter>
        let channel: Channel
        let peer: Int32
    }

    /// Tells the writer each change of the channel's writability, as `ConnectionHandler` does.
    final class Writability: ChannelInboundHandler, @unchecked Sendable {
        typealias InboundIn = ByteBuffer
        var writer: NIOLoopBound<LineWriter>?
        func channelWritabilityChanged(context: ChannelHandlerContext) {
            let writable = context.channel.isWritable
            if let writer { writer.eventLoop.execute { writer.value.writabilityChanged(writable) } }
            context.fireChannelWritabilityChanged()
        }
    }

    static func rig(hubLoop: EventLoop, channelLoop: EventLoop, flushes: NIOLoopBound<FlushBatcher>? = nil) throws -> Rig {
        let (ours, peer) = try LoopYieldTests.connectedPair()
        // A small send buffer, so that the kernel refuses a few turns' lines early.
        var size: Int32 = 4096
        #expect(setsockopt(ours, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size)) == 0)
        let writability = Writability()
        let channel = try ClientBootstrap(group: channelLoop)
            .channelOption(.writeBufferWaterMark, value: .init(low: 16 * 1024, high: 64 * 1024))
            .channelInitializer { channel in channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(writability) } }
            .withConnectedSocket(ours).wait()
        let writer = try hubLoop.submit {
            let flushes = flushes?.value ?? FlushBatcher(eventLoop: hubLoop, connectionsPerTurn: 128)
            return NIOLoopBound(LineWriter(channel: channel, clock: .system, flushes: flushes, logger: Logger(label: "test")), eventLoop: hubLoop)
        }.wait()
        try channelLoop.submit { writability.writer = writer }.wait()
        return Rig(writer: writer, channel: channel, peer: peer)
    }

    /// Reads lines from `fd` until line number `last` has come (or `deadline`); their text, in order.
    static func readLines(_ fd: Int32, through last: Int, deadline: Date) -> [String] {
        var text = ""
        var chunk = [UInt8](repeating: 0, count: 65536)
        let end = "line \(last) "
        while !text.contains(end) || !text.hasSuffix("\n"), Date() < deadline {
            var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&ready, 1, 1000) > 0 else { continue }
            let got = read(fd, &chunk, chunk.count)
            guard got > 0 else { break }
            text += String(decoding: chunk[..<got], as: UTF8.self)
        }
        return text.split(separator: "\n").map(String.init)
    }

    /// The numbers of `lines` ("line N x…"); nil for a line cut at its start.
    static func numbers(_ lines: [String]) -> [Int?] {
        lines.map { line in line.hasPrefix("line ") ? Int(line.split(separator: " ")[1]) : nil }
    }

    /// One turn of the hub's loop writing `lines` numbered lines from `first`: each its own
    /// (`send`), or events shared between connections
    /// (`sendShared`: on the hub's loop a run of them is sent from its chunk, unsliced).
    static func turn(_ rig: Rig, on hubLoop: EventLoop, first: Int, lines: Int, shared: Bool = false) throws {
        try hubLoop.submit {
            for n in first..<first + lines {
                if shared {
                    rig.writer.value.sendShared(SharedEvent(NumberedLine(n: n)))
                } else {
                    rig.writer.value.send("line \(n) " + String(repeating: "x", count: 80) + "\n", kind: .essential)
                }
            }
        }.wait()
    }

    /// An event whose line is `line N xx…`, as `send`'s.
    struct NumberedLine: AppEventKind {
        let n: Int
        static var topic: AppTopic { .session }
        var outboundKind: OutboundKind { .essential }
        var method: String { "line" }
        var params: JSONValue { .int(Int64(n)) }
        func jsonRPCLine(_ allocator: ByteBufferAllocator) -> ByteBuffer { SocketOutputTests.numbered(n) }
    }

    @Test("A reader that stops until the socket is full, then reads all: every line once, in order; straight to the socket and through NIO both used",
          arguments: [(1, false), (2, false), (1, true), (2, true)])
    func partialWritesKeepOrder(loops: Int, shared: Bool) throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: loops)
        defer { try? group.syncShutdownGracefully() }
        let hubLoop = group.next()
        let channelLoop = loops == 1 ? hubLoop : group.next()
        let rig = try Self.rig(hubLoop: hubLoop, channelLoop: channelLoop)
        defer { close(rig.peer) }
        // Turns of 100 lines (~9 kB each, more than the kernel takes in one piece with this
        // send buffer, so that it takes a part of some) until the writer holds some back (the
        // kernel's buffer full, then NIO's), then 10 more: 1,000 lines, under the outbox's bounds.
        // A first line, written through NIO while the descriptor is checked.
        try Self.turn(rig, on: hubLoop, first: 0, lines: 1)
        var sent = 1
        var heldBack = false
        while !heldBack, sent < 20_000 {
            try Self.turn(rig, on: hubLoop, first: sent, lines: 100, shared: shared)
            sent += 100
            heldBack = try hubLoop.submit { rig.writer.value.holdsBackReplay(now: SextantClock.system.monotonicNanoseconds()) }.wait()
        }
        #expect(heldBack, "the writer never held back: the socket never filled")
        for _ in 0..<10 {
            try Self.turn(rig, on: hubLoop, first: sent, lines: 100, shared: shared)
            sent += 100
        }
        let received = Self.readLines(rig.peer, through: sent - 1, deadline: Date() + 30)
        #expect(received.count == sent)
        // Each line whole, as written: a byte lost or doubled where the kernel cut a write shows.
        let firstWrong = (0..<sent).first { $0 >= received.count || received[$0] + "\n" != String(buffer: Self.numbered($0)) }
        #expect(firstWrong == nil, "lines lost, cut, doubled or out of order: line \(firstWrong ?? 0) of \(sent) is \(firstWrong.map { $0 < received.count ? received[$0] : "missing" } ?? "")")
        let output = try hubLoop.submit { rig.writer.value.output }.wait()
        let (direct, throughNIO) = try channelLoop.submit { (output.sentDirectly, output.handedToNIO) }.wait()
        #expect(direct > 0, "no turn went straight to the socket")
        #expect(throughNIO > 1, "nothing the kernel refused went through NIO")
        try? rig.channel.close().wait()
    }

    /// A loop for both the hub and the channel, a writer on it, and the writer's output.
    static func onOneLoop(_ body: (EventLoop, Rig, SocketOutput) throws -> Void) throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let loop = group.next()
        let rig = try Self.rig(hubLoop: loop, channelLoop: loop)
        defer { close(rig.peer) }
        try body(loop, rig, try loop.submit { rig.writer.value.output }.wait())
    }

    /// A line numbered `n`, about 90 bytes.
    static func numbered(_ n: Int) -> ByteBuffer {
        var line = ByteBufferAllocator().buffer(capacity: 96)
        line.writeString("line \(n) " + String(repeating: "x", count: 80) + "\n")
        return line
    }

    @Test("Bytes left to NIO when the socket was full leave before any written after them, even once the socket has room again")
    func nothingOvertakesWhatNIOHolds() throws {
        try Self.onOneLoop { loop, rig, output in try nothingOvertakes(loop, rig, output) }
    }

    private func nothingOvertakes(_ loop: EventLoop, _ rig: Rig, _ output: SocketOutput) throws {
        // All in one task of the channel's loop, so that NIO cannot write what it holds
        // in between: fill the socket until NIO holds some, make room, write one more.
        let sent = try loop.submit { () -> Int in
            var n = 0
            while output.sentDirectly == 0 || output.handedToNIO < 2, n < 10_000 {
                output.writeAndFlush(Self.numbered(n))
                n += 1
            }
            var room = [UInt8](repeating: 0, count: 65536)
            while recv(rig.peer, &room, room.count, Int32(MSG_DONTWAIT)) > 0 {}
            output.writeAndFlush(Self.numbered(n))
            return n + 1
        }.wait()
        // The lines read to make room are gone (the first left may be cut); the rest follow on, in order.
        let numbers = Self.numbers(Self.readLines(rig.peer, through: sent - 1, deadline: Date() + 10)).compactMap { $0 }
        #expect(numbers.last == sent - 1)
        #expect(zip(numbers, numbers.dropFirst()).allSatisfy { $0 + 1 == $1 }, "out of order: \(numbers.prefix(8))…")
        try? rig.channel.close().wait()
    }

    @Test("Once its channel closed, a writer sends nothing through the number its descriptor had, whatever now holds it")
    func nothingThroughAClosedDescriptor() throws {
        try Self.onOneLoop { loop, rig, output in try nothingThroughClosed(loop, rig, output) }
    }

    private func nothingThroughClosed(_ loop: EventLoop, _ rig: Rig, _ output: SocketOutput) throws {
        // The first writes go through NIO while the descriptor is checked; then straight.
        var turns = 0
        while try loop.submit({ output.sentDirectly }).wait() == 0, turns < 100 {
            try Self.turn(rig, on: loop, first: turns, lines: 1)
            turns += 1
        }
        #expect(Self.readLines(rig.peer, through: turns - 1, deadline: Date() + 10).count == turns)
        let number = try #require(SocketOutput.describedDescriptor(of: rig.channel))
        let directBefore = try loop.submit { output.sentDirectly }.wait()
        // In one task of the channel's loop: the channel closes, a new socket is made (the
        // kernel gives it the lowest free number: the closed one, unless another thread of
        // this process took it first, as the next client accepted might), and the writer writes.
        let (impostor, impostorPeer, directAfter) = try loop.submit { () -> (Int32, Int32, Int) in
            rig.channel.close(promise: nil)
            let (impostor, impostorPeer) = try LoopYieldTests.connectedPair()
            var line = ByteBufferAllocator().buffer(capacity: 16)
            line.writeString("after close\n")
            output.writeAndFlush(line)
            return (impostor, impostorPeer, output.sentDirectly)
        }.wait()
        defer {
            close(impostor)
            close(impostorPeer)
        }
        #expect(directAfter == directBefore, "a line was sent through the closed channel's descriptor")
        if impostor == number {
            var byte: UInt8 = 0
            let got = recv(impostorPeer, &byte, 1, Int32(MSG_DONTWAIT))
            #expect(got == -1 && errno == EAGAIN, "\(got) bytes: a line went to the socket that took the closed descriptor's number")
        }
    }
}
