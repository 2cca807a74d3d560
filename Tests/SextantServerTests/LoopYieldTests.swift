import Foundation
import NIOCore
import NIOPosix
import Testing

@_spi(Sources) @_spi(Daemon) @testable import SextantHub
@testable import SextantServer

/// `LoopYield` on a real NIOPosix loop: work split across turns runs a poll apart, so a
/// chain of turns that never ends still lets the loop read its sockets.
@Suite("Work split across turns runs after the loop polls", .timeLimit(.minutes(1)))
struct LoopYieldTests {
    /// Counts the bytes a channel reads, on its loop.
    final class ReadCounter: ChannelInboundHandler, Sendable {
        typealias InboundIn = ByteBuffer
        let received = DispatchSemaphore(value: 0)
        func channelRead(context: ChannelHandlerContext, data: NIOAny) { received.signal() }
    }

    /// A chain of turns that re-arms itself until told to stop, counting its turns; it
    /// lives on the loop (`NIOLoopBound`).
    final class Chain {
        let yield: LoopYield
        var turns = 0
        var stopped = false
        init(yield: LoopYield) { self.yield = yield }
        func turn() {
            guard !stopped else { return }
            turns += 1
            yield.later(orAfter: .hours(1)) { self.turn() }
        }
    }

    static func connectedPair() throws -> (Int32, Int32) {
        var ends: [Int32] = [-1, -1]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0, &ends) == 0)
        return (ends[0], ends[1])
    }

    @Test("A chain that never ends: a socket on the same loop is still read, and the chain goes on without timers")
    func chainLeavesRoomForSockets() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let loop = group.next()
        let yield = try loop.submit { NIOLoopBound(LoopYield(eventLoop: loop), eventLoop: loop) }.wait()
        try loop.flatSubmit { yield.value.installWakeSocket() }.wait()
        let counter = ReadCounter()
        let (watched, peer) = try Self.connectedPair()
        defer { close(peer) }
        let channel = try ClientBootstrap(group: loop)
            .channelInitializer { channel in channel.eventLoop.makeCompletedFuture { try channel.pipeline.syncOperations.addHandler(counter) } }
            .withConnectedSocket(watched).wait()
        defer { try? channel.close().wait() }

        // The chain's pause is an hour: only the wake-up socket can bring its next turn.
        let chain = try loop.submit { NIOLoopBound(Chain(yield: yield.value), eventLoop: loop) }.wait()
        try loop.submit { chain.value.turn() }.wait()
        for round in 1...3 {
            var byte: UInt8 = UInt8(round)
            #expect(write(peer, &byte, 1) == 1)
            #expect(counter.received.wait(timeout: .now() + 10) == .success, "round \(round): the socket was not read while the chain ran")
        }
        let turns = try loop.submit { () -> Int in
            chain.value.stopped = true
            return chain.value.turns
        }.wait()
        #expect(turns > 3, "the chain ran \(turns) turns")
    }

    @Test("Work asked for while waiting work runs waits for the next poll; all of it runs, in order")
    func orderAndNextPoll() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let loop = group.next()
        let yield = try loop.submit { NIOLoopBound(LoopYield(eventLoop: loop), eventLoop: loop) }.wait()
        try loop.flatSubmit { yield.value.installWakeSocket() }.wait()
        let done = DispatchSemaphore(value: 0)
        let order = try loop.submit { () -> EventLoopFuture<[String]> in
            var order: [String] = []
            let promise = loop.makePromise(of: [String].self)
            yield.value.later(orAfter: .hours(1)) {
                order.append("a")
                yield.value.later(orAfter: .hours(1)) {
                    order.append("c")
                    promise.succeed(order)
                    done.signal()
                }
                order.append("a ends")
            }
            yield.value.later(orAfter: .hours(1)) { order.append("b") }
            return promise.futureResult
        }.wait()
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(try order.wait() == ["a", "a ends", "b", "c"])
    }

    @Test("Before the wake-up socket is installed, the caller's pause is used")
    func fallsBackToThePause() throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        defer { try? group.syncShutdownGracefully() }
        let loop = group.next()
        let yield = try loop.submit { NIOLoopBound(LoopYield(eventLoop: loop), eventLoop: loop) }.wait()
        let ran = DispatchSemaphore(value: 0)
        try loop.submit { yield.value.later(orAfter: .milliseconds(1)) { ran.signal() } }.wait()
        #expect(ran.wait(timeout: .now() + 10) == .success)
    }
}
