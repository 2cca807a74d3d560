import SextantCore
import SextantProtocol
import SextantStore

/// The accelerometer's readings to the sessions that asked with `motion.start` (RULES
/// M1–M3, sextant-rules(7) "MOTION"): as the arbiter let them through, in the device frame,
/// at most one per session's interval, and only to apps in the foreground.
final class MotionService: StreamingService {
    typealias StopRequest = MotionStop
    static var topic: AppTopic { .motion }
    static var consumedKinds: [SensorKind.ID] { [SensorKind.accelerometer.id] }

    unowned let hub: Hub
    var subscribers = Subscribers<MotionSubscription>()

    init(hub: Hub, stored: StoreSnapshot) { self.hub = hub }

    /// `motion.start` (needing no location authorization, M2, M3): from the next reading, at
    /// most one each `interval` seconds, the interval raised to the platform's least
    /// (docs/platforms.md AN41: 200 Hz on Android 12 and later without
    /// `HIGH_SAMPLING_RATE_SENSORS`).
    static func subscription(for request: MotionStart, of session: AppSession, in hub: Hub) -> MotionSubscription {
        MotionSubscription(interval: hub.motionInterval(request.interval ?? MotionStart.defaultInterval, for: .accelerometer, of: session))
    }

    /// A capped start answers the interval it got.
    static func answer(_ subscription: MotionSubscription, to request: MotionStart) -> JSONValue {
        subscription.seconds == (request.interval ?? MotionStart.defaultInterval) ? [:] : ["interval": .double(subscription.seconds)]
    }

    /// One accelerometer reading its arbiter let through: nothing to do while nobody asked.
    func reading(_ reading: SensorReading, at time: Timestamp, from source: SourceName) {
        guard !subscribers.isEmpty, let acceleration = Acceleration(reading) else { return }
        var event: SharedEvent?
        for (session, subscription) in subscribers.entries {
            // M3: the foreground, or what the platform delivers in the background (AN40, I15).
            guard hub.mayHearMotion(session, .accelerometer) else {
                subscription.paused()
                continue
            }
            guard subscription.admits(time) else { continue }
            let shared = event ?? SharedEvent(MotionEvent(motion: WireMotion(x: acceleration.x, y: acceleration.y, z: acceleration.z, time: time)))
            event = shared
            hub.publish(to: session, shared)
        }
    }
}

/// A session's `motion.start`: its interval (M2) and the time of the last reading sent.
final class MotionSubscription {
    /// The interval in seconds, as it was served, and in nanoseconds, as readings are judged.
    let seconds: Double
    let interval: Int64
    private var lastSent: Timestamp?

    init(interval seconds: Double) {
        self.seconds = seconds
        interval = Int64((seconds * 1e9).rounded())
    }

    /// M2: a reading at least `interval` after the last one sent (by the readings' clock);
    /// the first, and the first after a reading earlier than the last (a replay sought back).
    func admits(_ time: Timestamp) -> Bool {
        if let lastSent, time >= lastSent, time.nanoseconds - lastSent.nanoseconds < interval { return false }
        lastSent = time
        return true
    }

    /// M3: back in the foreground, the next reading is sent at once.
    func paused() { lastSent = nil }
}

/// M1: an accelerometer reading as it is. It says how the device is held and moved, not
/// where it is: not location-derived.
struct MotionEvent: AppEventKind {
    let motion: WireMotion
    static var topic: AppTopic { .motion }
    var outboundKind: OutboundKind { .sensor }
    var method: String { Event.motion }
    var params: JSONValue { motion.json }
}
