import NIOCore
import SextantCore
import SextantProtocol
import SextantTraces

/// Plays a ``ReplaySchedule`` into the hub on its event loop: the thin, timed part of a
/// replay.
///
/// It never holds the loop: each turn emits a bounded batch (by count and by time), then
/// schedules the next turn a little in the future, so that the loop polls its sockets in
/// between — a status request or a `hello` is answered within a batch's time at any
/// speed. (A task that re-queues itself at once, with `execute` or a deadline already
/// past, would run again before NIO looks at I/O: the loop runs every due task first.)
///
/// At `max`, samples go as fast as the subscribed clients take them: the player waits (at
/// most 1 s) while a client that is still reading has a full queue, so a reading client
/// loses nothing (PROTOCOL "Trace files").
final class ReplayPlayer {
    private unowned let hub: Hub
    private(set) var state: ReplayState = .idle
    private var path: String?
    private var schedule: ReplaySchedule?
    /// Bumped at every start and stop: a timer of an older run does nothing.
    private var generation = 0
    /// Counts `start`s: which replay a sample came from, for the recorder (a new replay's
    /// trace time says nothing of time passing).
    private(set) var run = 0
    private var timer: LoopTimer?
    /// Bumped whenever the timers are cancelled: a turn asked of `LoopYield` before then
    /// (which cannot be cancelled) does nothing when it comes.
    private var turnTicket = 0
    private var waitingForRoom = false
    /// Paused at the start until the first location request an app makes (RULES T1).
    private var waitingForRequest = false
    private var lastProgressReport: Int64 = 0
    /// A control action of the replay is being applied (its store write): nothing more
    /// plays until it is, so that it lands between the same two samples at every speed.
    private var actionInFlight = false
    /// A store write a sample started (an app's grid offset, L10) is in flight: nothing more
    /// plays until it is done, so that what waits on it goes out between the same two
    /// samples at every speed.
    private var storeWriteInFlight = false
    /// Why the replay stopped before its end: a control action failed, or the file changed.
    private var error: String?

    /// The most samples one turn of the loop emits, and the longest it spends emitting.
    static let batchSize = 256
    static let batchTime: Int64 = 2_000_000
    /// The pause between two turns that had work left: long enough that the loop's next
    /// look at its task queue finds nothing due, and so polls its sockets. At `max` the
    /// next turn comes right after that poll instead (`LoopYield`): there the replay is
    /// all the loop has to do, and a pause after each of a day's 3,375 batches was most of
    /// a second asleep. At a finite speed a turn runs late only when the loop is busy (a
    /// fan-out to many apps): there the pause leaves the loop idle for a request to come
    /// in ahead of the next batch (measured: `status`'s p99 during a 1000-app fan-out
    /// rose from 3 to 5–6 ms with no pause).
    static let yieldTime = TimeAmount.microseconds(200)
    /// At `max`, how many samples go between two looks at the clients' queues. A look scans
    /// every connection; a queue grows by at most one event a sample, so it passes the hold
    /// mark (64) by at most this many, far below where a queue drops (512).
    static let holdCheckInterval = 16

    init(hub: Hub) { self.hub = hub }

    /// Plays `trace` and its control actions from its start; with `startOnRequest`, paused
    /// at its start until the first location request of an app or `resume` (RULES T1).
    func start(
        trace: any ReplayableTrace, controls: [TraceControl] = [], path: String, speed: ReplaySpeed, loop: Bool, until: Int64? = nil,
        startOnRequest: Bool = false
    ) {
        cancelTimers()
        generation += 1
        run += 1
        (actionInFlight, storeWriteInFlight, error) = (false, false, nil)
        self.path = path
        let now = hub.clock.monotonicNanoseconds()
        var schedule = ReplaySchedule(trace: trace, controls: controls, speed: speed, loop: loop, until: until, startedAt: now)
        if startOnRequest { schedule.pause(now: now) }
        self.schedule = schedule
        hub.gnss.sourceRestarted(.replay)
        hub.manualSensors.replayStarted()
        waitingForRequest = startOnRequest
        state = startOnRequest ? .paused : .running
        hub.setSourceState(.replay, startOnRequest ? .paused : .running)
        hub.logger.info(
            startOnRequest ? "replay loaded, waiting for the first location request" : "replay started",
            metadata: ["path": "\(path)", "samples": "\(trace.sampleCount)", "duration": "\(Double(trace.durationNanoseconds) / 1e9)", "speed": "\(speed.json)", "loop": "\(loop)"])
        report()
        turn()
    }

