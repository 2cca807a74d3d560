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
final class HeapTrimmer: @unchecked Sendable {  // confined to the hub's event loop
    /// Closes that make a burst worth trimming after.
    static let closesPerTrim = 64
    /// Quiet after the last close before trimming: a burst of closes is over.
    static let quiet = TimeAmount.seconds(1)

    private let eventLoop: EventLoop
    private var closesSinceTrim = 0
    private var lastClose = NIODeadline.now()
    private var scheduled = false

    init(eventLoop: EventLoop) { self.eventLoop = eventLoop }

    func connectionClosed() {
        eventLoop.preconditionInEventLoop()
        closesSinceTrim += 1
        lastClose = .now()
        guard closesSinceTrim >= Self.closesPerTrim, !scheduled else { return }
        scheduled = true
        schedule(at: lastClose + Self.quiet)
    }

    private func schedule(at deadline: NIODeadline) {
        eventLoop.assumeIsolated().scheduleTask(deadline: deadline) { [self] in
            // Closes still coming: wait for the burst to end.
            if lastClose + Self.quiet > .now() {
                schedule(at: lastClose + Self.quiet)
                return
            }
            scheduled = false
            closesSinceTrim = 0
            malloc_trim(0)
        }
    }
}
