import SextantCore
import SextantProtocol
import SextantTraces

/// Which samples of a trace are due when: the replay's virtual clock, as a value.
///
/// No I/O and no clock of its own: the driver (``ReplayPlayer``) says what time it is on
/// the monotonic clock, and the schedule answers which sample is next, its time in the
/// trace, and when it is due. Sample times come from the trace (`start + t`, plus whole
/// laps when looping), never from the wall, so every speed gives the same samples with the
/// same times; only the pacing differs. At a factor, sample i of lap k is due
/// `(k × lapPeriod + t_i) / factor` after the start, plus the time spent paused; at `max`
/// whenever the driver asks.
///
/// A schedule can pause (by hand, or on its own when the virtual clock reaches `until`),
/// step through samples while paused, seek, and resume where the virtual clock stood:
/// the samples and their times are those of an uninterrupted replay (RULES O5).
///
/// Control actions (a trace's control lines, a scenario's) come in their place among the
/// samples, each at its time, as items of their own: the driver plays them.
struct ReplaySchedule {
    let trace: any ReplayableTrace
    /// The control actions, in the order they play (`TraceControl.merged`).
    let controls: [TraceControl]
    let speed: ReplaySpeed
    let loop: Bool
    /// Pause once the virtual clock (nanoseconds since the replay's start, laps included)
    /// reaches this; samples at exactly this time are played first.
    private(set) var until: Int64?

    private(set) var index = 0
    /// The next control action to play, in `controls`.
    private(set) var controlIndex = 0
    private(set) var lap: Int64 = 0
    /// Samples handed out so far, over every lap.
    private(set) var emitted = 0
    /// When the current lap started (or would have, at the pace asked), on the monotonic clock.
    private var lapStart: Int64
    /// While paused: where the virtual clock stands within the lap.
    private(set) var pausedAt: Int64?
    private(set) var isFinished = false
    /// The sample at `index` (nil at the end of a lap), read once when `index` moves: a
    /// streamed trace reads its file a block at a time.
    private var upcoming: TraceSample?
    /// The offset of the last sample handed out in this lap.
    private var lastOffset: Int64 = 0
    /// Why the schedule finished early: its streamed file changed while it played.
    private(set) var failure: TraceError?

    /// The next lap of a looping replay starts this long after the last sample.
    static let lapGap: Int64 = 1_000_000_000

    init(
        trace: any ReplayableTrace, controls: [TraceControl] = [], speed: ReplaySpeed, loop: Bool, until: Int64? = nil, startedAt monotonic: Int64
    ) {
        self.trace = trace
        self.controls = controls
        self.speed = speed
        self.loop = loop
        self.until = until
        self.lapStart = monotonic
        isFinished = trace.sampleCount == 0 && controls.isEmpty
        readUpcoming()
    }

    /// What the schedule hands out: a sample, or a control action with its time.
    enum Item {
        case sample(Sample)
        case control(TraceControl, time: Timestamp)
    }

    var isPaused: Bool { pausedAt != nil }

    /// Nanoseconds from the start to the last sample or action, the later.
    var duration: Int64 { max(trace.durationNanoseconds, controls.last?.offset ?? 0) }

    /// Nanoseconds from one lap's start to the next's.
    var lapPeriod: Int64 { duration.addingClamped(Self.lapGap) }

    /// The offset from the trace's start of the current position, within its lap.
    var position: Int64 { max(0, pausedAt ?? (index > 0 || controlIndex > 0 ? lastOffset : 0)) }

    /// The control action that comes next, before the next sample, if any.
    private var nextControl: TraceControl? {
        guard controlIndex < controls.count, controls[controlIndex].beforeSample <= index else { return nil }
        return controls[controlIndex]
    }

    /// The offset of what comes next, action or sample; nil at the end of a lap.
    private var upcomingOffset: Int64? { nextControl?.offset ?? upcoming?.offset }

    private var atLapEnd: Bool { index == trace.sampleCount && controlIndex == controls.count }

    /// When the next sample is due on the monotonic clock: nil when finished or paused,
    /// and at `max` always "now" (the driver paces by its clients instead).
    func nextDue(now: Int64) -> Int64? {
        guard !isFinished, !isPaused else { return nil }
        guard case .factor(let factor) = speed, var offset = upcomingOffset else { return now }
        // With `until` before the next sample, the pause itself is what falls due.
        if let until, nextVirtualTime > until { offset = until.subtractingClamped(lap.multipliedClamped(by: lapPeriod)) }
        return lapStart.addingClamped(Self.scaled(offset, by: factor))
    }

    /// The next sample with its time in the trace, if it is due at `now`; the schedule
    /// moves past it. At the end of a lap a looping schedule starts the next lap, unless
    /// its times would leave what a `Timestamp` can hold (then it finishes). A sample past
    /// `until` pauses the schedule instead.
    mutating func takeIfDue(now: Int64) -> Item? {
        guard let due = nextDue(now: now), due <= now else { return nil }
        if let until, nextVirtualTime > until {
            pausedAt = until.subtractingClamped(lap.multipliedClamped(by: lapPeriod))
            self.until = nil
            return nil
        }
        return take()
    }

    // MARK: - Pause, step, seek

