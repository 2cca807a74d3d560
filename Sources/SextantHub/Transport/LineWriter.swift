import Logging
import NIOCore
import SextantProtocol

/// The outbound side of one client connection, whatever protocol its lines speak
/// (app.sock's and control.sock's JSON-RPC, gpsd's reports), confined to the hub's loop.
/// Its channel may live on another loop (`--io-threads`): what it asks of the channel is
/// then carried there in that loop's ``LoopBatch``, once a turn.
///
/// Writes go through a bounded `Outbox`: straight to the channel while it is writable,
/// queued while it is not. NIO's own buffer is bounded by the channel's write-buffer
/// water marks, so a client that never reads cannot grow the daemon without bound. A
/// turn's lines leave in one flush at the end of the turn (``FlushBatcher``).
///
/// `@exclusivity(unchecked)` on its state, and on that of the batcher, the batches, the
/// shared chunks and ``SocketOutput``: each is used by one thread, and no change to a
/// property calls anything that reaches the same property again, so Swift's run-time check
/// that two accesses do not overlap cannot fail; it cost about 130 instructions an access,
/// eight a delivery on this path.
package final class LineWriter {
    // What a delivery reads and writes first, declared together so that they share few
    // cache lines (a fan-out to a thousand connections finds each writer cold); what only
    // the log and the outbox's overflow read comes last.
    @exclusivity(unchecked) package private(set) var isClosed = false
    /// Whether the channel takes more, as its handler last reported it
    /// (``writabilityChanged(_:)``): NIO's own flag is an atomic in an object of its own, a
    /// cache miss on every line of a fan-out to many apps. A channel on another loop reports
    /// a hop late, as NIO's flag itself lagged what that loop had not yet written.
    @exclusivity(unchecked) private var isWritable = true
    /// Written to since the last flush: the batcher flushes it at the end of the turn.
    @exclusivity(unchecked) private var hasUnflushedWrites = false
    /// Asked to be flushed ahead of the other connections this turn (`sendAnswer`).
    @exclusivity(unchecked) private var flushAheadAsked = false
    /// This turn's lines, joined, not yet handed to the channel: one `Channel.write` per
    /// turn instead of one per line (a pass through NIO's pipeline and its pending writes
    /// costs more than copying a 200-byte line). The first line of a turn is held as is
    /// (shared with the other connections); a second one copies them into one buffer.
    @exclusivity(unchecked) private var turnLines: ByteBuffer?
    /// Or, while this turn's lines are all shared ones that follow each other in a chunk
    /// (a replay's fixes to an app granted full accuracy): where they are, copied by no
    /// one (``SharedLineChunks``). At most one of the two is set.
    @exclusivity(unchecked) private var turnRun: SharedLineRun?
    private let flushes: FlushBatcher
    /// When the channel lives on another loop (`--io-threads`): the batch its operations
    /// are carried there in, in the order asked. nil: the channel is on the hub's loop.
    private let remote: LoopBatch?
    /// The channel's writes, on its loop (straight to the socket while NIO holds none).
    package let output: SocketOutput
    /// The channel's allocator, read once: off the channel's loop (the hub's loop, with
    /// `--io-threads` above 1) NIO reads it under a lock, and every line asked for it.
    package let allocator: ByteBufferAllocator
    /// Monotonic time of the last moment the client took data off our hands.
    @exclusivity(unchecked) private(set) var lastProgress: Int64
    private let clock: SextantClock
    @exclusivity(unchecked) private(set) var outbox = Outbox()
    package let channel: Channel
    /// Told when the outbox drains, so a max-speed replay can move on.
    package var onDrain: (() -> Void)?
    /// Who the client is, for the log (it may be known only after the connection opened).
    package var label: () -> String = { "client" }
    private let logger: Logger
    /// What the log calls the client and what it drops ("client", "sensor events").
    private let wording: (client: String, dropped: String)
    /// Past this many bytes the joined lines go to the channel at once, so that its
    /// writability (the water marks) still says how much this client holds. A replay's turn
    /// at `max` (``ReplayPlayer``'s 256 fixes, about 45 kB of lines) fits, so each
    /// connection sends it from one chunk straight to its socket: at half this, every turn
    /// crossed a chunk and went through NIO in two pieces.
    static let turnLinesLimit = 64 * 1024
    /// The channels' high water mark (``SocketListener``): handed more than this, a channel
    /// says it is full, then writable again once it has written it.
    static let handLimit = 64 * 1024
    /// A max-speed replay waits for a client with this many lines queued (or a full channel).
    static let replayHoldMark = 64

    package init(
        channel: Channel, clock: SextantClock, flushes: FlushBatcher, logger: Logger,
        wording: (client: String, dropped: String) = ("client", "sensor events")
    ) {
        self.channel = channel
        self.output = SocketOutput(channel: channel)
        self.clock = clock
        self.flushes = flushes
        self.remote = flushes.batch(for: channel.eventLoop)
        self.logger = logger
        self.wording = wording
        self.lastProgress = clock.monotonicNanoseconds()
        self.allocator = channel.allocator
    }

    /// Sends one line of text (with its newline).
    package func send(_ text: String, kind: OutboundKind) {
        guard !isClosed else { return }
        var buffer = allocator.buffer(capacity: text.utf8.count)
        buffer.writeString(text)
        sendLine(buffer, kind: kind)
    }

    /// Sends the answer to a request (with its newline): flushed at the end of this turn
    /// ahead of every other connection's writes (``FlushBatcher/needsFlushAhead(_:)``).
    package func sendAnswer(_ text: String) {
        send(text, kind: .essential)
        guard hasUnflushedWrites, !flushAheadAsked else { return }
        flushAheadAsked = true
        flushes.needsFlushAhead(self)
    }

    /// Sends a line already encoded (and perhaps shared with other connections: a
    /// `ByteBuffer` is copied on write, so none of them can change it for the others).
    package func sendLine(_ buffer: ByteBuffer, kind: OutboundKind) {
        guard !isClosed else { return }
        if outbox.isEmpty, isWritable {
            if turnRun != nil { handTurnLinesToChannel() }
            if turnLines == nil {
                turnLines = buffer
            } else {
                turnLines!.writeImmutableBuffer(buffer)
                if turnLines!.readableBytes >= Self.turnLinesLimit { handTurnLinesToChannel() }
            }
            wroteThisTurn()
            return
        }
        queue(buffer, kind: kind)
    }

    /// Sends an event's line shared with other connections: while this turn's lines are
    /// a run of one chunk, the line extends the run (no copy); else it is sent as any line.
    package func sendShared(_ event: SharedEvent) {
        guard !isClosed else { return }
        guard takesSharedRuns else {
            sendLine(event.jsonRPCLine(allocator), kind: event.event.outboundKind)
            return
        }
        let line = event.run(in: flushes.sharedLines, allocator)
        if !extendTurnRun(with: line) {
            // A run of another chunk (sealed, or full: its lines go as one write), or none.
            handTurnLinesToChannel()
            turnRun = line
        }
        wroteThisTurn()
    }

    /// Shared events one after the other (``SessionOutput/deliver(run:)``): while their
    /// lines follow this turn's run in its chunk, the run only grows, by as many as follow;
    /// else each goes as ``sendShared(_:)`` sends it.
    package func sendShared(run events: ArraySlice<SharedEvent>) {
        var index = events.startIndex
        while index < events.endIndex {
            let followed = extendTurnRun(withLinesOf: events, from: index)
            if followed > index {
                index = followed
            } else {
                sendShared(events[index])
                index += 1
            }
        }
    }

    /// Grows this turn's run by the lines of `events` from `index` on that follow it in its
    /// chunk, already placed there; answers the index of the first that does not.
    private func extendTurnRun(withLinesOf events: ArraySlice<SharedEvent>, from index: Int) -> Int {
        guard !isClosed, takesSharedRuns, let run = turnRun else { return index }
        let chunk = run.chunk.serial
        var end = run.end
        var next = index
        while next < events.endIndex {
            let place = events[next].place
            guard place.chunk == chunk, place.start == end else { break }
            end = place.end
            next += 1
        }
        turnRun!.end = end
        return next
    }

    /// Whether a shared line can go as part of a run: no copied line in this turn, nothing
    /// queued behind a full socket.
    private var takesSharedRuns: Bool { turnLines == nil && outbox.isEmpty && isWritable }

    /// Grows this turn's run by `line` when it follows the run in its chunk.
    private func extendTurnRun(with line: SharedLineRun) -> Bool {
        // Asked in place: a copy of the run (`if let`) would retain its chunk.
        guard turnRun?.isFollowed(by: line) == true else { return false }
        turnRun!.end = line.end
        return true
    }

    /// The first write of a turn asks for the turn's flush, and says the client keeps up.
    private func wroteThisTurn() {
        guard !hasUnflushedWrites else { return }
        lastProgress = clock.monotonicNanoseconds()
        hasUnflushedWrites = true
        flushes.needsFlush(self)
    }

    private func queue(_ buffer: ByteBuffer, kind: OutboundKind) {
        switch outbox.push(buffer, kind: kind) {
        case .queued: break
        case .droppedOldest:
            if outbox.dropped == 1 || outbox.dropped % 1000 == 0 {
                logger.notice(
                    "\(wording.client) is not reading: dropping its oldest \(wording.dropped)", metadata: ["client": "\(label())", "dropped": "\(outbox.dropped)"])
            }
        case .overflow:
            logger.warning("\(wording.client)'s queue overflowed: disconnecting it", metadata: ["client": "\(label())", "queued": "\(outbox.count)"])
            close()
        }
    }

    /// The end of the loop's turn: what this turn wrote goes out in one flush.
    func flushWrites() {
        // Flushed already this turn, ahead of the others (`sendAnswer`): nothing waits.
        guard hasUnflushedWrites else { return }
        hasUnflushedWrites = false
        flushAheadAsked = false
        guard !isClosed else { return }
        // On the hub's loop a run of shared lines is sent from their chunk: no slice made.
        if remote == nil, let run = turnRun {
            turnRun = nil
            return output.writeAndFlush(run)
        }
        // One pass through the pipeline for the write and the flush, when there is a write.
        if let lines = takeTurnLines(atFlush: true) {
            ask(.writeAndFlush(output, lines))
        } else {
            ask(.flush(output))
        }
    }

    /// Runs `operation` on the channel now, on the hub's loop, or hands it to the
    /// channel's loop with the turn's batch.
    private func ask(_ operation: ChannelOperation) {
        guard let remote else { return operation.run() }
        if remote.append(operation) { flushes.loopBatchStarted() }
    }

    /// The lines joined this turn go to the channel, ahead of anything written after them.
    private func handTurnLinesToChannel() {
        guard let lines = takeTurnLines(atFlush: false) else { return }
        ask(.write(output, lines))
    }

    private func takeTurnLines(atFlush: Bool) -> ByteBuffer? {
        if let run = turnRun {
            turnRun = nil
            return run.bytes(atFlush: atFlush)
        }
        defer { turnLines = nil }
        return turnLines
    }

    /// The channel's handler tells every change of its writability (NIO's
    /// `channelWritabilityChanged`, with the channel's `isWritable` read then), in order, on
    /// this loop: every face that writes through a `LineWriter` must, or a client that does
    /// not read would grow NIO's buffer instead of this bounded outbox. Once it takes more,
    /// the queued lines go.
    package func writabilityChanged(_ writable: Bool) {
        isWritable = writable
        if writable { flushOutbox() }
    }

    /// Hands queued lines to the channel while it takes them. A channel says it is full
    /// only once its handler has reported it (at once on this loop, a hop later from
    /// another, after that loop ran what it was handed): it is handed a little more than
    /// its high water mark (64 KiB) at most, which it will say it is full of, and then
    /// writable again, which calls this again.
    private func flushOutbox() {
        guard !isClosed, isWritable else { return }
        handTurnLinesToChannel()
        var wrote = false
        var handed = 0
        while isWritable, handed <= Self.handLimit, let entry = outbox.popFirst() {
            ask(.write(output, entry.bytes))
            wrote = true
            handed += entry.bytes.readableBytes
        }
        if wrote { ask(.flush(output)) }
        lastProgress = clock.monotonicNanoseconds()
        if outbox.isEmpty { onDrain?() }
    }

    /// Location-derived lines not yet written are discarded (delivery stopped being allowed, L9).
    package func discardQueuedLocations() { outbox.discardLocations() }

    /// Whether a max-speed replay should wait for this client: its queue is filling and it
    /// has read something within the last second (PROTOCOL "Trace files").
    package func holdsBackReplay(now: Int64) -> Bool {
        guard !isClosed, outbox.count >= Self.replayHoldMark || !isWritable else { return false }
        return now - lastProgress < 1_000_000_000
    }

    package func close() {
        guard !isClosed else { return }
        isClosed = true
        ask(.close(output))
    }

    /// Writes a last line (with its newline), then closes.
    package func sendAndClose(_ text: String) {
        guard !isClosed else { return }
        isClosed = true
        handTurnLinesToChannel()
        var buffer = allocator.buffer(capacity: max(256, text.utf8.count))
        buffer.writeString(text)
        ask(.writeAndClose(output, buffer))
    }
}
