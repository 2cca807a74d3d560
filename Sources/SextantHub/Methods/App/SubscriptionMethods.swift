import SextantCore
import SextantProtocol

/// `orientation.start` / `orientation.stop` (`deviceOrientation` and `interfaceOrientation`
/// events) and `posture.start` / `posture.stop` (`posture` events): each turns one topic of
/// the session on or off.
struct SubscriptionMethod<Switch: TopicSwitch>: RPCMethod {
    static var name: String { Switch.method }
    static var requiresSession: Bool { true }

    init(_ p: Params) throws(RPCError) {}

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        if Switch.on {
            call.hub.sessions.subscribe(call.session, to: Switch.topic)
        } else {
            call.hub.sessions.unsubscribe(call.session, from: Switch.topic)
        }
        return .result([:])
    }
}

/// One row of the subscription table: a method, the topic it switches, and to what.
protocol TopicSwitch {
    static var method: String { get }
    static var topic: AppTopic { get }
    static var on: Bool { get }
}
