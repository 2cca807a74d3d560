import SextantCore
import SextantProtocol

/// Puts a GnssLogger file's samples in time order as they are read, holding only the last
/// `window` of them. The app writes each row when Android hands it over: a fix comes a
/// little after the instant it is stamped with (the GPS provider's whole seconds after
/// the fused provider's fix of 150 ms later), and sensor rows come in batches. So a
/// sample is let go once a row `window` later has been read.
///
/// A row stamped before a sample already let go was handed over late: Android delivers a
/// network or fused fix with its own, older time, and an excerpt cut from a longer log can
/// start mid-batch. Such a row plays where it was written, at the newest time read so far,
/// keeping its value; a fix keeps its own time (`LocationFix.time`), so the app hears it
/// when the phone delivered it, stamped as the phone stamped it. ``late`` counts them.
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
    /// The rows played where they were written, later than their own time.
    private(set) var late = GnssLoggerLateRows()

    /// Takes a row's sample; hands `sink` those now `window` older than the newest.
    mutating func add(
        _ value: SampleValue, time: Timestamp, line: Int, path: String, _ sink: (TraceSample) throws(TraceError) -> Void
    ) throws(TraceError) {
        var time = time
        if let released, time < released {
            late.add(value, by: newest - time.nanoseconds)
            time = Timestamp(nanoseconds: newest)
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

/// What a GnssLogger file delivered late, as `trace info` tells it.
struct GnssLoggerLateRows: Equatable {
    var fixes = 0
    var others = 0
    /// The longest a row came after its own time, in nanoseconds.
    var longest: Int64 = 0

    mutating func add(_ value: SampleValue, by lateness: Int64) {
        if case .location = value { fixes += 1 } else { others += 1 }
        longest = max(longest, lateness)
    }

    /// The counts as `skipped` entries (what `trace info` lists beside the rows it skips).
    var counts: [String: Int] {
        let tenths = (longest + 50_000_000) / 100_000_000
        let most = "up to \(tenths / 10).\(tenths % 10) s late"
        var counts: [String: Int] = [:]
        if fixes > 0 { counts["Fix rows written late (\(most)): played where written, each with its own time"] = fixes }
        if others > 0 { counts["rows written late (\(most)): played where written"] = others }
        return counts
    }
}
