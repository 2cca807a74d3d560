import SextantCore
import SextantProtocol

/// `motion.start` (M2, M3): from the next reading, at most one each `interval` seconds, the
/// interval raised to the platform's least (docs/platforms.md AN41: 200 Hz on Android 12 and
/// later without `HIGH_SAMPLING_RATE_SENSORS`). A capped start answers the interval it got.
struct MotionStartMethod: RPCMethod {
    static let name = Method.motionStart
    static let requiresSession = true
    let request: MotionStart

    init(_ p: Params) throws(RPCError) { request = try MotionStart(p) }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        let asked = request.interval ?? MotionStart.defaultInterval
        let served = call.hub.motionInterval(asked, for: .accelerometer, of: call.session)
        call.hub.services(MotionService.self).start(call.session, MotionSubscription(interval: served))
        return .result(served == asked ? [:] : ["interval": .double(served)])
    }
}
