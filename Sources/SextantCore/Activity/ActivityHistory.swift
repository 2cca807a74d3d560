import SextantProtocol

/// What `activity.query` and `pedometer.query` answer from (RULES A8): the activities
/// reported and the step totals at most once a minute, for the last seven days and at most
/// ``ActivityModel/historyCapacity`` of each, whatever the fixes: a client can make it hold
/// no more than that.
public struct ActivityHistory: Sendable {
    public struct Entry: Sendable, Equatable {
        public var state: ActivityState
        public var source: ActivitySource
    }

    public struct Checkpoint: Sendable, Equatable {
        public var time: Timestamp
        public var steps: Int
        public var distance: Double
    }

    public private(set) var entries: [Entry] = []
    public private(set) var checkpoints: [Checkpoint] = []

    public init() {}

    mutating func add(_ entry: Entry, at time: Timestamp) {
        entries.append(entry)
        Self.trim(&entries, before: time) { $0.state.start }
    }

    /// The totals at `time`, kept when the last checkpoint is a minute old.
    mutating func stepped(_ counter: StepCounter, at time: Timestamp) {
        if let last = checkpoints.last, time.nanoseconds - last.time.nanoseconds < ActivityModel.checkpointSpacing, last.time <= time { return }
        checkpoints.append(Checkpoint(time: time, steps: counter.steps, distance: counter.distance))
        Self.trim(&checkpoints, before: time) { $0.time }
    }

    private static func trim<T>(_ list: inout [T], before time: Timestamp, by date: (T) -> Timestamp) {
        let oldest = time.nanoseconds &- ActivityModel.historyAge
        let stale = list.prefix { date($0).nanoseconds < oldest }.count
        let excess = max(0, list.count - stale - ActivityModel.historyCapacity)
        if stale + excess > 0 { list.removeFirst(stale + excess) }
    }

    /// The activities that began within `from...to`, oldest first.
    public func activities(from: Timestamp, to: Timestamp) -> [Entry] {
        entries.filter { (from...to).contains($0.state.start) }
    }

    /// The steps and distance between two times, from the checkpoints at or before each
    /// (to the minute); `now` is the counter's totals, for a span reaching the present.
    public func steps(from: Timestamp, to: Timestamp, now: StepCounter) -> (steps: Int, distance: Double) {
        func totals(at time: Timestamp) -> (Int, Double) {
            guard let last = checkpoints.last(where: { $0.time <= time }) else { return (0, 0) }
            return (last.steps, last.distance)
        }
        let start = totals(at: from)
        let end = checkpoints.last.map { to >= $0.time } ?? false ? (now.steps, now.distance) : totals(at: to)
        return (end.0 - start.0, end.1 - start.1)
    }
}
