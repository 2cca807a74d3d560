import SextantCore
import SextantProtocol

/// The accelerometer's readings to the sessions that asked with `motion.start` (RULES
/// M1–M3, sextant-rules(7) "MOTION"): as the arbiter let them through, in the device frame,
/// at most one per session's interval, and only to apps in the foreground.
extension Hub {
    /// One accelerometer reading its arbiter let through.
    func motionSample(_ reading: Acceleration, at time: Timestamp) {
        var event: SharedEvent?
        for session in sessions.ordered where session.hears(.motion) {
            // M3: the foreground only, as Android 9 stops continuous sensors in the background.
            guard appState(of: session) == .foreground else {
                session.motion?.paused()
                continue
            }
            guard session.motion?.admits(time) == true else { continue }
            let shared = event ?? SharedEvent(MotionEvent(motion: WireMotion(x: reading.x, y: reading.y, z: reading.z, time: time)))
            event = shared
            publish(to: session, shared)
        }
    }
}

/// A session's `motion.start`: its interval (M2) and the time of the last reading sent.
struct MotionSubscription {
    let interval: Int64
    private var lastSent: Timestamp?

    init(interval seconds: Double) { interval = Int64((seconds * 1e9).rounded()) }

    /// M2: a reading at least `interval` after the last one sent (by the readings' clock);
    /// the first, and the first after a reading earlier than the last (a replay sought back).
    mutating func admits(_ time: Timestamp) -> Bool {
        if let lastSent, time >= lastSent, time.nanoseconds - lastSent.nanoseconds < interval { return false }
        lastSent = time
        return true
    }

    /// M3: back in the foreground, the next reading is sent at once.
    mutating func paused() { lastSent = nil }
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
