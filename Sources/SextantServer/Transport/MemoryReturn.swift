import CMalloc
import NIOCore

/// Gives memory that closed connections held back to the system.
///
/// A client may hold up to a 64 KiB partial line, so a thousand idle clients take a
/// hundred MiB of buffers. glibc keeps freed blocks of that size in its arenas (its mmap
/// threshold rises to the largest block freed), so the resident set stayed at its peak
/// after the clients left: 3000 such clients took it from 35 to ~350 MiB for good. A
/// fixed threshold makes line buffers (16 KiB and up) mappings of their own, unmapped as
/// they are freed, and a trim after a wave of closes returns what smaller blocks left.
enum MemoryReturn {
    /// Blocks this size and larger are mapped on their own.
    static let mmapThreshold: Int32 = 16 * 1024

    /// Called once at start-up, before any connection.
    static func configure() {
        _ = mallopt(M_MMAP_THRESHOLD, mmapThreshold)
    }
}

/// Trims the heap once a burst of closed connections has ended: at most once a second,
/// and only after `closesPerTrim` closes, so that an ordinary client's coming and going
/// costs nothing.
final class HeapTrimmer: @unchecked Sendable {  // confined to the hub's event loop
    static let closesPerTrim = 64
    private let eventLoop: EventLoop
    private var closesSinceTrim = 0
    private var scheduled = false

    init(eventLoop: EventLoop) { self.eventLoop = eventLoop }

    func connectionClosed() {
        eventLoop.preconditionInEventLoop()
        closesSinceTrim += 1
        guard closesSinceTrim >= Self.closesPerTrim, !scheduled else { return }
        scheduled = true
        eventLoop.assumeIsolated().scheduleTask(in: .seconds(1)) { [self] in
            scheduled = false
            closesSinceTrim = 0
            malloc_trim(0)
        }
    }
}
