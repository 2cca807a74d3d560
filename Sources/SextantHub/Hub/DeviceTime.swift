import NIOCore
import SextantCore

/// The device's clock (``DeviceClock``) and the timers decided on it (RULES C6).
///
/// An engine decides a deadline on the device's monotonic clock ("check again 60 s after
/// the app went to the background"). The hub keeps each such deadline here, with a task on
/// the loop for the host's delay until it; when the control side moves the clock, the
/// deadlines now passed fire at once, in deadline order, and the others are armed again
/// for their shorter host delay. So a timer fires on the device's time whichever way it
/// got there: by waiting or by time travel.
final class DeviceTime {
    private(set) var clock = DeviceClock()
    private let eventLoop: EventLoop
    /// The host's time, as the hub reads it (its loop's monotonic time, its wall clock).
    private let hostNow: () -> EngineTime
    private var timers: [UInt64: Timer] = [:]
    private var lastID: UInt64 = 0

    private struct Timer {
        let deadline: Int64
        let work: () -> Void
        var task: LoopTimer?
    }

    init(eventLoop: EventLoop, hostNow: @escaping () -> EngineTime) {
        self.eventLoop = eventLoop
        self.hostNow = hostNow
    }

    /// The device's time now (what engines are handed).
    var now: EngineTime { clock.time(host: hostNow()) }

    /// The timers waiting: bounded by what schedules them (a session's one-shot requests,
    /// an app's background transitions), each gone once fired or cancelled.
    var pending: Int { timers.count }

    /// Runs `work` on the loop once the device's monotonic clock reaches `deadline`.
    @discardableResult
    func schedule(at deadline: Int64, _ work: @escaping () -> Void) -> DeviceTimer {
        lastID += 1
        timers[lastID] = Timer(deadline: deadline, work: work)
        arm(lastID)
        return DeviceTimer(id: lastID, owner: self)
    }

    /// The same, `delay` nanoseconds of device time from now.
    @discardableResult
    func schedule(in delay: Int64, _ work: @escaping () -> Void) -> DeviceTimer {
        schedule(at: now.monotonic.addingClamped(delay), work)
    }

    func cancel(_ id: UInt64) {
        timers.removeValue(forKey: id)?.task?.cancel()
    }

    /// Moves the device's clock (or refuses, leaving it as it was); the timers due by the
    /// new time fire before this returns.
    func move(_ change: (inout DeviceClock, EngineTime) throws(DeviceClockRefusal) -> Void) throws(DeviceClockRefusal) {
        try change(&clock, hostNow())
        let now = self.now.monotonic
        let due = timers.filter { $0.value.deadline <= now }.sorted { ($0.value.deadline, $0.key) < ($1.value.deadline, $1.key) }.map(\.key)
        for id in timers.keys where !due.contains(id) { arm(id) }
        // One timer's work may cancel or schedule another: each is looked up as it comes.
        for id in due { fire(id) }
    }

    /// A task on the loop for the host's delay until the timer's deadline, in place of any
    /// earlier one (the monotonic offset only grows, so the new delay is never longer).
    private func arm(_ id: UInt64) {
        guard var timer = timers[id] else { return }
        timer.task?.cancel()
        let delay = max(0, timer.deadline.subtractingClamped(now.monotonic))
        timer.task = eventLoop.timer(in: .nanoseconds(delay)) { [weak self] in self?.fire(id) }
        timers[id] = timer
    }

    private func fire(_ id: UInt64) {
        guard let timer = timers[id] else { return }
        // The loop's task and the device's clock read the same monotonic time; should the
        // task still come early, it waits for the rest rather than fire before its time.
        guard timer.deadline <= now.monotonic else { return arm(id) }
        timer.task?.cancel()
        timers[id] = nil
        timer.work()
    }
}

/// A timer on the device's clock, to cancel it (a one-shot request answered before its time).
struct DeviceTimer {
    let id: UInt64
    weak var owner: DeviceTime?

    func cancel() { owner?.cancel(id) }
}
