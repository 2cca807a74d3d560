import SextantCore
import SextantProtocol

/// `heading.start`: `heading` and `headingCalibration` events from the next reading on
/// (RULES H1–H8). It needs no location authorization (H8); starting again sets the filter
/// afresh.
struct HeadingStartMethod: RPCMethod {
    static let name = Method.headingStart
    static let requiresSession = true
    let filter: Double

    init(_ p: Params) throws(RPCError) {
        filter = try HeadingStart(p).filter ?? HeadingStream.defaultFilter
    }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        call.hub.services(HeadingService.self).start(call.session, filter: filter)
        return .result([:])
    }
}

/// `heading.stop`.
struct HeadingStopMethod: RPCMethod {
    static let name = Method.headingStop
    static let requiresSession = true

    init(_ p: Params) throws(RPCError) {}

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        call.hub.services(HeadingService.self).stop(call.session)
        return .result([:])
    }
}
