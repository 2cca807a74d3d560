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
    /// Set while its own reading goes through the hub, so that it is not taken for another's.
    private var synthesizing = false

    init(hub: Hub, stored: StoreSnapshot) { self.hub = hub }

    private var heard: Bool { hub.sessions.isHeard(.motion) || hub.sessions.isHeard(.deviceMotion) }

    var wantsFixes: Bool { heard }

    /// Whether readings are made now: on foot while the accelerometer is heard; on wheels
    /// only while `deviceMotion` is (A17: a ride's steady gravity alone tells `motion` nothing).
    private var runs: Bool { engine.cadence != nil || (engine.onWheels && hub.sessions.isHeard(.deviceMotion)) }

    func reading(_ reading: SensorReading, at time: Timestamp, from source: SourceName) {
        guard !synthesizing, anchor != nil else { return }
        heardElsewhere.insert(reading.kind)
    }

    func fixSampled(_ truth: LocationFix, from source: SourceName) {
        // Fixes that stopped and came back (a new replay) start a new run.
        if let anchor, hub.now.monotonic - anchor.arrived > Self.fixLifetime { stop() }
        if let previous = anchor?.fix, let stretch = stretches.add(truth) {
            let bearing = Geo.bearing(lat1: previous.latitude, lon1: previous.longitude, lat2: truth.latitude, lon2: truth.longitude)
            engine.stretch(metres: stretch.metres, seconds: stretch.seconds, bearing: bearing)
        } else {
            _ = stretches.add(truth)
        }
        anchor = (truth.time, hub.now.monotonic, source, truth)
        if tick == nil, runs { schedule() }
    }

    private func schedule() {
        tick = hub.deviceTime.schedule(in: GaitSynthesis.interval) { [weak self] in self?.emit() }
    }

    /// One reading on the fixes' clock, then the next tick while the walk is heard.
    private func emit() {
        tick = nil
        let now = hub.now.monotonic
        guard heard, let anchor, now - anchor.arrived <= Self.fixLifetime else { return stop() }
        let time = Timestamp(nanoseconds: anchor.time.nanoseconds.addingClamped(now - anchor.arrived))
        let gravity = (ManualGravity.vector(for: hub.motion.judge.orientation) ?? ManualGravity.vector(for: .portrait)!).vector
        synthesizing = true
        if !heardElsewhere.contains(SensorKind.accelerometer.id), let a = engine.reading(at: time.nanoseconds, gravity: gravity) {
            hub.ingest(Sample(time: time, value: .reading(SensorReading(.accelerometer, a.x, a.y, a.z))), from: anchor.source)
        }
        if !heardElsewhere.contains(SensorKind.gyroscope.id), hub.sessions.isHeard(.deviceMotion) {
            let r = engine.rotationRate(gravity: gravity, sinceFix: Double(now - anchor.arrived) / 1e9)
            hub.ingest(Sample(time: time, value: .reading(SensorReading(.gyroscope, r.x, r.y, r.z))), from: anchor.source)
        }
        synthesizing = false
        // A stop pauses it: the route's last bearing holds, so a turn made standing still
        // is the yaw of the first stretch after it; the next moving fix schedules again.
        if runs { schedule() }
    }

    /// Nobody hears it or the fixes stopped: the next fix starts a new run.
    private func stop() {
        tick?.cancel()
        tick = nil
        anchor = nil
        heardElsewhere = []
        stretches = FixStretches()
        engine = GaitSynthesis()
    }

    func sessionClosed(_ session: AppSession) {
        if !heard { stop() }
    }
}
