import SextantCore
import SextantProtocol

/// Puts a GnssLogger file's samples in time order as they are read, holding only the last
/// `window` of them. The app writes each row when Android hands it over: a fix comes a
/// little after the instant it is stamped with (the GPS provider's whole seconds after
/// the fused provider's fix of 150 ms later), and sensor rows come in batches. So a
/// sample is let go once a row `window` later has been read; a row older than a sample
/// already let go is refused (with its line) rather than played out of order.
struct GnssLoggerOrdering {
    /// How far back of the newest row a row may be stamped: 10 s.
    static let window: Int64 = 10_000_000_000

    private struct Held {
        var time: Timestamp
        var line: Int
        var value: SampleValue
    }

    private var held: [Held] = []
    private var head = 0
    private var newest = Int64.min
    private var released: Timestamp?
    private(set) var start: Timestamp?

    /// Takes a row's sample; hands `sink` those now `window` older than the newest.
    mutating func add(
        _ value: SampleValue, time: Timestamp, line: Int, path: String, _ sink: (TraceSample) throws(TraceError) -> Void
    ) throws(TraceError) {
        if let released, time < released {
            throw TraceError(
                path: path, line: line,
                reason: "a row stamped \(time.rfc3339), more than \(Self.window / 1_000_000_000) s before a row above it (\(released.rfc3339)): rows must come in time order, give or take \(Self.window / 1_000_000_000) s")
        }
        // Insert after every held sample of the same time or earlier: rows come nearly in
        // order, so this looks at one or two from the end.
        var k = held.count
        while k > head, held[k - 1].time > time { k -= 1 }
        held.insert(Held(time: time, line: line, value: value), at: k)
        newest = max(newest, time.nanoseconds)
        while head < held.count, held[head].time.nanoseconds <= newest &- Self.window {
            try release(path: path, sink)
        }
        if head > 4_096, head * 2 > held.count {
            held.removeFirst(head)
            head = 0
        }
    }

    /// Hands `sink` every sample still held.
    mutating func finish(path: String, _ sink: (TraceSample) throws(TraceError) -> Void) throws(TraceError) {
        while head < held.count { try release(path: path, sink) }
        held.removeAll()
        head = 0
    }

    private mutating func release(path: String, _ sink: (TraceSample) throws(TraceError) -> Void) throws(TraceError) {
        let sample = held[head]
        head += 1
        let start = self.start ?? sample.time
        self.start = start
        released = sample.time
        let offset = sample.time.nanoseconds - start.nanoseconds
        guard offset <= Trace.maximumOffset else {
            throw TraceError(path: path, line: sample.line, reason: "a row more than \(Trace.maximumOffset / 1_000_000_000) s after the first")
        }
        try sink(TraceSample(offset: offset, value: sample.value))
    }
}
