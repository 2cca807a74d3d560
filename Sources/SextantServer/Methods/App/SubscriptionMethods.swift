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
            call.session.topics.insert(Switch.topic)
        } else {
            call.session.topics.remove(Switch.topic)
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

extension OrientationStart: TopicSwitch {
    static var topic: AppTopic { .orientation }
    static var on: Bool { true }
}

extension OrientationStop: TopicSwitch {
    static var topic: AppTopic { .orientation }
    static var on: Bool { false }
}

extension PostureStart: TopicSwitch {
    static var topic: AppTopic { .posture }
    static var on: Bool { true }
}

extension PostureStop: TopicSwitch {
    static var topic: AppTopic { .posture }
    static var on: Bool { false }
}

extension SatellitesStart: TopicSwitch {
    static var topic: AppTopic { .satellites }
    static var on: Bool { true }
}

extension SatellitesStop: TopicSwitch {
    static var topic: AppTopic { .satellites }
    static var on: Bool { false }
}
