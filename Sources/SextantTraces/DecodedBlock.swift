import Synchronization

/// The one block of samples a streamed trace holds decoded, behind a lock: a trace is
/// built on one thread (the daemon's file thread) and read on another (the hub's loop),
/// and whoever reads it finds the block its last reader left.
struct DecodedBlock: ~Copyable, Sendable {
    struct Held {
        var number = -1
        var samples: [TraceSample] = []
    }

    private let held = Mutex(Held())

    /// `body`'s answer on block `number`'s samples, decoded by `decode` unless it is the
    /// block held already (which `decode`'s then replaces).
    func with<Answer: Sendable>(
        _ number: Int, decode: (Int) throws(TraceError) -> [TraceSample], _ body: ([TraceSample]) -> Answer
    ) throws(TraceError) -> Answer {
        try held.withLock { (held) throws(TraceError) -> Answer in
            if held.number != number {
                held.samples = try decode(number)
                held.number = number
            }
            return body(held.samples)
        }
    }
}