    /// An app asked for locations: a replay waiting for that starts on the loop's next
    /// turn, after the request's answer (RULES T1).
    func locationRequested() {
        guard waitingForRequest else { return }
        waitingForRequest = false
        let generation = generation
        hub.eventLoop.assumeIsolated().execute { [self] in
            guard generation == self.generation, state == .paused else { return }
            hub.logger.info("replay starts: an app asked for locations", metadata: ["path": "\(path ?? "")"])
            try? resume()
        }
    }

    func stop() {
        guard state == .running || state == .paused else { return }
        cancelTimers()
        generation += 1
        waitingForRequest = false
        actionInFlight = false
        state = .stopped
        hub.setSourceState(.replay, .stopped)
        hub.logger.info("replay stopped", metadata: ["path": "\(path ?? "")", "events": "\(schedule?.emitted ?? 0)"])
        report()
    }

    /// Stops the virtual clock; samples wait until `resume` (or come one by one with `step`).
    func pause() throws(RPCError) {
        guard state == .running, var schedule else { throw RPCError(.invalidParams, "no replay is running (state \(state.rawValue))") }
        cancelTimers()
        schedule.pause(now: hub.clock.monotonicNanoseconds())
        self.schedule = schedule
        paused()
    }

    /// Starts the virtual clock again; with `until` (nanoseconds into the current lap), it
    /// pauses again when it gets there.
    func resume(until: Int64? = nil) throws(RPCError) {
        guard state == .paused, var schedule else { throw RPCError(.invalidParams, "no replay is paused (state \(state.rawValue))") }
        waitingForRequest = false
        if let until, until < schedule.position {
            throw RPCError(.invalidParams, "\"until\" (\(Double(until) / 1e9) s) is before the replay's position (\(Double(schedule.position) / 1e9) s)")
        }
        schedule.resume(now: hub.clock.monotonicNanoseconds(), until: until)
        self.schedule = schedule
        state = .running
        hub.setSourceState(.replay, .running)
        report()
        turn()
    }

    /// While paused: plays the next `count` samples now, and the control actions before
    /// and between them. Answers how many samples it played, once the actions are applied.
    func step(_ count: Int) throws(RPCError) -> EventLoopFuture<Int> {
        guard state == .paused, schedule != nil else { throw RPCError(.invalidParams, "pause the replay first (state \(state.rawValue))") }
        guard !actionInFlight else { throw RPCError(.invalidParams, "a control action of the replay is still being applied: step again once it is") }
        let promise = hub.eventLoop.makePromise(of: Int.self)
        step(count, played: 0, promise)
        return promise.futureResult
    }

    private func step(_ count: Int, played: Int, _ promise: EventLoopPromise<Int>) {
        var played = played
        while played < count, state == .paused, var schedule, let item = schedule.stepOne() {
            self.schedule = schedule
            switch item {
            case .sample(let sample):
                hub.ingest(sample, from: .replay)
                played += 1
            case .control(let control, let time):
                let stepped = played
                let goesOn = play(control, at: time) { [self] goOn in
                    if goOn { step(count, played: stepped, promise) } else { promise.succeed(stepped) }
                }
                guard goesOn else { return }
            }
        }
        if state == .paused, schedule?.isFinished == true { finish() } else { report() }
        promise.succeed(played)
    }

