import NIOCore
import SextantCore
import SextantProtocol

/// The manual source's sensors: a reading set by hand (`device.set` with `acceleration`,
/// `orientation` or `hingeAngle`; `sextantctl rotate`, `accel`, `hinge`) holds like a
/// sensor at rest, sampled at the source's rate, until it is changed or released (RULES
/// O4a). One hold a sensor kind, so a kind added to ``SensorKinds/all`` can be held
/// without a line here.
///
/// It is a source like any other: each tick is a sample stamped with the wall clock, and
/// the engines decide from those samples, never from the value directly. So `faceUp` set
/// by hand appears only after O3's 500 ms, exactly as from a real sensor. Which source the
/// engines hear is the hub's arbiters' decision (``SensorArbiter``), told of each hold.
final class ManualSensors {
    /// RULES O4a: 50 Hz.
    static let interval = TimeAmount.milliseconds(20)

    /// One reading held, and whether a replay started after it takes its place at its
    /// first reading of the kind (O4a: the later instruction wins).
    private struct Hold {
        var reading: SensorReading
        var yieldsToReplay = false
    }

    private let eventLoop: EventLoop
    private let clock: SextantClock
    private let emit: (Sample) -> Void
    private var tick: Scheduled<Void>?
    /// In the order they were first held: each tick emits them in that order.
    private var holds: [Hold] = []

    init(eventLoop: EventLoop, clock: SextantClock, emit: @escaping (Sample) -> Void) {
        self.eventLoop = eventLoop
        self.clock = clock
        self.emit = emit
    }

    /// Holds `reading` from now on, in place of a held reading of its kind: one sample at
    /// once, then one every 20 ms.
    func hold(_ reading: SensorReading) {
        eventLoop.preconditionInEventLoop()
        if let index = holds.firstIndex(where: { $0.reading.kind == reading.kind }) {
            holds[index] = Hold(reading: reading)
        } else {
            holds.append(Hold(reading: reading))
        }
        tick?.cancel()
        emit(Sample(time: clock.wallTime(), value: .reading(reading)))
        schedule(after: eventLoop.now)
    }

    /// Ticks on a fixed grid from the last hold, so that a late tick does not push the rest.
    private func schedule(after previous: NIODeadline) {
        let due = previous + Self.interval
        tick = eventLoop.assumeIsolated().scheduleTask(deadline: due) { [weak self] in
            guard let self, !self.holds.isEmpty else { return }
            let time = clock.wallTime()
            for hold in holds { self.emit(Sample(time: time, value: .reading(hold.reading))) }
            self.schedule(after: due)
        }
    }

    /// Stops holding `kind`: it belongs to the replay or the live sensor again.
    func release(_ kind: SensorKind.ID) {
        eventLoop.preconditionInEventLoop()
        holds.removeAll { $0.reading.kind == kind }
        if holds.isEmpty {
            tick?.cancel()
            tick = nil
        }
    }

    /// Stops holding anything.
    func releaseAll() {
        for kind in heldKinds { release(kind) }
    }

    /// A new replay starts: each hold in force yields to the replay's first reading of its kind.
    func replayStarted() {
        for index in holds.indices { holds[index].yieldsToReplay = true }
    }

    /// Whether `kind` is held from before the replay that plays now.
    func yieldsToReplay(_ kind: SensorKind.ID) -> Bool {
        holds.contains { $0.reading.kind == kind && $0.yieldsToReplay }
    }

    /// The kinds held, in the order they were first held.
    var heldKinds: [SensorKind.ID] { holds.map(\.reading.kind) }

    /// The reading held of `kind`, if one is.
    func held(_ kind: SensorKind.ID) -> SensorReading? { holds.first { $0.reading.kind == kind }?.reading }
}
