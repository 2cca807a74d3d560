import SextantCore
import SextantProtocol

/// `authorization.get`: the status as the app sees it; never prompts (RULES L3).
struct AuthorizationGetMethod: RPCMethod {
    static let name = Method.authorizationGet
    static let requiresSession = true

    init(_ p: Params) throws(RPCError) {}

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        let authorization = call.hub.authorization
        var result = authorization.authorization(of: call.session.id).result
        result.servicesEnabled = authorization.servicesEnabled
        return .result(result.json)
    }
}

/// `authorization.request`: answered once decided, by a prompt, the policy or at once
/// (RULES L4–L7). The answer comes from the engine's `.reply` effect.
struct AuthorizationRequestMethod: RPCMethod {
    static let name = Method.authorizationRequest
    static let requiresSession = true
    let level: AuthorizationLevel

    init(_ p: Params) throws(RPCError) {
        level = try AuthorizationRequest(p).level
    }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        let hub = call.hub
        let session = call.session!
        // A client that pipelines requests must not grow the daemon without bound.
        guard !hub.authorization.isWaitingListFull(session.id) else {
            throw RPCError(
                .tooManyRequests, "at most \(AuthorizationEngine.maxWaitingRequests) authorization.request calls may wait at once")
        }
        // Hub+Store: a decision the policy makes at once is committed before it applies.
        return hub.requestAuthorization(session.id, level: level, token: hub.makeToken(for: call.peer, id: call.id))
    }
}
