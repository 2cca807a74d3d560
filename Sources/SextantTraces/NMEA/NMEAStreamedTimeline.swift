import SextantCore
import SextantProtocol

/// `NMEATimeline`'s samples, handed out one at a time as the log's events come, for a log
/// read as a stream (`NMEAReader.stream`). The same rules give the same samples, in the
/// same order (`NMEAStreamedSummaryTests` checks it on every log of gpsd's suite).
///
/// What it keeps: the events before the log's first date (an RMC with a fix, a ZDA),
/// because they are dated backwards from it, up to `pendingLimit` of them; from that date
/// on, nothing but the last instant and the last fix. Past the limit (a log with no date,
/// or a late one), the first pass keeps only the times of day of the epochs before the
/// first date (8 bytes an epoch) and the log is read a second time (`secondPass`), with
/// their instants worked out.
struct NMEAStreamedTimeline {
    /// What the first pass learnt when too many epochs came before the first date.
    struct Prefix {
        /// The time of day of every epoch before the first date (`untimed` for none);
        /// their instants once `resolve` has run.
        var times: [Int64] = []
        var dateInstant: Int64?
        static let untimed = Int64.min

        /// Dated backwards from the first date, as `NMEATimeline.resolveInstants` does.
        mutating func resolve() {
            guard var reference = dateInstant else { return }
            for i in times.indices.reversed() where times[i] != Self.untimed {
                reference = NMEATimeline.nearest(times[i], to: reference)
                times[i] = reference
            }
        }
    }

    private let pendingLimit: Int
    private var pending: [NMEAEvent] = []
    /// The instant the next epoch is dated nearest to, once the log's first date is known.
    private var reference: Int64?
    private var emitter = Emitter()
    /// First pass, past the limit: what is being learnt.
    private var learning: Prefix?
    /// Second pass: the instants of the epochs before the first date (`prefixUsed` of them
    /// used so far), or the day of a log without a date.
    private var prefix: [Int64]?
    private var prefixUsed = 0
    private var undatedDay: Int64?

    init(pendingLimit: Int = 4_096) {
        self.pendingLimit = pendingLimit
    }

    /// Whether it holds no event back (none waiting for the first date, no first pass
    /// past the limit): a copy of it is then small, a checkpoint a replay can go on from
    /// (`StreamedNMEATrace`).
    var holdsNoEvents: Bool { pending.isEmpty && learning == nil }

    /// The timeline of the second pass over a log whose first pass overflowed.
    func secondPass(commentDate: NMEADate?) -> NMEAStreamedTimeline {
        var next = NMEAStreamedTimeline(pendingLimit: pendingLimit)
        guard var learnt = learning else { return next }
        if learnt.dateInstant != nil {
            learnt.resolve()
            next.prefix = learnt.times
        } else {
            next.prefix = []
            next.undatedDay = (commentDate ?? NMEATimeline.fallbackDate).daysSinceEpoch * NMEATimeline.day
        }
        return next
    }

    /// Takes the next event of the log; `sink` gets the samples it completes.
    mutating func add(_ event: NMEAEvent, _ sink: (TraceSample) -> Void) {
        if var reference {
            switch event {
            case .date(let date, let time):
                reference = date.daysSinceEpoch * NMEATimeline.day + time
            case .epoch(let e):
                var instant: Int64?
                if let time = e.time {
                    reference = NMEATimeline.nearest(time, to: reference)
                    instant = reference
                }
                emitter.add(e, instant: instant, sink)
            }
            self.reference = reference
        } else if let prefix {
            switch event {
            case .date(let date, let time):
                reference = date.daysSinceEpoch * NMEATimeline.day + time
            case .epoch(let e):
                var instant: Int64?
                if prefixUsed < prefix.count {
                    instant = prefix[prefixUsed] == Prefix.untimed ? nil : prefix[prefixUsed]
                    prefixUsed += 1
                } else if let day = undatedDay, let time = e.time {
                    // A log without a date: its first timed epoch sets the day going.
                    reference = day + time
                    instant = reference
                }
                emitter.add(e, instant: instant, sink)
            }
        } else if learning != nil {
            guard learning?.dateInstant == nil else { return }
            switch event {
            case .date(let date, let time): learning?.dateInstant = date.daysSinceEpoch * NMEATimeline.day + time
            case .epoch(let e): learning?.times.append(e.time ?? Prefix.untimed)
            }
        } else {
            pending.append(event)
            if case .date = event {
                flushPending(commentDate: nil, sink)
            } else if pending.count > pendingLimit {
                learning = Prefix(times: pending.map { if case .epoch(let e) = $0 { e.time ?? Prefix.untimed } else { Prefix.untimed } })
                pending = []
            }
        }
    }

