import SextantCore
import SextantProtocol

/// `NMEATimeline`'s samples, handed out one at a time as the log's events come, for a log
/// read as a stream (`NMEAReader.stream`). The same rules give the same samples, in the
/// same order (`NMEAStreamedSummaryTests` checks it on every log of gpsd's suite).
///
/// What it keeps: the events before the log's first date (an RMC with a fix, a ZDA),
/// because they are dated backwards from it; from that date on, nothing but the last
/// instant and the last fix. A log with no date at all is held until its end (then the
/// `# Date:` comment, which may come anywhere, dates it): about 200 bytes an epoch.
struct NMEAStreamedTimeline {
    private var pending: [NMEAEvent] = []
    /// The instant the next epoch is dated nearest to, once the log's first date is known.
    private var reference: Int64?
    private var emitter = Emitter()

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
            return
        }
        pending.append(event)
        if case .date = event { flushPending(commentDate: nil, sink) }
    }

    /// The end of the log: samples still held go to `sink`; answers the instant offset 0
    /// stands for.
    mutating func finish(commentDate: NMEADate?, _ sink: (TraceSample) -> Void) -> Timestamp {
        if reference == nil { flushPending(commentDate: commentDate, sink) }
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
        }

        /// Never a fix: the trace only says so.
        mutating func finish(_ sink: (TraceSample) -> Void) -> Timestamp {
            if let start { return Timestamp(nanoseconds: start) }
            if sawEpoch { sink(TraceSample(offset: 0, value: .gps(.noFix))) }
            return Timestamp(nanoseconds: firstInstant ?? (NMEATimeline.fallbackDate.daysSinceEpoch * NMEATimeline.day))
        }
    }
}
