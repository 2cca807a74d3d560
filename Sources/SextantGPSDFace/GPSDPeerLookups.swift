import Dispatch
import Synchronization

/// The gpsd face's searches of /proc (``GPSDPeer/identify(_:proc:)``), on a queue
/// of their own: the file thread's control work (`replay.start`'s checks of a trace) never
/// waits behind them. A connection has at most one lookup waiting, and a connection that
/// closes takes its lookup off the queue (``cancel(_:)``), so what waits is bounded by the
/// connections open, however fast clients connect and leave; the oldest runs first.
final class GPSDPeerLookups: Sendable {
    typealias Completion = @Sendable (GPSDPeer?) -> Void

    private struct Job: Sendable {
        let query: GPSDPeer.Query
        let done: Completion
    }

    private struct Waiting {
        var jobs: [UInt64: Job] = [:]
        /// Whether a drain is queued or running: at most one block is ever on the queue.
        var draining = false
    }

    private let waiting = Mutex(Waiting())
    private let queue = DispatchQueue(label: "sextant.gpsd-peer-lookups")
    private let proc: String

    init(proc: String = "/proc") { self.proc = proc }

    /// Looks the peer up for connection `id`; `done` is called on the lookup queue, unless
    /// the lookup is cancelled first.
    func lookUp(_ id: UInt64, _ query: GPSDPeer.Query, done: @escaping Completion) {
        let start = waiting.withLock { waiting in
            waiting.jobs[id] = Job(query: query, done: done)
            defer { waiting.draining = true }
            return !waiting.draining
        }
        if start { queue.async { [self] in drain() } }
    }

    /// Connection `id` closed: its lookup, if it has not started, never runs.
    func cancel(_ id: UInt64) {
        _ = waiting.withLock { $0.jobs.removeValue(forKey: id) }
    }

    /// How many lookups wait (for `status` and the tests).
    var count: Int { waiting.withLock { $0.jobs.count } }

    private func drain() {
        while let job = next() {
            job.done(GPSDPeer.identify(job.query, proc: proc))
        }
    }

    /// The oldest job waiting (connection ids only grow), or nil, and then the drain ends.
    private func next() -> Job? {
        waiting.withLock { waiting in
            guard let id = waiting.jobs.keys.min() else {
                waiting.draining = false
                return nil
            }
            return waiting.jobs.removeValue(forKey: id)
        }
    }
}
