import Foundation
import SextantCore
import SextantProtocol
import SextantTraces

/// Writes every sample the daemon receives, from any source, to a Sextant trace
/// (`record.start` / `record.stop`).
///
/// One clock for the whole recording (sextant-trace(5), RECORDING): sources keep clocks of
/// their own (a replay's trace time, gpsd's fix time, the wall for values set by hand),
/// which a replay mixed with values set by hand would put years apart. So each sample is
/// written at an offset reached by adding up the time between samples: on a source's own
/// clock from one of its samples to its next (a replay's trace time within one run, so that
/// a recorded replay keeps its times at any speed; gpsd's fix times; the IIO source's), and
/// on the daemon's monotonic clock of their arrival otherwise (values set by hand, whose
/// wall clock may be changed, and a source's first sample). The trace starts at the first
/// sample's own time; its times never go back.
///
/// The control actions that change state (`ControlActions.recorded`) are written too, as
/// control lines, each after the samples that came before it and at the last one's time, so
/// that a replay plays them between the same two samples.
final class TraceRecorder {
    let path: String
    private let handle: FileHandle
    private let profile: DeviceProfile
    private var start: Timestamp?
    /// The previous sample's offset and monotonic arrival.
    private var lastOffset: Int64 = 0
    private var lastArrival: Int64 = 0
    /// Each clock's latest sample: its own time and the offset it was written at.
    private var lastOnClock: [SampleClock: (time: Timestamp, offset: Int64)] = [:]
    private(set) var count = 0
    /// Samples left out because they fell too far from the recording's start.
    private(set) var skipped = 0
    private var buffer = ""
    /// Control lines seen before the first sample: they open the trace, at t = 0.
    private var controlsBeforeStart: [(method: String, params: JSONValue)] = []

    /// The latest a sample may come after the recording's start (the trace format's bound
    /// on `t`), in nanoseconds.
    static let maximumOffset: Int64 = 1_000_000_000 * 1_000_000_000

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

    /// Records `sample`, which reached the daemon at monotonic time `arrival` (ns) stamped
    /// by `clock` (nil: a clock not to be trusted from one sample to the next).
    func record(_ sample: Sample, arrival: Int64, clock: SampleClock?) {
        let offset: Int64
        if start == nil {
            begin(at: sample.time)
            offset = 0
        } else if let clock, let last = lastOnClock[clock], let delta = sample.time.nanoseconds(since: last.time), delta >= 0 {
            offset = max(lastOffset, Self.adding(last.offset, delta))
        } else {
            offset = max(lastOffset, Self.adding(lastOffset, arrival - lastArrival))
        }
        // Only a recording kept going for over 31 years leaves samples out (counted).
        guard offset <= Self.maximumOffset else {
            skipped += 1
            return
        }
        lastOffset = offset
        lastArrival = arrival
        if let clock { lastOnClock[clock] = (sample.time, offset) }
        buffer += SextantTraceFormat.line(offset: offset, value: sample.value) + "\n"
        count += 1
        if buffer.utf8.count >= 16_384 { flush() }
    }

    /// `offset + delta`, or past ``maximumOffset`` where the sum would overflow.
    private static func adding(_ offset: Int64, _ delta: Int64) -> Int64 {
        let (sum, overflow) = offset.addingReportingOverflow(delta)
        return overflow ? maximumOffset + 1 : sum
    }

    /// A control action that changed state, written after the samples recorded so far.
    func recordControl(method: String, params: JSONValue) {
        guard start != nil else { return controlsBeforeStart.append((method, params)) }
        buffer += SextantTraceFormat.controlLine(offset: lastOffset, method: method, params: params) + "\n"
        if buffer.utf8.count >= 16_384 { flush() }
    }

    /// The header, then the control actions that came before any sample.
    private func begin(at time: Timestamp) {
        start = time
        buffer += SextantTraceFormat.header(start: time, profile: profile) + "\n"
        for (method, params) in controlsBeforeStart { buffer += SextantTraceFormat.controlLine(offset: 0, method: method, params: params) + "\n" }
        controlsBeforeStart = []
    }

    /// Writes what is buffered; at stop, a recording with no sample still gets its header.
    func finish() {
        if start == nil { begin(at: SextantClock.system.wallTime()) }
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

/// A clock that stamps samples, read from one of its samples to its next: a source's, and
/// for a replay one run of it (a new replay's dates say nothing of time passing).
struct SampleClock: Hashable {
    let source: SourceName
    let run: Int
}

/// Why a recording's file could not be opened (its path is said by the caller).
struct RecordFileError: Error, Sendable, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
