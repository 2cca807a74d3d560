import Foundation
import SextantCore
import SextantProtocol
import SextantTraces

/// Writes every sample the daemon receives, from any source, to a Sextant trace
/// (`record.start` / `record.stop`).
///
/// One clock for the whole recording (sextant-trace(5), RECORDING): the first sample's.
/// Sources keep clocks of their own (a replay's trace time, gpsd's fix time, the wall for
/// values set by hand), which a replay mixed with values set by hand would put years apart.
/// A sample is written at its own time while that time follows the recording's (never back,
/// never more than ``clockJumpLimit`` ahead of the session's time), so a recorded replay or
/// gpsd session replays with its fixes' times; a sample on another clock is written at the
/// session's time instead: the last sample's offset plus the daemon's monotonic time since
/// it arrived. The recording lasts what the session did, and its times never go back.
final class TraceRecorder {
    let path: String
    private let handle: FileHandle
    private let profile: DeviceProfile
    private var start: Timestamp?
    private var lastOffset: Int64 = 0
    /// The monotonic time the last sample written arrived.
    private var lastArrival: Int64 = 0
    private(set) var count = 0
    /// Samples left out because they fell too far from the recording's start.
    private(set) var skipped = 0
    private var buffer = ""

    /// The latest a sample may come after the recording's start (the trace format's bound
    /// on `t`), in nanoseconds.
    static let maximumOffset: Int64 = 1_000_000_000 * 1_000_000_000

    /// How far a sample's own time may depart from the recording's before it counts as on
    /// another clock: a day, beyond any gap between two samples of one trace played fast.
    static let clockJumpLimit: Int64 = 86_400 * 1_000_000_000

    /// Records into `fd`, open for writing (`openFile`); `path` names it in `record.stop`'s answer.
    init(path: String, fd: Int32, profile: DeviceProfile) {
        self.path = path
        self.profile = profile
        self.handle = FileHandle(fileDescriptor: fd, closeOnDealloc: true)
    }

    /// Opens `path` to record into, with the calling thread's rights (`PeerFileAccess`): a
    /// new file is created (0666 less the umask, owned by the thread's filesystem uid), an
    /// existing regular file is emptied and written in place, its owner and mode kept, and
    /// anything else is refused before a byte is written. Symbolic links are followed as the
    /// kernel lets that uid follow them.
    static func openFile(_ path: String) -> Result<Int32, RecordFileError> {
        // O_NONBLOCK: a FIFO without a reader is refused at once (ENXIO) instead of waited on.
        let fd = open(path, O_WRONLY | O_CREAT | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0o666)
        guard fd >= 0 else {
            let reason = errno == ENXIO ? "is not a regular file (a FIFO without a reader)" : TraceFile.describe(errno: errno)
            return .failure(RecordFileError(reason))
        }
        var info = stat()
        var reason: String?
        if fstat(fd, &info) != 0 {
            reason = TraceFile.describe(errno: errno)
        } else if let kind = TraceFile.kindIfNotRegular(info.st_mode) {
            reason = kind
        } else if ftruncate(fd, 0) != 0 {
            reason = TraceFile.describe(errno: errno)
        }
        guard let reason else { return .success(fd) }
        close(fd)
        return .failure(RecordFileError(reason))
    }

    /// Records `sample`, which reached the daemon at monotonic time `arrival` (ns).
    func record(_ sample: Sample, arrival: Int64) {
        if start == nil {
            start = sample.time
            lastArrival = arrival
            buffer += SextantTraceFormat.header(start: sample.time, profile: profile) + "\n"
        }
        let sessionTime = lastOffset + max(0, arrival - lastArrival)
        let (since, overflow) = sample.time.nanoseconds.subtractingReportingOverflow(start!.nanoseconds)
        let onAnotherClock = overflow || since > sessionTime + Self.clockJumpLimit || since < lastOffset - Self.clockJumpLimit
        let offset = onAnotherClock ? sessionTime : max(lastOffset, since)
        // Only a recording kept going for over 31 years leaves samples out (counted).
        guard offset <= Self.maximumOffset else {
            skipped += 1
            return
        }
        lastOffset = offset
        lastArrival = arrival
        buffer += SextantTraceFormat.line(offset: offset, value: sample.value) + "\n"
        count += 1
        if buffer.utf8.count >= 16_384 { flush() }
    }

    /// Writes what is buffered; at stop, a recording with no sample still gets its header.
    func finish() {
        if start == nil { buffer += SextantTraceFormat.header(start: SextantClock.system.wallTime(), profile: profile) + "\n" }
        flush()
        try? handle.synchronize()
        try? handle.close()
    }

    private func flush() {
        guard !buffer.isEmpty else { return }
        try? handle.write(contentsOf: Data(buffer.utf8))
        buffer = ""
    }
}

/// Why a recording's file could not be opened (its path is said by the caller).
struct RecordFileError: Error, Sendable, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
