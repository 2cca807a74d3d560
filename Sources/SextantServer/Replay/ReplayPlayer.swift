import NIOCore
import SextantCore
import SextantProtocol
import SextantTraces

/// How fast a replay runs: a factor of real time, or as fast as the clients read.
enum ReplaySpeed: Equatable {
    case factor(Double)
    case max

    var json: JSONValue {
        switch self {
        case .factor(let f): return .double(f)
        case .max: return "max"
        }
    }
}

/// Plays a trace into the hub on a virtual clock.
///
/// Sample times come from the trace (`start + t`), never from the wall, so the events
/// and their `time` fields are the same at every speed; only the pacing differs. At a
/// factor, sample i is due `t_i / factor` after the start. At `max`, samples go as fast
/// as the subscribed clients take them: the player waits (at most 1 s) while a client
/// that is still reading has a full queue, so a reading client loses nothing.
final class ReplayPlayer {
    private unowned let hub: Hub
    private(set) var state: ReplayState = .idle
    private var path: String?
    private var trace: Trace?
    private var speed: ReplaySpeed = .factor(1)
    private var loop = false
    private var index = 0
    private var lap: Int64 = 0
    private var events = 0
    private var position: Int64 = 0
    /// Bumped at every start and stop: a timer of an older run does nothing.
    private var generation = 0
    private var timer: Scheduled<Void>?
    /// Wall deadline and virtual offset that correspond, for paced replays.
    private var baseDeadline = NIODeadline.now()
    private var baseOffset: Int64 = 0
    private var waitingForRoom = false
    private var lastProgressReport: Int64 = 0

    /// How many samples one turn of the event loop may emit before letting I/O run.
    static let batchSize = 256
    /// The next lap of a looping replay starts this long after the last sample.
    static let lapGap: Int64 = 1_000_000_000

    init(hub: Hub) { self.hub = hub }

    func start(trace: Trace, path: String, speed: ReplaySpeed, loop: Bool) {
        cancelTimers()
        generation += 1
        self.trace = trace
        self.path = path
        self.speed = speed
        self.loop = loop
        index = 0
        lap = 0
        events = 0
        position = 0
        baseDeadline = .now()
        baseOffset = 0
        state = .running
        hub.sourceStates[SourceName.replay.rawValue] = "running"
        hub.logger.info(
            "replay started",
            metadata: ["path": "\(path)", "samples": "\(trace.samples.count)", "duration": "\(trace.duration)", "speed": "\(speed.json)", "loop": "\(loop)"])
        report()
        scheduleNext()
    }

    func stop() {
        guard state == .running else { return }
        cancelTimers()
        generation += 1
        state = .stopped
        hub.sourceStates[SourceName.replay.rawValue] = "stopped"
        hub.logger.info("replay stopped", metadata: ["path": "\(path ?? "")", "events": "\(events)"])
        report()
    }

    /// A client's queue drained: a max-speed replay waiting for room may go on.
    func clientDrained() {
        guard waitingForRoom, state == .running else { return }
        waitingForRoom = false
        cancelTimers()
        let current = generation
        hub.eventLoop.assumeIsolated().execute { [self] in if generation == current { scheduleNext() } }
    }

    var statusJSON: JSONValue {
        [
            "path": JSONValue(path),
            "position": .double(Double(position) / 1e9),
            "duration": .double(trace?.duration ?? 0),
            "events": .int(Int64(events)),
            "state": .string(state.rawValue),
            "speed": speed.json,
            "loop": .bool(loop),
            "lap": .int(lap),
        ]
    }

    // MARK: - Pacing

    private var lapPeriod: Int64 { (trace?.durationNanoseconds ?? 0) + Self.lapGap }

    private func virtualOffset(_ i: Int) -> Int64 { lap * lapPeriod + trace!.samples[i].offset }

    private func scheduleNext() {
        guard state == .running, let trace else { return }
        if index >= trace.samples.count {
            guard loop, !trace.samples.isEmpty else { return finish() }
            lap += 1
            index = 0
        }
        switch speed {
        case .max:
            runMax()
        case .factor(let factor):
            let due = baseDeadline + .nanoseconds(Int64(Double(virtualOffset(index) - baseOffset) / factor))
            if due <= .now() {
                runDue(factor: factor)
            } else {
                let current = generation
                timer = hub.eventLoop.assumeIsolated().scheduleTask(deadline: due) { [self] in if generation == current { runDue(factor: factor) } }
            }
        }
    }

    private func runDue(factor: Double) {
        guard let trace else { return }
        let now = NIODeadline.now()
        var emitted = 0
        while index < trace.samples.count, emitted < Self.batchSize,
            baseDeadline + .nanoseconds(Int64(Double(virtualOffset(index) - baseOffset) / factor)) <= now
        {
            emit()
            emitted += 1
        }
        continueSoon()
    }

    private func runMax() {
        guard let trace else { return }
        var emitted = 0
        while index < trace.samples.count, emitted < Self.batchSize {
            if clientsHoldBack() {
                waitForRoom()
                return
            }
            emit()
            emitted += 1
        }
        continueSoon()
    }

    /// Lets the loop write what was queued before the next batch.
    private func continueSoon() {
        let current = generation
        hub.eventLoop.assumeIsolated().execute { [self] in if generation == current { scheduleNext() } }
    }

    private func clientsHoldBack() -> Bool {
        let now = monotonicNow()
        return hub.connections.values.contains { $0.holdsBackReplay(now: now) }
    }

    private func waitForRoom() {
        waitingForRoom = true
        let current = generation
        // At most 1 s: by then a client that has read nothing no longer holds the replay.
        timer = hub.eventLoop.assumeIsolated().scheduleTask(in: .milliseconds(1001)) { [self] in
            guard generation == current else { return }
            waitingForRoom = false
            scheduleNext()
        }
    }

    private func emit() {
        guard let trace else { return }
        let sample = trace.samples[index]
        let offset = virtualOffset(index)
        let time = trace.start.adding(nanoseconds: offset)
        var value = sample.value
        if case .location(var fix) = value {
            fix.time = time
            value = .location(fix)
        }
        index += 1
        events += 1
        position = sample.offset
        hub.ingest(Sample(time: time, value: value), from: .replay)
        let now = monotonicNow()
        if now - lastProgressReport >= 250_000_000 { report() }
    }

    private func finish() {
        state = .finished
        hub.sourceStates[SourceName.replay.rawValue] = "finished"
        hub.logger.info("replay finished", metadata: ["path": "\(path ?? "")", "events": "\(events)"])
        report()
    }

    private func report() {
        lastProgressReport = monotonicNow()
        hub.broadcastToWatchers(Event.replay, statusJSON)
    }

    private func cancelTimers() {
        timer?.cancel()
        timer = nil
        waitingForRoom = false
    }
}
