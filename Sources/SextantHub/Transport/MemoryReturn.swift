import CMalloc
import NIOCore

/// Gives back to the system the memory that closed connections held.
///
/// A client may hold up to a 64 KiB partial line, so a thousand idle clients take a
/// hundred MiB of buffers. glibc keeps what is freed in its arenas, so the resident set
/// stayed at its peak after the clients left (3000 such clients: from 35 to ~350 MiB, for
/// good). Once a burst of closes has ended, `malloc_trim` hands the free pages back.
///
/// A fixed `M_MMAP_THRESHOLD` (each large buffer a mapping of its own) would return them
/// at once, but it makes every large copy fault in fresh pages: a max-speed replay beside
/// a stuck client became several times slower. Trimming after the fact costs nothing
/// while clients come and go one at a time.
package final class HeapTrimmer: Sendable {
    /// Closes that make a burst worth trimming after.
    static let closesPerTrim = 64
    /// Quiet after the last close before trimming: a burst of closes is over.
    static let quiet = TimeAmount.seconds(1)

    private struct Closes {
        var sinceTrim = 0
        var last = NIODeadline.now()
        var trimScheduled = false
    }

    private let closes: NIOLoopBoundBox<Closes>

    package init(eventLoop: EventLoop) { closes = .makeBoxSendingValue(Closes(), eventLoop: eventLoop) }

    /// Called on any loop: counted on the loop the trimmer was made for.
    func connectionClosed() {
        guard closes.eventLoop.inEventLoop else {
            closes.eventLoop.execute { self.connectionClosed() }
            return
        }
        let deadline = closes.withValue { closes -> NIODeadline? in
            closes.sinceTrim += 1
            closes.last = .now()
            guard closes.sinceTrim >= Self.closesPerTrim, !closes.trimScheduled else { return nil }
            closes.trimScheduled = true
            return closes.last + Self.quiet
        }
        if let deadline { schedule(at: deadline) }
    }

    private func schedule(at deadline: NIODeadline) {
        closes.eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            // Closes still coming: wait for the burst to end.
            let burstOver = closes.withValue { closes -> Bool in
                guard closes.last + Self.quiet <= .now() else { return false }
                closes.trimScheduled = false
                closes.sinceTrim = 0
                return true
            }
            if burstOver { malloc_trim(0) } else { schedule(at: closes.value.last + Self.quiet) }
        }
    }
}
