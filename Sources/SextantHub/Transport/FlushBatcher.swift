import NIOCore

/// Flushes every connection written to, in one `writev` each, and never many of them in
/// one go.
///
/// The events a turn of the loop produces for one client (a replay batch, a fan-out) leave
/// in one flush, not one system call each: the flush runs as a task queued behind the work
/// that wrote. A fan-out to thousands of apps writes to thousands of connections, and
/// flushing them all at once would hold the loop for tens of milliseconds (each flush is a
/// system call that wakes a reader), so at most `connectionsPerTurn` are flushed per turn:
/// the rest wait in a backlog, flushed `connectionsPerTurn` at a time a short pause apart,
/// so that the loop polls its sockets in between. A connection written in a later turn is
/// flushed at the end of that turn, ahead of the backlog. An answer to a request goes
/// further ahead (`needsFlushAhead`): it is flushed first at the end of its turn, whatever
/// else that turn wrote and whether or not its connection waits in the backlog, so that
/// `status` or a new app's `hello` waits for neither a max replay's turn of writes nor the
/// tail of a fan-out (with 2000 apps, an answer behind a turn's writes would leave about 15
/// turns later: issue 28.14).
///
/// Order is kept: a connection's writes are already in its channel, in order; only the
/// moment they leave moves. A write to a connection still in the backlog joins it there.
///
/// Other work split across turns (``LocationFanOut``) runs on this same chain of turns
/// (`inLaterTurn`), once the backlog has left: two chains of timers, each turn longer than
/// the other's pause, would find each other due at every look and never let the loop poll
/// its sockets (NIO runs every due task before it polls).
package final class FlushBatcher {
    private let eventLoop: EventLoop
    private let connectionsPerTurn: Int
    /// Written this turn, not yet flushed.
    @exclusivity(unchecked) private var pending: [LineWriter] = []
    /// Written this turn with an answer to a request: flushed first.
    @exclusivity(unchecked) private var answering: [LineWriter] = []
    /// The list a turn's flush goes through while writers written meanwhile join `pending`
    /// or `answering` (a flush can write: a failed write closes a session, whose end is told
    /// to others): it swaps places with the list it flushes, so that no list is grown again
    /// from empty each turn.
    @exclusivity(unchecked) private var flushing: [LineWriter] = []
    @exclusivity(unchecked) private var turnFlushQueued = false
    /// Written in an earlier turn, waiting for their share of a later one.
    @exclusivity(unchecked) private var backlog = CircularBuffer<LineWriter>()
    private var backlogScheduled = false
    /// Work waiting for a later turn, run once the backlog is empty.
    private var laterWork: (() -> Void)?
    /// The lines the connections of this loop share (``LineWriter/sendShared(_:)``).
    let sharedLines = SharedLineChunks()
    /// What the writers ask of channels on other loops (`--io-threads`), one batch a loop.
    private var loopBatches = LoopBatches()
    @exclusivity(unchecked) private var handOverQueued = false

    /// The pause between two slices of the backlog: long enough that the loop's next look
    /// at its task queue finds nothing due, and so polls its sockets (a task queued at once,
    /// or with a deadline already past, runs before NIO looks at I/O).
    static let backlogPause = TimeAmount.microseconds(100)

    init(eventLoop: EventLoop, connectionsPerTurn: Int) {
        precondition(connectionsPerTurn > 0, "a turn flushes at least one connection")
        self.eventLoop = eventLoop
        self.connectionsPerTurn = connectionsPerTurn
    }

    /// `connection` has unflushed writes and is not yet waiting for a flush.
    func needsFlush(_ connection: LineWriter) {
        pending.append(connection)
        queueTurnFlush()
    }

    /// `connection` holds an answer to a request: it is flushed at the end of this turn,
    /// before every other connection. Asked once a turn per connection.
    func needsFlushAhead(_ connection: LineWriter) {
        answering.append(connection)
        queueTurnFlush()
    }

    private func queueTurnFlush() {
        guard !turnFlushQueued else { return }
        turnFlushQueued = true
        eventLoop.assumeIsolated().execute { [self] in flushThisTurn() }
    }

    /// Where the writes to a channel on `loop` go: nil for the hub's own loop (written to
    /// directly), else that loop's batch (``loopBatchStarted()`` when it gets its first).
    func batch(for loop: EventLoop) -> LoopBatch? { loopBatches.batch(for: loop, hubLoop: eventLoop) }

    /// A loop's batch got its first operation: every batch is handed to its loop in a task
    /// queued now, that is after the task that wrote (a turn's flush, a slice of the
    /// backlog): one hand-over per loop for all the connections that task wrote to.
    func loopBatchStarted() {
        guard !handOverQueued else { return }
        handOverQueued = true
        eventLoop.assumeIsolated().execute { [self] in
            handOverQueued = false
            loopBatches.handOverAll()
        }
    }

    /// How many connections wait in the backlog.
    var backlogCount: Int { backlog.count }

    /// Runs `work` in a later turn of the loop, after the backlog has been flushed. One
    /// piece of work at a time: a second call replaces the first.
    func inLaterTurn(_ work: @escaping () -> Void) {
        laterWork = work
        scheduleBacklog()
    }

    private func flushThisTurn() {
        turnFlushQueued = false
        if !answering.isEmpty {
            swap(&answering, &flushing)
            flushTaken(atMost: .max)
        }
        if !pending.isEmpty {
            swap(&pending, &flushing)
            flushTaken(atMost: connectionsPerTurn)
        }
    }

    /// Flushes the first `limit` writers taken into `flushing`, puts the rest in the
    /// backlog, and empties it, keeping its capacity for a later turn.
    private func flushTaken(atMost limit: Int) {
        let now = min(flushing.count, limit)
        for index in 0..<now { flushing[index].flushWrites() }
        if now < flushing.count {
            backlog.append(contentsOf: flushing[now...])
            scheduleBacklog()
        }
        flushing.removeAll(keepingCapacity: flushing.count <= 4096)
    }

    private func scheduleBacklog() {
        guard !backlogScheduled else { return }
        backlogScheduled = true
        // A bare timer entry, without the promise and future `scheduleTask` makes (``LoopTimer``).
        _ = eventLoop.timer(in: Self.backlogPause) { [self] in
            backlogScheduled = false
            if backlog.isEmpty, let work = laterWork {
                laterWork = nil
                work()
            }
            var flushed = 0
            while flushed < connectionsPerTurn, let connection = backlog.popFirst() {
                connection.flushWrites()
                flushed += 1
            }
            if !backlog.isEmpty || laterWork != nil { scheduleBacklog() }
        }
    }
}
