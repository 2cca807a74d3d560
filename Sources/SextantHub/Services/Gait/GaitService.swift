import SextantCore
import SextantProtocol
import SextantStore

/// The accelerometer of a walk when none was recorded (RULES A12): while an app hears the
/// accelerometer (`motion.start`, `deviceMotion.start`) and the true fixes say the device
/// is on foot, readings of gravity as the judge last decided it plus the gait's bounce at
/// A7's cadence, and a gyroscope reading the route's turns about the device's up, 50 Hz on
/// the fixes' clock, from the source of the fixes. Ridden or driven (RULES A17), while an
/// app streams `deviceMotion`: the route's turns on the gyroscope and gravity alone on the
/// accelerometer, so that the attitude turns as the route does. An accelerometer (a
/// gyroscope) heard from elsewhere — a trace's, the hardware's, a hand's — silences the
/// synthesized one until the fixes stop. Nobody hearing, it asks for no fix and runs no timer.
final class GaitService: PhoneService {
    static var consumedKinds: [SensorKind.ID] { [SensorKind.accelerometer.id, SensorKind.gyroscope.id] }
    /// How long a fix keeps the gait going.
    static let fixLifetime: Int64 = 2_000_000_000

    private unowned let hub: Hub
    private var engine = GaitSynthesis()
    private var stretches = FixStretches()
    /// The latest fix on the fixes' clock and when it came on the device's, and its source.
    private var anchor: (time: Timestamp, arrived: Int64, source: SourceName, fix: LocationFix)?
    /// The kinds heard from elsewhere since the walk's first fix: not made up.
    private var heardElsewhere: Set<SensorKind.ID> = []
    private var tick: DeviceTimer?
    /// The fixes'-clock time of the last reading made: readings fall on a 50 Hz grid from
    /// the run's first fix, whatever the speed.
    private var lastMade: Int64?
    /// Set while its own reading goes through the hub, so that it is not taken for another's.
    private var synthesizing = false

    private let listeners: Listeners

    init(hub: Hub, stored: StoreSnapshot) {
        self.hub = hub
        listeners = hub.listeners
    }

    private var heard: Bool { listeners.hear(.motion) || listeners.hear(.deviceMotion) }

    var wantsFixes: Bool { heard }

    /// Whether readings are made now: on foot while the accelerometer is heard; on wheels
    /// only while `deviceMotion` is (A17: a ride's steady gravity alone tells `motion` nothing).
    private var runs: Bool { engine.cadence != nil || (engine.onWheels && hub.sessions.isHeard(.deviceMotion)) }

    func reading(_ reading: SensorReading, at time: Timestamp, from source: SourceName) {
        guard !synthesizing, anchor != nil else { return }
        heardElsewhere.insert(reading.kind)
    }

    func fixSampled(_ truth: LocationFix, from source: SourceName) {
        // Fixes that stopped and came back (a new replay, one sought back) start a new run.
        if let anchor, truth.time < anchor.time || truth.time.nanoseconds - anchor.time.nanoseconds > Self.fixLifetime { stop() }
        // The readings owed before this fix, made as they would have been had it come later
        // (a replay at `max`, or a loop that ran late): the same at every speed.
        if anchor != nil, runs { emit(before: truth.time.nanoseconds) }
        if let previous = anchor?.fix, let stretch = stretches.add(truth) {
            let bearing = Geo.bearing(lat1: previous.latitude, lon1: previous.longitude, lat2: truth.latitude, lon2: truth.longitude)
            engine.stretch(metres: stretch.metres, seconds: stretch.seconds, bearing: bearing)
        } else {
            _ = stretches.add(truth)
        }
        anchor = (truth.time, hub.now.monotonic, source, truth)
        if lastMade == nil { lastMade = truth.time.nanoseconds }
        if tick == nil, runs { schedule() }
    }

    /// How fast the fixes' clock runs against the device's: the replay's factor for its
    /// fixes (0 while it is paused), 1 for live and hand-set ones and once a replay ended;
    /// nil at `max`, where the readings are made only as each fix comes.
    private func fixClockRate(_ source: SourceName) -> Double? {
        guard source == .replay else { return 1 }
        let status = hub.replay.status
        // Played out (or stopped), the fixes' clock runs on as the device's, so the 2 s
        // after the last fix are made as after a live one.
        guard status.state == .running else { return status.state == .paused ? 0 : 1 }
        if case .factor(let factor) = status.speed { return factor }
        return nil
    }

    private func schedule() {
        guard let anchor, let rate = fixClockRate(anchor.source), rate > 0 else { return }
        let wait = Int64((Double(GaitSynthesis.interval) / rate).rounded(.up))
        tick = hub.deviceTime.schedule(in: max(wait, 1_000_000)) { [weak self] in self?.tickFired() }
    }

    /// The readings due by now on the fixes' clock, then the next tick while the walk is heard.
    private func tickFired() {
        tick = nil
        guard heard, let anchor else { return stop() }
        let rate = fixClockRate(anchor.source) ?? 0
        let due = anchor.time.nanoseconds.addingClamped(Int64(Double(hub.now.monotonic - anchor.arrived) * rate))
        guard due - anchor.time.nanoseconds <= Self.fixLifetime else { return stop() }
        emit(before: due + 1)
        // A stop pauses it: the route's last bearing holds, so a turn made standing still
        // is the yaw of the first stretch after it; the next moving fix schedules again.
        if runs { schedule() }
    }

    /// Every reading of the 50 Hz grid after the last made and before `end` (fixes' clock),
    /// at most a fix's lifetime of them.
    private func emit(before end: Int64) {
        guard let anchor, var time = lastMade else { return }
        let last = min(end - 1, anchor.time.nanoseconds + Self.fixLifetime)
        while time + GaitSynthesis.interval <= last {
            time += GaitSynthesis.interval
            make(at: Timestamp(nanoseconds: time), anchor)
        }
        lastMade = time
    }

    /// One accelerometer and one gyroscope reading at `time`, from the latest fix's source.
    private func make(at time: Timestamp, _ anchor: (time: Timestamp, arrived: Int64, source: SourceName, fix: LocationFix)) {
        let gravity = (ManualGravity.vector(for: hub.motion.judge.orientation) ?? ManualGravity.vector(for: .portrait)!).vector
        synthesizing = true
        defer { synthesizing = false }
        if !heardElsewhere.contains(SensorKind.accelerometer.id), let a = engine.reading(at: time.nanoseconds, gravity: gravity) {
            hub.ingest(Sample(time: time, value: .reading(SensorReading(.accelerometer, a.x, a.y, a.z))), from: anchor.source)
        }
        if !heardElsewhere.contains(SensorKind.gyroscope.id), hub.sessions.isHeard(.deviceMotion) {
            let sinceFix = Double(time.nanoseconds - anchor.time.nanoseconds) / 1e9
            let r = engine.rotationRate(gravity: gravity, sinceFix: sinceFix)
            hub.ingest(Sample(time: time, value: .reading(SensorReading(.gyroscope, r.x, r.y, r.z))), from: anchor.source)
        }
    }

    /// Nobody hears it or the fixes stopped: the next fix starts a new run.
    private func stop() {
        tick?.cancel()
        tick = nil
        anchor = nil
        lastMade = nil
        heardElsewhere = []
        stretches = FixStretches()
        engine = GaitSynthesis()
    }

    func sessionClosed(_ session: AppSession) {
        if !heard { stop() }
    }
}