    /// Stops the virtual clock where it stands at `now`.
    mutating func pause(now: Int64) {
        guard !isPaused, !isFinished else { return }
        switch speed {
        case .max: pausedAt = position
        case .factor(let factor):
            let elapsed = Double(now.subtractingClamped(lapStart)) * factor
            let clock = elapsed < Double(Int64.max / 4) ? Int64(elapsed.rounded()) : Int64.max / 4
            // Never before the last sample played, never past the next one due.
            let next = upcomingOffset ?? duration
            pausedAt = min(max(clock, position), next)
        }
    }

    /// Starts the virtual clock again from where it stood; with `until` (nanoseconds into
    /// the current lap, not before `position`), it pauses again there, as at a start's `until`.
    mutating func resume(now: Int64, until: Int64? = nil) {
        guard let at = pausedAt else { return }
        if case .factor(let factor) = speed { lapStart = now.subtractingClamped(Self.scaled(at, by: factor)) }
        pausedAt = nil
        if let until { self.until = lap.multipliedClamped(by: lapPeriod).addingClamped(until) }
    }

    /// While paused: the next sample or action at once, whenever it is due; the virtual
    /// clock moves to it.
    mutating func stepOne() -> Item? {
        guard isPaused, !isFinished, let item = take() else { return nil }
        pausedAt = index > 0 || controlIndex > 0 ? lastOffset : 0
        return item
    }

    /// Moves the virtual clock to `offset` within the current lap: the next sample is the
    /// first at or after it; the samples and actions in between are not played.
    mutating func seek(to offset: Int64, now: Int64) {
        guard !isFinished else { return }
        let target = min(max(offset, 0), duration)
        do {
            index = try trace.firstIndex(atOrAfter: target)
        } catch {
            return fail(error)
        }
        let sample = index
        controlIndex = controls.partitioningIndex { $0.beforeSample > sample || ($0.beforeSample == sample && $0.offset >= target) }
        readUpcoming()
        if isPaused {
            pausedAt = target
        } else if case .factor(let factor) = speed {
            lapStart = now.subtractingClamped(Self.scaled(target, by: factor))
        }
        if atLapEnd { endLap() }
    }

    // MARK: - Taking samples

    private mutating func take() -> Item? {
        if let control = nextControl {
            guard let time = timeOfCurrentLap(control.offset) else {
                isFinished = true
                return nil
            }
            controlIndex += 1
            lastOffset = control.offset
            if atLapEnd { endLap() }
            return .control(control, time: time)
        }
        guard let sample = upcoming, let time = timeOfCurrentLap(sample.offset) else {
            isFinished = true
            return nil
        }
        index += 1
        emitted += 1
        lastOffset = sample.offset
        readUpcoming()
        if atLapEnd { endLap() }
        var value = sample.value
        if case .location(var fix) = value {
            // A fix delivered late (a GnssLogger row written after later ones) is older
            // than its place in the trace: it keeps that lag, as the phone delivered it.
            let lag = trace.fixesKeepOwnTime ? max(0, trace.start.nanoseconds &+ sample.offset &- fix.time.nanoseconds) : 0
            fix.time = Timestamp(nanoseconds: time.nanoseconds &- lag)
            value = .location(fix)
        }
        return .sample(Sample(time: time, value: value))
    }

    /// Nanoseconds of virtual time from the replay's start to the next sample.
    private var nextVirtualTime: Int64 {
        lap.multipliedClamped(by: lapPeriod).addingClamped(upcomingOffset ?? duration)
    }

    /// Reads the sample at `index` into `upcoming`; a streamed file that no longer reads
    /// as it did finishes the schedule.
    private mutating func readUpcoming() {
        guard index < trace.sampleCount, !isFinished else {
            upcoming = nil
            return
        }
        do {
            upcoming = try trace.traceSample(at: index)
        } catch {
            fail(error)
        }
    }

    private mutating func fail(_ error: TraceError) {
        failure = error
        isFinished = true
        upcoming = nil
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
        if let at = pausedAt { pausedAt = at - lapPeriod }
        index = 0
        controlIndex = 0
        lap += 1
        readUpcoming()
    }

    /// `nanoseconds / factor` of trace time in monotonic nanoseconds. A slow factor on a
    /// long trace can put a sample centuries away: it is then as good as never, and the
    /// arithmetic must not trap getting there.
    static func scaled(_ nanoseconds: Int64, by factor: Double) -> Int64 {
        let scaled = (Double(nanoseconds) / factor).rounded()
        return scaled < Double(Int64.max / 4) ? (scaled > -Double(Int64.max / 4) ? Int64(scaled) : -Int64.max / 4) : Int64.max / 4
    }
}

extension Int64 {
    /// `self + other`, held at the ends of the range instead of trapping.
    func addingClamped(_ other: Int64) -> Int64 {
        let (sum, overflow) = addingReportingOverflow(other)
        guard overflow else { return sum }
        return other > 0 ? .max : .min
    }

    /// `self - other`, held at the ends of the range instead of trapping.
    func subtractingClamped(_ other: Int64) -> Int64 {
        let (difference, overflow) = subtractingReportingOverflow(other)
        guard overflow else { return difference }
        return other < 0 ? .max : .min
    }

    /// `self × other`, held at the ends of the range instead of trapping.
    func multipliedClamped(by other: Int64) -> Int64 {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        guard overflow else { return product }
        return (self < 0) == (other < 0) ? .max : .min
    }
}

extension Array {
    /// The index of the first element that satisfies `belongsAfter`, which must hold for
    /// every element after it (a binary search).
    func partitioningIndex(where belongsAfter: (Element) -> Bool) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if belongsAfter(self[middle]) { high = middle } else { low = middle + 1 }
        }
        return low
    }
}
