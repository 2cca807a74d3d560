import SextantCore
import SextantProtocol

/// `motion.start`: `motion` events from the next accelerometer reading on (RULES M1–M3).
/// It needs no location authorization (M3); starting again sets the interval afresh.
struct MotionStartMethod: RPCMethod {
    static let name = Method.motionStart
    static let requiresSession = true
    let interval: Double

    init(_ p: Params) throws(RPCError) {
        interval = try MotionStart(p).interval ?? MotionStart.defaultInterval
    }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        call.session.topics.insert(.motion)
        call.session.motion = MotionSubscription(interval: interval)
        return .result([:])
    }
}

/// `motion.stop`.
struct MotionStopMethod: RPCMethod {
    static let name = Method.motionStop
    static let requiresSession = true

    init(_ p: Params) throws(RPCError) {}

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        call.session.topics.remove(.motion)
        call.session.motion = nil
        return .result([:])
    }
}
