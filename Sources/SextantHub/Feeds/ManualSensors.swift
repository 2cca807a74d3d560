import NIOCore
import SextantCore
import SextantProtocol

/// The manual source's sensors: a reading set by hand (`device.set` with `acceleration`,
/// `orientation`, `hingeAngle`, `magneticField` or `heading`; `sextantctl rotate`, `accel`,
/// `hinge`, `magnet`, `heading set`) holds like a sensor at rest, sampled at the source's
/// rate, until it is changed or released (RULES O4a). One hold a topic: kinds heard on one
/// topic (the magnetometer and the compass, both heard as `heading`) would argue if both
/// were held, so a hold replaces the one of another kind on its topic. A kind added to
/// ``SensorKinds/all`` can be held without a line here.
///
/// It is a source like any other: each tick is a sample stamped with the device's wall clock, and
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
    /// The device's wall clock (RULES C7): readings set by hand are taken on the device.
    private let wallTime: () -> Timestamp
    private let emit: (Sample) -> Void
    private var tick: LoopTimer?
    /// In the order they were first held: each tick emits them in that order.
    private var holds: [Hold] = []
    /// A turn by hand under way (D7): the held accelerometer, gyroscope and field read it
    /// tick by tick; `tick` counts the hand's ticks since it began.
    private var turning: (turn: TurnByHand, tick: Int, field: SensorReading?, gyroscopeBefore: SensorReading?)?
    /// Called when a turn is over and the gyroscope it held was not held before: the hub
    /// gives the gyroscope back to the replay and the hardware (``Hub/releaseByHand(_:)``).
    var turnEnded: (SensorKind.ID) -> Void = { _ in }

    init(eventLoop: EventLoop, wallTime: @escaping () -> Timestamp, emit: @escaping (Sample) -> Void) {
        self.eventLoop = eventLoop
        self.wallTime = wallTime
        self.emit = emit
    }

    /// The kinds heard on the topic `kind` is heard on, `kind` among them.
    static func sharingTopic(with kind: SensorKind.ID) -> [SensorKind.ID] {
        guard let topic = SensorKinds.all[kind]?.topic else { return [kind] }
        return SensorKinds.all.kinds.filter { $0.topic == topic }.map(\.id)
    }

    /// Holds `reading` from now on, in place of a held reading of its topic: one sample at
    /// once, then one every 20 ms.
    func hold(_ reading: SensorReading) {
        eventLoop.preconditionInEventLoop()
        if reading.kind == SensorKind.accelerometer.id { endTurn() }
        // A hold during a turn outlasts it: the gyroscope's after the turn, the heading's now.
        if reading.kind == SensorKind.gyroscope.id { turning?.gyroscopeBefore = reading }
        if Self.sharingTopic(with: SensorKind.magnetometer.id).contains(reading.kind) { turning?.field = nil }
        place(reading)
        tick?.cancel()
        emit(Sample(time: wallTime(), value: .reading(reading)))
        schedule(after: eventLoop.now)
    }

    /// Puts `reading` in the holds, in place of a held reading of its topic.
    private func place(_ reading: SensorReading) {
        let topic = Self.sharingTopic(with: reading.kind)
        if let index = holds.firstIndex(where: { topic.contains($0.reading.kind) }) {
            holds[index] = Hold(reading: reading)
        } else {
            holds.append(Hold(reading: reading))
        }
    }

    /// D7: turns the device to the accelerometer's `target` along `turn`: the accelerometer,
    /// a held field and the gyroscope (held for the turn) read the turn at each tick, the
    /// first at once; the accelerometer then holds `target`, the field where the turn left it.
    func turn(_ turn: TurnByHand, to target: SensorReading) {
        eventLoop.preconditionInEventLoop()
        endTurn()
        let gyroscope = SensorKind.gyroscope.id
        turning = (turn, 0, held(SensorKind.magnetometer.id), held(gyroscope))
        place(target)
        place(SensorReading(.gyroscope, 0, 0, 0))
        tick?.cancel()
        emitHolds()
        schedule(after: eventLoop.now)
    }

    /// What a hold reads now: during a turn, the turn's reading of its kind.
    private func reading(of hold: Hold) -> SensorReading {
        guard let (turn, k, field, _) = turning else { return hold.reading }
        switch hold.reading.kind {
        case SensorKind.accelerometer.id: return Self.reading(.accelerometer, turn.gravity(after: k))
        case SensorKind.gyroscope.id: return Self.reading(.gyroscope, turn.rotationRate(at: k))
        case SensorKind.magnetometer.id where field != nil:
            return Self.reading(.magnetometer, turn.turned(Self.vector(field!), after: k))
        default: return hold.reading
        }
    }

    private static func reading(_ kind: SensorKind, _ v: Vector3) -> SensorReading { SensorReading(kind, v.x, v.y, v.z) }
    private static func vector(_ r: SensorReading) -> Vector3 { Vector3(r.value(0), r.value(1), r.value(2)) }

    /// Emits every hold's reading now, then moves a turn on by a tick, ending it once over.
    private func emitHolds() {
        let time = wallTime()
        for hold in holds { emit(Sample(time: time, value: .reading(reading(of: hold)))) }
        guard let current = turning else { return }
        if current.turn.isOver(at: current.tick) { endTurn() } else { turning?.tick += 1 }
    }

    /// The turn under way ends: the field holds where the turn left it, the gyroscope what
    /// it held before (or is given back to the other sources).
    private func endTurn(givingBackGyroscope: Bool = true) {
        guard let (turn, _, field, before) = turning else { return }
        turning = nil
        if let field { place(Self.reading(.magnetometer, turn.turned(Self.vector(field), after: turn.ticks))) }
        if let before {
            place(before)
        } else {
            holds.removeAll { $0.reading.kind == SensorKind.gyroscope.id }
            if givingBackGyroscope { turnEnded(SensorKind.gyroscope.id) }
        }
    }

    /// Ticks on a fixed grid from the last hold, so that a late tick does not push the rest.
    private func schedule(after previous: NIODeadline) {
        let due = previous + Self.interval
        tick = eventLoop.timer(at: due) { [weak self] in
            guard let self, !self.holds.isEmpty else { return }
            self.emitHolds()
            if !self.holds.isEmpty { self.schedule(after: due) }
        }
    }

    /// Stops holding `kind`: it belongs to the replay or the live sensor again.
    func release(_ kind: SensorKind.ID) {
        eventLoop.preconditionInEventLoop()
        if turning != nil, kind == SensorKind.accelerometer.id || kind == SensorKind.gyroscope.id {
            turning?.gyroscopeBefore = nil
            endTurn(givingBackGyroscope: kind != SensorKind.gyroscope.id)
        }
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

    /// The kind held on `kind`'s topic from before the replay that plays now, if one is.
    func heldBeforeReplay(sharingTopicWith kind: SensorKind.ID) -> SensorKind.ID? {
        let topic = Self.sharingTopic(with: kind)
        return holds.first { topic.contains($0.reading.kind) && $0.yieldsToReplay }?.reading.kind
    }

    /// The kinds held, in the order they were first held.
    var heldKinds: [SensorKind.ID] { holds.map(\.reading.kind) }

    /// Whether a kind heard on `kind`'s topic is held.
    func holdsTopic(of kind: SensorKind.ID) -> Bool {
        let topic = Self.sharingTopic(with: kind)
        return holds.contains { topic.contains($0.reading.kind) }
    }

    /// `status`'s `held`: the names of the kinds held, sorted.
    var statusJSON: JSONValue {
        .array(heldKinds.compactMap { SensorKinds.all[$0]?.name }.sorted().map { .string($0) })
    }

    /// The reading held of `kind`, if one is.
    func held(_ kind: SensorKind.ID) -> SensorReading? { holds.first { $0.reading.kind == kind }?.reading }
}
