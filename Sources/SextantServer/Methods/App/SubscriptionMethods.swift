import SextantProtocol

/// `orientation.start` / `orientation.stop` (`deviceOrientation` and `interfaceOrientation`
/// events) and `posture.start` / `posture.stop` (`posture` events): each sets one switch of
/// the session.
struct SubscriptionMethod<Switch: SubscriptionSwitch>: RPCMethod {
    static var name: String { Switch.method }
    static var requiresSession: Bool { true }

    init(_ p: Params) throws(RPCError) {}

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        call.session[keyPath: Switch.flag] = Switch.on
        return .result([:])
    }
}

/// Which switch of the session a subscription method sets, and to what.
protocol SubscriptionSwitch {
    static var method: String { get }
    static var flag: ReferenceWritableKeyPath<AppSession, Bool> { get }
    static var on: Bool { get }
}

extension OrientationStart: SubscriptionSwitch {
    static var flag: ReferenceWritableKeyPath<AppSession, Bool> { \.wantsOrientation }
    static var on: Bool { true }
}

extension OrientationStop: SubscriptionSwitch {
    static var flag: ReferenceWritableKeyPath<AppSession, Bool> { \.wantsOrientation }
    static var on: Bool { false }
}

extension PostureStart: SubscriptionSwitch {
    static var flag: ReferenceWritableKeyPath<AppSession, Bool> { \.wantsPosture }
    static var on: Bool { true }
}

extension PostureStop: SubscriptionSwitch {
    static var flag: ReferenceWritableKeyPath<AppSession, Bool> { \.wantsPosture }
    static var on: Bool { false }
}
