import SextantCore
import SextantProtocol
import SextantTraces

/// The factors of real time a replay takes, for the command line to check.
public enum ReplaySpeedLimits {
    public static let range = ReplaySpeed.slowest...ReplaySpeed.fastest
}

/// How fast a replay runs: a factor of real time, or as fast as the clients read.
enum ReplaySpeed: Equatable {
    case factor(Double)
    case max

    /// The slowest and fastest factors taken: slower than a thousandth of real time a
    /// second of trace lasts over a quarter of an hour; faster than a million, a day of
    /// trace lasts under a tenth of a second, which is `max` in all but name.
    static let slowest = 0.001
    static let fastest = 1_000_000.0

    /// A factor within the bounds, or nil.
    init?(factor: Double) {
        guard factor.isFinite, factor >= Self.slowest, factor <= Self.fastest else { return nil }
        self = .factor(factor)
    }

    var json: JSONValue {
        switch self {
        case .factor(let f): return .double(f)
        case .max: return "max"
        }
    }
}

/// Which samples of a trace are due when: the replay's virtual clock, as a value.
///
/// No I/O and no clock of its own: the driver (``ReplayPlayer``) says what time it is on
/// the monotonic clock, and the schedule answers which sample is next, its time in the
/// trace, and when it is due. Sample times come from the trace (`start + t`, plus whole
/// laps when looping), never from the wall, so every speed gives the same samples with the
/// same times; only the pacing differs. At a factor, sample i of lap k is due
/// `(k × lapPeriod + t_i) / factor` after the start; at `max` whenever the driver asks.
struct ReplaySchedule {
    let trace: Trace
    let speed: ReplaySpeed
    let loop: Bool

    private(set) var index = 0
    private(set) var lap: Int64 = 0
    /// Samples handed out so far, over every lap.
    private(set) var emitted = 0
    /// When the current lap started (or would have, at the pace asked), on the monotonic clock.
    private var lapStart: Int64
    private(set) var isFinished = false

    /// The next lap of a looping replay starts this long after the last sample.
    static let lapGap: Int64 = 1_000_000_000

    init(trace: Trace, speed: ReplaySpeed, loop: Bool, startedAt monotonic: Int64) {
        self.trace = trace
        self.speed = speed
        self.loop = loop
        self.lapStart = monotonic
        isFinished = trace.samples.isEmpty
    }

    /// Nanoseconds from one lap's start to the next's.
    var lapPeriod: Int64 { trace.durationNanoseconds.addingClamped(Self.lapGap) }

    /// The offset from the trace's start of the current position, within its lap.
    var position: Int64 { index > 0 ? trace.samples[index - 1].offset : 0 }

    /// When the next sample is due on the monotonic clock: nil when finished, and at
    /// `max` always "now" (the driver paces by its clients instead).
    func nextDue(now: Int64) -> Int64? {
        guard !isFinished else { return nil }
        guard case .factor(let factor) = speed else { return now }
        return lapStart.addingClamped(Self.scaled(trace.samples[index].offset, by: factor))
    }

    /// The next sample with its time in the trace, if it is due at `now`; the schedule
    /// moves past it. At the end of a lap a looping schedule starts the next lap, unless
    /// its times would leave what a `Timestamp` can hold (then it finishes).
    mutating func takeIfDue(now: Int64) -> Sample? {
        guard let due = nextDue(now: now), due <= now else { return nil }
        let sample = trace.samples[index]
        guard let time = timeOfCurrentLap(sample.offset) else {
            isFinished = true
            return nil
        }
        index += 1
        emitted += 1
        if index == trace.samples.count { endLap() }
        var value = sample.value
        if case .location(var fix) = value {
            fix.time = time
            value = .location(fix)
        }
        return Sample(time: time, value: value)
    }

    /// The trace's start plus `offset` plus the laps played, nil past year 2262.
    private func timeOfCurrentLap(_ offset: Int64) -> Timestamp? {
        let (laps, overflow) = lap.multipliedReportingOverflow(by: lapPeriod)
        guard !overflow else { return nil }
        let (sinceStart, overflow2) = laps.addingReportingOverflow(offset)
        guard !overflow2 else { return nil }
        let (nanoseconds, overflow3) = trace.start.nanoseconds.addingReportingOverflow(sinceStart)
        return overflow3 ? nil : Timestamp(nanoseconds: nanoseconds)
    }

    private mutating func endLap() {
        guard loop else {
            isFinished = true
            return
        }
        // Each lap is paced from its own start, so that offsets stay those of the trace
        // however many laps have gone.
        if case .factor(let factor) = speed { lapStart = lapStart.addingClamped(Self.scaled(lapPeriod, by: factor)) }
        index = 0
        lap += 1
    }

    /// `nanoseconds / factor` of trace time in monotonic nanoseconds. A slow factor on a
    /// long trace can put a sample centuries away: it is then as good as never, and the
    /// arithmetic must not trap getting there.
    static func scaled(_ nanoseconds: Int64, by factor: Double) -> Int64 {
        let scaled = (Double(nanoseconds) / factor).rounded()
        return scaled < Double(Int64.max / 4) ? Int64(scaled) : Int64.max / 4
    }
}

extension Int64 {
    /// `self + other`, held at the ends of the range instead of trapping.
    func addingClamped(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        guard overflow else { return sum }
        return other > 0 ? .max : .min
    }
}