    /// The end of the log: samples still held go to `sink`; answers the instant offset 0
    /// stands for, or nil when the log must be read again (`secondPass`).
    mutating func finish(commentDate: NMEADate?, _ sink: (TraceSample) -> Void) -> Timestamp? {
        if learning != nil { return nil }
        if reference == nil && prefix == nil { flushPending(commentDate: commentDate, sink) }
        return emitter.finish(sink)
    }

    /// Dates the held events as `NMEATimeline.resolveInstants` does, hands them on and
    /// goes on from the last of them.
    private mutating func flushPending(commentDate: NMEADate?, _ sink: (TraceSample) -> Void) {
        let instants = NMEATimeline.resolveInstants(pending, commentDate: commentDate)
        var last: Int64?
        for (event, instant) in zip(pending, instants) {
            switch event {
            case .date(let date, let time): last = date.daysSinceEpoch * NMEATimeline.day + time
            case .epoch(let e):
                if let instant { last = instant }
                emitter.add(e, instant: instant, sink)
            }
        }
        pending = []
        reference = last
    }

    /// The loop of `NMEATimeline.samples`, one epoch at a time.
    private struct Emitter {
        var sawEpoch = false
        var firstInstant: Int64?
        var start: Int64?
        var limit: Int64 = 0
        var lastOffset: Int64 = 0
        var lastFix: (instant: Int64, offset: Int64)?
        var lastWasLocation = false

        mutating func add(_ epoch: NMEAEpoch, instant: Int64?, _ sink: (TraceSample) -> Void) {
            defer { sawEpoch = true }
            if firstInstant == nil { firstInstant = instant }
            guard let start else {
                guard epoch.isFix, let instant else { return }
                // The first fix: offset 0. A receiver that reported before it had no fix.
                start = instant
                limit = min(Trace.maximumOffset, Int64.max - instant)
                if sawEpoch { sink(TraceSample(offset: 0, value: .gps(.noFix))) }
                emitFix(epoch, instant: instant, offset: 0, start: instant, sink)
                return
            }
            if epoch.isFix, let instant {
                var offset: Int64 = 0
                if let lastFix {
                    let step = instant - lastFix.instant
                    let advance = (0...NMEATimeline.maximumGap).contains(step) ? step : NMEATimeline.segmentGap
                    offset = max(lastOffset, advance > limit - lastFix.offset ? limit : lastFix.offset + advance)
                }
                emitFix(epoch, instant: instant, offset: offset, start: start, sink)
            } else if !epoch.isFix, let fix = lastFix, lastWasLocation {
                let step = instant.map { $0 - fix.instant } ?? 0
                let offset = (0...NMEATimeline.maximumGap).contains(step) && step <= limit - fix.offset ? fix.offset + step : lastOffset
                lastOffset = max(lastOffset, offset)
                lastWasLocation = false
                sink(TraceSample(offset: lastOffset, value: .gps(.noFix)))
            }
        }

        private mutating func emitFix(_ epoch: NMEAEpoch, instant: Int64, offset: Int64, start: Int64, _ sink: (TraceSample) -> Void) {
            lastOffset = offset
            lastFix = (instant, offset)
            lastWasLocation = true
            sink(TraceSample(offset: offset, value: .location(NMEATimeline.fix(epoch, time: Timestamp(nanoseconds: start + offset)))))
            if let heading = NMEATimeline.heading(epoch) { sink(TraceSample(offset: offset, value: .compass(heading))) }
            if let sky = epoch.satellites.sky { sink(TraceSample(offset: offset, value: .sky(sky))) }
        }

        /// Never a fix: the trace only says so.
        mutating func finish(_ sink: (TraceSample) -> Void) -> Timestamp {
            if let start { return Timestamp(nanoseconds: start) }
            if sawEpoch { sink(TraceSample(offset: 0, value: .gps(.noFix))) }
            return Timestamp(nanoseconds: firstInstant ?? (NMEATimeline.fallbackDate.daysSinceEpoch * NMEATimeline.day))
        }
    }
}
