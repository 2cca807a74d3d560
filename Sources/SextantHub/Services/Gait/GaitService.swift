import SextantCore
import SextantProtocol
import SextantStore

/// The accelerometer of a walk when none was recorded (RULES A12): while an app hears the
/// accelerometer (`motion.start`, `deviceMotion.start`) and the true fixes say the device
/// is on foot, readings of gravity as the judge last decided it plus the gait's bounce at
/// A7's cadence, 50 Hz on the fixes' clock, from the source of the fixes. An accelerometer
/// heard from elsewhere (a trace's, the hardware's, a hand's) silences it for a second.
/// Nobody hearing, it asks for no fix and runs no timer.
final class GaitService: PhoneService {
    static var consumedKinds: [SensorKind.ID] { [SensorKind.accelerometer.id] }
    /// How long a fix keeps the gait going, and an accelerometer from elsewhere silences it.
    static let fixLifetime: Int64 = 2_000_000_000, otherAccelerometerSilence: Int64 = 1_000_000_000

    private unowned let hub: Hub
    private var engine = GaitSynthesis()
    private var stretches = FixStretches()
    /// The latest fix on the fixes' clock and when it came on the device's, and its source.
    private var anchor: (time: Timestamp, arrived: Int64, source: SourceName)?
    /// Readings of another accelerometer are heard up to this time of the fixes' clock.
    private var otherAccelerometerUntil: Int64 = .min
    private var tick: DeviceTimer?
    /// Set while its own reading goes through the hub, so that it is not taken for another's.
    private var synthesizing = false

    init(hub: Hub, stored: StoreSnapshot) { self.hub = hub }

    private var heard: Bool { hub.sessions.isHeard(.motion) || hub.sessions.isHeard(.deviceMotion) }

    var wantsFixes: Bool { heard }

    func reading(_ reading: SensorReading, at time: Timestamp, from source: SourceName) {
        guard !synthesizing, tick != nil else { return }
        otherAccelerometerUntil = time.nanoseconds.addingClamped(Self.otherAccelerometerSilence)
    }

    func fixSampled(_ truth: LocationFix, from source: SourceName) {
        if let stretch = stretches.add(truth) { engine.speed(stretch.metres / stretch.seconds) }
        anchor = (truth.time, hub.now.monotonic, source)
        if tick == nil, engine.cadence != nil { schedule() }
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
        let gravity = ManualGravity.vector(for: hub.motion.judge.orientation) ?? ManualGravity.vector(for: .portrait)!
        if time.nanoseconds >= otherAccelerometerUntil,
            let a = engine.reading(at: time.nanoseconds, gravity: Vector3(gravity.x, gravity.y, gravity.z))
        {
            synthesizing = true
            hub.ingest(Sample(time: time, value: .reading(Acceleration(x: a.x, y: a.y, z: a.z).reading)), from: anchor.source)
            synthesizing = false
        }
        if engine.cadence != nil { schedule() } else { stop() }
    }

    /// Nobody hears it or the fixes stopped: the next fix starts a new run.
    private func stop() {
        tick?.cancel()
        tick = nil
        anchor = nil
        stretches = FixStretches()
        engine = GaitSynthesis()
    }

    func sessionClosed(_ session: AppSession) {
        if !heard { stop() }
    }
}
