import SextantProtocol

/// The activity the device reports, as decided at one time: its flags, since when the
/// activity holds, and how sure (RULES A1–A5).
public struct ActivityState: Sendable, Equatable {
    public var flags: ActivityFlags
    public var start: Timestamp
    public var confidence: ActivityConfidence
    /// Android's 0–100 (not compared: it rises every second, the level does not).
    public var percent: Int

    public init(flags: ActivityFlags, start: Timestamp, confidence: ActivityConfidence, percent: Int) {
        self.flags = flags
        self.start = start
        self.confidence = confidence
        self.percent = percent
    }

    public static func == (a: ActivityState, b: ActivityState) -> Bool {
        a.flags == b.flags && a.start == b.start && a.confidence == b.confidence
    }
}

/// Decides the activity from true speeds (RULES A1–A5): the median of the last five
/// seconds (A2) put in a band (A1), entered once the band has held its entry delay (A3),
/// confidence from the time in it (A4), automotive held through stops (A5). A value: speeds
/// and their times in, a state out; no clock.
public struct ActivityClassifier: Sendable {
    private var window = SpeedWindow()
    /// The band of the median and since when it has held.
    private var candidate: (type: ActivityType, since: Timestamp)?
    /// The activity entered and since when.
    private var entered: (type: ActivityType, since: Timestamp)?
    public private(set) var state: ActivityState?

    public init() {}

    /// The state after a true speed at `time`, when it differs from the one before.
    public mutating func observe(speed: Double, at time: Timestamp) -> ActivityState? {
        let band = ActivityModel.band(speed: window.add(speed, at: time))
        if candidate?.type != band { candidate = (band, time) }
        guard let next = decide(at: time), next != state else { return nil }
        state = next
        return next
    }

    /// Forgets the speeds seen (a replay sought back, a source's gap): the activity entered
    /// holds, a new band needs its delay again.
    public mutating func restartWindow() {
        window = SpeedWindow()
        candidate = nil
    }

    private mutating func decide(at time: Timestamp) -> ActivityState? {
        guard let candidate else { return state }
        let held = time.nanoseconds - candidate.since.nanoseconds
        var flags: ActivityFlags
        if let entered, entered.type == .automotive, candidate.type != .automotive, held < ActivityModel.automotiveHold {
            // A5: automotive through a stop, stationary beside it once the stop has held.
            flags = ActivityFlags([.automotive])
            if candidate.type == .stationary && held >= ActivityModel.entryDelay(.stationary) { flags.insert(ActivityFlags([.stationary])) }
        } else if entered?.type != candidate.type, held >= ActivityModel.entryDelay(candidate.type) || entered?.type == .automotive {
            // A3: the band held its delay (or automotive's hold, which is longer).
            entered = candidate
            flags = ActivityFlags([candidate.type])
        } else if let entered {
            flags = ActivityFlags([entered.type])
        } else {
            return nil
        }
        guard let entered else { return nil }
        let (level, percent) = ActivityModel.confidence(dwell: time.nanoseconds - entered.since.nanoseconds)
        return ActivityState(flags: flags, start: entered.since, confidence: level, percent: percent)
    }
}

/// The true speeds of the last ``ActivityModel/medianWindow`` and their median (A2). The
/// median is taken in a scratch array kept between fixes: no allocation per fix.
struct SpeedWindow: Sendable {
    private var speeds: [(time: Timestamp, speed: Double)] = []
    private var scratch: [Double] = []

    /// Adds a speed and returns the median of the window ending at `time`.
    mutating func add(_ speed: Double, at time: Timestamp) -> Double {
        if let last = speeds.last, last.time > time { speeds.removeAll() }
        speeds.append((time, speed))
        let oldest = time.nanoseconds - ActivityModel.medianWindow
        let stale = speeds.prefix { $0.time.nanoseconds < oldest }.count
        let excess = max(0, speeds.count - stale - ActivityModel.medianCapacity)
        if stale + excess > 0 { speeds.removeFirst(stale + excess) }
        scratch.removeAll(keepingCapacity: true)
        for entry in speeds { scratch.append(entry.speed) }
        return Self.median(&scratch)
    }

    static func median(_ values: inout [Double]) -> Double {
        values.sort()
        let middle = values.count / 2
        return values.count % 2 == 1 ? values[middle] : (values[middle - 1] + values[middle]) / 2
    }
}