    /// Moves to `offset` nanoseconds into the current lap, running or paused.
    func seek(to offset: Int64) throws(RPCError) {
        guard state == .running || state == .paused, var schedule else {
            throw RPCError(.invalidParams, "no replay is running or paused (state \(state.rawValue))")
        }
        cancelTimers()
        schedule.seek(to: offset, now: hub.clock.monotonicNanoseconds())
        self.schedule = schedule
        hub.gnss.sourceSeeked(.replay)
        report()
        if state == .running { turn() }
    }

    /// A store write a sample started: a running replay plays nothing more until it is
    /// done (its completions registered before this one have run by then), then goes on at
    /// its next turn.
    func wait<Value>(for written: EventLoopFuture<Value>) {
        guard state == .running, !storeWriteInFlight else { return }
        storeWriteInFlight = true
        let current = generation
        written.assumeIsolated().whenComplete { [self] _ in
            guard generation == current else { return }
            storeWriteInFlight = false
            if state == .running { afterPoll() }
        }
    }

    /// A client's queue drained: a max-speed replay waiting for room may go on.
    func clientDrained() {
        guard waitingForRoom, state == .running else { return }
        cancelTimers()
        afterPoll()
    }

    /// The replay's progress as `replay.status` answers it.
    var status: ReplayStatus {
        ReplayStatus(
            path: path, position: Double(schedule?.position ?? 0) / 1e9, duration: Double(schedule?.duration ?? 0) / 1e9,
            events: Int(schedule?.emitted ?? 0), state: state, speed: schedule?.speed ?? .factor(1), loop: schedule?.loop ?? false,
            lap: Int(schedule?.lap ?? 0), until: schedule?.until.map { Double($0) / 1e9 }, waitingForRequest: waitingForRequest, error: error)
    }

    var statusJSON: JSONValue { status.json }

    // MARK: - Turns of the loop

    /// Emits what is due now, within the batch's bounds, then arranges the next turn.
    private func turn() {
        guard state == .running, !actionInFlight, !storeWriteInFlight, var schedule else { return }
        // At `max`, the previous turn's fixes reach every session before more are read: the
        // run of fixes owed stays one turn long (``LocationFanOut``).
        if schedule.speed == .max, hub.services.fixes.fanOut.continues { return afterPoll() }
        let clock = hub.clock
        let started = clock.monotonicNanoseconds()
        var now = started
        var emitted = 0
        // At `max`, each session takes the turn's fixes in one decision at its end.
        hub.services.fixes.batching(schedule.speed == .max)
        defer { hub.services.fixes.batching(false) }  // on the early returns too
        while emitted < Self.batchSize, now - started < Self.batchTime {
            if schedule.speed == .max, emitted % Self.holdCheckInterval == 0, clientsHoldBack(now: now) {
                self.schedule = schedule
                return waitForRoom()
            }
            guard let item = schedule.takeIfDue(now: now) else { break }
            // The schedule is stored before the hub hears the sample: the hub may ask for
            // `replay.status` while it handles it.
            self.schedule = schedule
            switch item {
            case .sample(let sample):
                hub.ingest(sample, from: .replay)
                if storeWriteInFlight { return }
            case .control(let control, let time):
                hub.services.fixes.batching(false)  // the fixes before the action reach the apps before it acts
                guard play(control, at: time, then: { [self] goOn in if goOn { turn() } }) else { return }
            }
            emitted += 1
            now = clock.monotonicNanoseconds()
        }
        // The turn's fixes reach the sessions before the replay says anything more.
        hub.services.fixes.batching(false)
        self.schedule = schedule
        if now - lastProgressReport >= 250_000_000 { report() }
        if schedule.isPaused { return paused() }
        guard let due = schedule.nextDue(now: now) else { return finish() }
        if due <= now {
            afterPoll()
        } else {
            let current = generation
            timer = hub.eventLoop.timer(at: NIODeadline.uptimeNanoseconds(UInt64(due))) { [self] in
                if generation == current { turn() }
            }
        }
    }

