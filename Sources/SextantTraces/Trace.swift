import SextantCore
import SextantProtocol

/// A recorded sequence of samples on its own time line: what a replay plays back and what
/// a recording writes. Every reader (Sextant JSONL, NMEA, GPX) produces one.
public struct Trace: Sendable, Equatable {
    /// The instant that offset 0 stands for.
    public var start: Timestamp
    /// The device profile the trace was recorded on, when it says.
    public var profile: DeviceProfile?
    /// Samples in time order (offsets never decrease).
    public var samples: [TraceSample]
    /// Lines a lenient reader skipped (an NMEA sentence with a bad checksum, say), counted
    /// by reason so that `trace info` can show them.
    public var skipped: [String: Int]
    /// Control actions at times of the trace (a JSONL trace's control lines), in order.
    public var controls: [TraceControl]
    /// Whether each fix carries its own time, which may be older than its place (a
    /// GnssLogger fix written late): the replay keeps that lag (`ReplayableTrace`).
    public var fixesKeepOwnTime = false

    public init(
        start: Timestamp, profile: DeviceProfile? = nil, samples: [TraceSample] = [], skipped: [String: Int] = [:], controls: [TraceControl] = []
    ) {
        self.start = start
        self.profile = profile
        self.samples = samples
        self.skipped = skipped
        self.controls = controls
    }

    /// The latest a sample may come after the start: 10⁹ s (31.7 years), in nanoseconds.
    /// A trace's duration plus a lap gap of a few seconds then stays near 10¹⁸ ns, a
    /// ninth of what an `Int64` holds, so that a looping replay's time line (start +
    /// laps × (duration + gap)) holds 7 laps of the longest trace started before 2026 and
    /// millions of laps of any trace of a day (the replay still checks its arithmetic).
    /// Every reader refuses (JSONL, GPX) or stops at (NMEA) a later sample.
    public static let maximumOffset: Int64 = 1_000_000_000 * 1_000_000_000

    /// Nanoseconds from start to the last sample.
    public var durationNanoseconds: Int64 { samples.last?.offset ?? 0 }

    public var duration: Double { Double(durationNanoseconds) / 1e9 }

    /// The sample with its absolute time.
    public func sample(at index: Int) -> Sample {
        let s = samples[index]
        return Sample(time: start.adding(nanoseconds: s.offset), value: s.value)
    }
}

/// One sample of a trace, `offset` nanoseconds after the trace's start.
public struct TraceSample: Sendable, Equatable {
    public var offset: Int64
    public var value: SampleValue

    public init(offset: Int64, value: SampleValue) {
        self.offset = offset
        self.value = value
    }

    /// Seconds since the trace's start, as the `t` field carries it.
    public var t: Double { Double(offset) / 1e9 }
}

/// A trace that cannot be loaded: which file, which physical line (1-based, the header is
/// 1, blank and comment lines count) and why. The wire form is error 1008.
public struct TraceError: Error, Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var line: Int
    public var reason: String

    public init(path: String, line: Int, reason: String) {
        self.path = path
        self.line = line
        self.reason = reason
    }

    public var description: String { "\(path):\(line): \(reason)" }
}
