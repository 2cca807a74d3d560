import Foundation

extension SignalPipe {
    /// Returns true when SIGINT or SIGTERM arrives (after ``install()``); false once the
    /// task is cancelled. For a command that waits in tasks (`replay start --wait`).
    static func stopRequested() async -> Bool {
        for await signal in received where signal.number == SIGINT || signal.number == SIGTERM { return true }
        return false
    }

    /// Every signal the pipe records, from a thread blocked on it: nothing runs until one
    /// comes. One reader per process (the follower of a replay is the only one).
    private static let received: AsyncStream<ReceivedSignal> = {
        let (stream, continuation) = AsyncStream.makeStream(of: ReceivedSignal.self)
        let thread = Thread {
            while true {
                wait(timeout: nil)
                for signal in drain() { continuation.yield(signal) }
            }
        }
        thread.name = "signals"
        thread.start()
        return stream
    }()
}
