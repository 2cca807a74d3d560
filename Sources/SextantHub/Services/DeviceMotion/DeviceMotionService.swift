import SextantCore
import SextantProtocol
import SextantStore

/// The fused attitude with the rotation rate, gravity and user acceleration to the sessions
/// that asked with `deviceMotion.start` (RULES D1–D6, sextant-rules(7) "DEVICE MOTION"):
/// Core Motion's `CMDeviceMotion`, Android's rotation vectors, gravity and linear
/// acceleration, from one `AttitudeEngine`.
///
/// D6: the engine runs only while a session listens. Without one, a reading costs the
/// subscriber check and nothing else; the first subscriber starts a fresh engine, which
/// settles from the next accelerometer and field readings.
final class DeviceMotionService: PhoneService {
    static var appMethods: [any RPCMethod.Type] { [DeviceMotionStartMethod.self, DeviceMotionStopMethod.self] }
    static var consumedKinds: [SensorKind.ID] { [SensorKind.accelerometer.id, SensorKind.magnetometer.id, SensorKind.gyroscope.id] }

    private unowned let hub: Hub
    private var subscribers = Subscribers<DeviceMotionSubscription>()
    private(set) var engine = AttitudeEngine()
    /// Readings the engine was fed since the daemon started (what D6 is measured by).
    private(set) var fused = 0
    var subscriberCount: Int { subscribers.count }
    /// Whether a face shows the motion (``Hub/setDeviceMotionHeardByFace(_:)``): a listener as a session is.
    private(set) var faceHears = false
    /// The face hears at most one ``DeviceMotionDecided`` each tenth of a second, the motion stream's default (M2).
    static let faceInterval = MotionStart.defaultInterval
    private var faceStream = MotionSubscription(interval: faceInterval)
    /// The time of the last reading fused, for `status`; nil while the engine does not run.
    private var lastFused: Timestamp?
    private var isHeard: Bool { !subscribers.isEmpty || faceHears }

    init(hub: Hub, stored: StoreSnapshot) { self.hub = hub }

    /// `deviceMotion.start`: from the next fused reading, at most one each `interval` seconds.
    func start(_ session: AppSession, interval: Double, frame: AttitudeReferenceFrame) {
        if !isHeard { startEngine() }
        subscribers.set(session, DeviceMotionSubscription(interval: interval, frame: frame))
        hub.sessions.subscribe(session, to: .deviceMotion)
    }

    func stop(_ session: AppSession) {
        subscribers.remove(session)
        hub.sessions.unsubscribe(session, from: .deviceMotion)
    }

    func sessionClosed(_ session: AppSession) { subscribers.remove(session) }

    func setFaceHears(_ hears: Bool) {
        guard hears != faceHears else { return }
        if hears, !isHeard { startEngine() }
        faceHears = hears
        faceStream.paused()
    }

    /// D6: the first listener starts a fresh engine.
    private func startEngine() {
        engine = AttitudeEngine()
        lastFused = nil
    }

    /// One reading its arbiter let through: nothing to do while nobody listens (D6).
    func reading(_ reading: SensorReading, at time: Timestamp, from source: SourceName) {
        guard isHeard else { return }
        fused += 1
        lastFused = time
        if let acceleration = Acceleration(reading) {
            engine.accelerometer(acceleration, at: time)
            // D1: without a gyroscope, an event follows each accelerometer reading.
            if !engine.hasGyroscope(at: time.nanoseconds) { publish(at: time) }
        } else if let field = MagneticField(reading) {
            engine.magnetometer(field, at: time)
        } else if let rate = RotationRate(reading) {
            engine.gyroscope(rate, at: time)
            publish(at: time)
            if faceHears { showFaces(at: time) }
        }
    }

    /// The faces' motion after a gyroscope reading: the rotation vector's angles, the rate and
    /// what the accelerometer reads.
    private func showFaces(at time: Timestamp) {
        let now = time.nanoseconds
        guard let rate = engine.rotationRate(at: now), let gravity = engine.gravity(at: now), let user = engine.userAcceleration(at: now),
            faceStream.admits(time)
        else { return }
        let reading = Acceleration(x: gravity.x + user.x, y: gravity.y + user.y, z: gravity.z + user.z)
        hub.observed(DeviceMotionDecided(time: time, angles: engine.magnetic.map(AttitudeAngles.init), rotationRate: rate, acceleration: reading))
    }