    /// The next turn, once the loop has polled its sockets: at `max` at once, else after
    /// `yieldTime`.
    private func afterPoll() {
        let current = turnTicket
        let next = { [self] in
            if turnTicket == current { turn() }
        }
        if schedule?.speed == .max {
            hub.loopYield.later(orAfter: Self.yieldTime, next)
        } else {
            timer = hub.eventLoop.timer(in: Self.yieldTime, next)
        }
    }

    private func clientsHoldBack(now: Int64) -> Bool {
        hub.faces.contains { $0.holdsBackReplay(now: now) }
    }

    private func waitForRoom() {
        waitingForRoom = true
        let current = generation
        // At most 1 s: by then a client that has read nothing no longer holds the replay.
        timer = hub.eventLoop.timer(in: .milliseconds(1001)) { [self] in
            guard generation == current else { return }
            waitingForRoom = false
            turn()
        }
    }

    /// Plays a control action (`Hub.playControl`). Answers whether the replay goes on at
    /// once; if not, `next` is called once, with whether it may go on: when the action is
    /// applied, or at once when it failed (the replay then stops, saying why).
    private func play(_ control: TraceControl, at time: Timestamp, then next: @escaping (Bool) -> Void) -> Bool {
        switch hub.playControl(control, at: time) {
        case .success(nil):
            return true
        case .failure(let failure):
            failed(control, failure)
            next(false)
            return false
        case .success(let applied?):
            actionInFlight = true
            let current = generation
            applied.assumeIsolated().whenComplete { [self] result in
                guard generation == current else { return next(false) }
                actionInFlight = false
                switch result {
                case .success: next(true)
                case .failure(let failure):
                    failed(control, (failure as? RPCError) ?? RPCError.internalError("\(failure)"))
                    next(false)
                }
            }
            return false
        }
    }

    /// A control action failed: the replay stops there, the action's file, line and
    /// error in the log and in its status (what played stays played).
    private func failed(_ control: TraceControl, _ failure: RPCError) {
        cancelTimers()
        generation += 1
        actionInFlight = false
        error = "\(control.place): \(control.method): \(failure.message)"
        hub.logger.error(
            "replay stopped: a control action failed",
            metadata: ["path": "\(control.path)", "line": "\(control.line)", "method": "\(control.method)", "error": "\(failure.message)"])
        state = .stopped
        hub.setSourceState(.replay, .stopped)
        report()
    }

    /// The schedule paused (by hand, or at `until`).
    private func paused() {
        state = .paused
        hub.setSourceState(.replay, .paused)
        hub.logger.info("replay paused", metadata: ["path": "\(path ?? "")", "position": "\(Double(schedule?.position ?? 0) / 1e9)"])
        report()
    }

    private func finish() {
        if let failure = schedule?.failure {
            // The file changed under a streamed replay: what played stays played, and the
            // replay stops where the file stopped reading as it was checked.
            hub.logger.error("replay stopped: the trace changed while it played", metadata: ["path": "\(failure.path)", "line": "\(failure.line)", "reason": "\(failure.reason)"])
            error = failure.description
            state = .stopped
            hub.setSourceState(.replay, .stopped)
            return report()
        }
        state = .finished
        hub.setSourceState(.replay, .finished)
        hub.logger.info("replay finished", metadata: ["path": "\(path ?? "")", "events": "\(schedule?.emitted ?? 0)"])
        report()
    }

    private func report() {
        lastProgressReport = hub.clock.monotonicNanoseconds()
        hub.broadcastToWatchers(Event.replay, statusJSON)
    }

    private func cancelTimers() {
        timer?.cancel()
        timer = nil
        turnTicket += 1
        waitingForRoom = false
    }
}
