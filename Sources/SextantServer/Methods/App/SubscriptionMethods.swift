import SextantProtocol

/// `orientation.start` / `orientation.stop`: `deviceOrientation` and `interfaceOrientation` events.
struct OrientationStartMethod: RPCMethod {
    static let name = Method.orientationStart
    static let requiresSession = true
    init(_ p: Params) throws(RPCError) {}

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        call.session.wantsOrientation = true
        return .result([:])
    }
}

struct OrientationStopMethod: RPCMethod {
    static let name = Method.orientationStop
    static let requiresSession = true
    init(_ p: Params) throws(RPCError) {}

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        call.session.wantsOrientation = false
        return .result([:])
    }
}

/// `posture.start` / `posture.stop`: `posture` events.
struct PostureStartMethod: RPCMethod {
    static let name = Method.postureStart
    static let requiresSession = true
    init(_ p: Params) throws(RPCError) {}

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        call.session.wantsPosture = true
        return .result([:])
    }
}

struct PostureStopMethod: RPCMethod {
    static let name = Method.postureStop
    static let requiresSession = true
    init(_ p: Params) throws(RPCError) {}

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        call.session.wantsPosture = false
        return .result([:])
    }
}