    private func publish(at time: Timestamp) {
        let now = time.nanoseconds
        guard let gravity = engine.gravity(at: now), let user = engine.userAcceleration(at: now) else { return }
        let rate = engine.rotationRate(at: now).map { WireVector(x: $0.x, y: $0.y, z: $0.z) }
        // One event per frame a turn: sessions asking for the same frame share its encoding.
        var shared: [AttitudeReferenceFrame: SharedEvent] = [:]
        for (session, subscription) in subscribers.entries {
            // D5: as the motion stream (M3, AN40, I15).
            guard hub.mayHearMotion(session, .deviceMotion) else {
                subscription.paused()
                continue
            }
            let frame = subscription.frame
            // D2: true north only for a session that may know where it is; each frame only once known.
            let declination = frame == .xTrueNorthZVertical ? self.declination(for: session, at: time) : nil
            guard let q = frame.attitude(engine, declination: declination), subscription.admits(time) else { continue }
            let event = frame == .xTrueNorthZVertical ? nil : shared[frame]
            let made = event ?? SharedEvent(DeviceMotionEvent(motion: Self.wire(q, frame, rate, gravity, user, time)))
            if frame != .xTrueNorthZVertical { shared[frame] = made }
            hub.publish(to: session, made)
        }
    }

    private static func wire(
        _ q: Quaternion, _ frame: AttitudeReferenceFrame, _ rate: WireVector?, _ gravity: Acceleration, _ user: Acceleration, _ time: Timestamp
    ) -> WireDeviceMotion {
        WireDeviceMotion(
            attitude: (q.w, q.x, q.y, q.z), referenceFrame: frame, rotationRate: rate,
            gravity: WireVector(x: gravity.x, y: gravity.y, z: gravity.z),
            userAcceleration: WireVector(x: user.x, y: user.y, z: user.z), time: time)
    }

    /// `deviceMotion` in `status`: the latest fused motion in the rotation vector's frame (the
    /// game rotation vector's before a field is heard), as a `deviceMotion` event says it,
    /// while the engine runs (D6); null while nobody listens.
    var statusMembers: [String: JSONValue] { ["deviceMotion": statusJSON] }

    private var statusJSON: JSONValue {
        guard isHeard, let time = lastFused else { return .null }
        let now = time.nanoseconds
        let frame: AttitudeReferenceFrame = engine.magnetic == nil ? .gameRotationVector : .rotationVector
        guard let q = frame.attitude(engine, declination: nil), let gravity = engine.gravity(at: now), let user = engine.userAcceleration(at: now)
        else { return .null }
        let rate = engine.rotationRate(at: now).map { WireVector(x: $0.x, y: $0.y, z: $0.z) }
        return Self.wire(q, frame, rate, gravity, user, time).json
    }

    /// D2, as H6 and H8: the declination at the fix the session is served (the latest at full
    /// accuracy, its grid cell's at reduced), none without location authorization now.
    private func declination(for session: AppSession, at time: Timestamp) -> Double? {
        guard let granted = hub.decidedAccuracy(of: session), let fix = hub.services.fixes.lastFix else { return nil }
        let served: LocationFix
        if granted == .full {
            served = fix
        } else {
            guard let fudger = hub.committedFudger(for: session.app) else { return nil }
            served = fudger.coarsen(fix).fix
        }
        return hub.services(HeadingService.self).heading.fullAccuracyModel(at: served, time: time).declination
    }
}

/// A session's `deviceMotion.start`: its interval and frame, and the last time sent (as M2).
final class DeviceMotionSubscription {
    let frame: AttitudeReferenceFrame
    private let interval: MotionSubscription

    init(interval seconds: Double, frame: AttitudeReferenceFrame) {
        self.frame = frame
        self.interval = MotionSubscription(interval: seconds)
    }

    func admits(_ time: Timestamp) -> Bool { interval.admits(time) }
    func paused() { interval.paused() }
}

/// D1: the fused device motion. It says how the device is held and turned, not where it is:
/// not location-derived (the true-north frame is sent only to a session authorized for location).
struct DeviceMotionEvent: AppEventKind {
    let motion: WireDeviceMotion
    static var topic: AppTopic { .deviceMotion }
    var outboundKind: OutboundKind { .sensor }
    var method: String { Event.deviceMotion }
    var params: JSONValue { motion.json }
}

/// `deviceMotion.start`: `deviceMotion` events from the next fused reading on (RULES D1–D6).
/// It needs no location authorization (D5); starting again sets the interval and frame afresh.
struct DeviceMotionStartMethod: RPCMethod {
    static let name = Method.deviceMotionStart
    static let requiresSession = true
    let request: DeviceMotionStart

    init(_ p: Params) throws(RPCError) { request = try DeviceMotionStart(p) }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        call.hub.services(DeviceMotionService.self).start(
            call.session, interval: request.interval ?? MotionStart.defaultInterval, frame: request.referenceFrame ?? DeviceMotionStart.defaultFrame)
        return .result([:])
    }
}

/// `deviceMotion.stop`.
struct DeviceMotionStopMethod: RPCMethod {
    static let name = Method.deviceMotionStop
    static let requiresSession = true

    init(_ p: Params) throws(RPCError) {}

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        call.hub.services(DeviceMotionService.self).stop(call.session)
        return .result([:])
    }
}
