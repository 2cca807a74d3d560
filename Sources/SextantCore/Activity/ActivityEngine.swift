import SextantProtocol

/// Whose word the activity reported is (RULES A9): held by hand over recorded over derived.
public enum ActivitySource: String, Sendable, CaseIterable {
    case derived, recorded, hand
}

/// The device's activity and steps (RULES A1–A9): fixes, recorded activities and the hand's
/// in, what changed out. A value without a clock: every time comes from what it is given.
public struct ActivityEngine: Sendable {
    /// The activity reported and whose word it is.
    public struct Report: Sendable, Equatable {
        public var state: ActivityState
        public var source: ActivitySource
    }

    /// An activity entered or left (A6), and when.
    public struct Transition: Sendable, Equatable {
        public var activity: ActivityType
        public var kind: ActivityTransitionKind
        public var time: Timestamp
    }

    /// What one input changed: the new report (nil when it stayed), its transitions, and
    /// whether a step was banked.
    public struct Change: Sendable, Equatable {
        public var report: Report?
        public var transitions: [Transition] = []
        public var stepped = false
    }

    private var stretches = FixStretches()
    private var classifier = ActivityClassifier()
    public private(set) var steps = StepCounter()
    public private(set) var history = ActivityHistory()
    /// Once a source recorded an activity, its word replaces the derived one (A9).
    private var recorded: ActivityState?
    private var held: ActivityState?
    public private(set) var report: Report?

    public init() {}

    /// Fixes went unjudged (nobody listened): the next fix begins a new run, without a
    /// stretch across the gap; the activity, the totals and the history hold.
    public mutating func resume() {
        stretches = FixStretches()
        classifier.restartWindow()
    }

    /// A true fix: its stretch decides the derived activity (A1–A5) and banks steps (A7).
    public mutating func fix(_ fix: LocationFix) -> Change {
        guard let stretch = stretches.add(fix) else {
            classifier.restartWindow()
            return Change()
        }
        var change = Change()
        change.stepped = steps.add(metres: stretch.metres, speed: stretch.metres / stretch.seconds)
        if change.stepped { history.stepped(steps, at: fix.time) }
        if classifier.observe(speed: stretch.speed, at: fix.time) != nil { reconsider(at: fix.time, into: &change) }
        return change
    }

    /// An activity a trace recorded (A9).
    public mutating func recorded(_ state: ActivityState, at time: Timestamp) -> Change {
        recorded = state
        var change = Change()
        reconsider(at: time, into: &change)
        return change
    }

    /// `activity.set`: an activity held by hand from `time`, or nil to give it back (A9).
    public mutating func hold(_ type: ActivityType?, at time: Timestamp) -> Change {
        held = type.map { ActivityState(flags: ActivityFlags([$0]), start: time, confidence: .high, percent: 100) }
        var change = Change()
        reconsider(at: time, into: &change)
        return change
    }

    /// The report by A9's order, and its transitions when it changed.
    private mutating func reconsider(at time: Timestamp, into change: inout Change) {
        let next: Report? =
            if let held { Report(state: held, source: .hand) }
            else if let recorded { Report(state: recorded, source: .recorded) }
            else { classifier.state.map { Report(state: $0, source: .derived) } }
        guard let next, next != report else { return }
        change.transitions = Self.transitions(from: report?.state, to: next.state, at: time)
        report = next
        change.report = next
        history.add(ActivityHistory.Entry(state: next.state, source: next.source), at: time)
    }

    /// A6: each flag left exits and each flag set enters, at the new activity's start when
    /// it began anew (in the past: it was decided after its delay), else now (a stop beside
    /// automotive).
    static func transitions(from old: ActivityState?, to new: ActivityState, at time: Timestamp) -> [Transition] {
        let before = old?.flags ?? []
        let when = old?.start == new.start ? time : new.start
        let exits = before.types.filter { !new.flags.contains($0) }.map { Transition(activity: $0, kind: .exit, time: when) }
        let enters = new.flags.types.filter { !before.contains($0) }.map { Transition(activity: $0, kind: .enter, time: when) }
        return exits + enters
    }
}
