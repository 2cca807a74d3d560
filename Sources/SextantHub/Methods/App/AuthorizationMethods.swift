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
    /// Android's permissions asked for (docs/platforms.md AN1); nil when only `level` was given.
    let permissions: Set<AndroidPermission>?

    init(_ p: Params) throws(RPCError) {
        let request = try AuthorizationRequest(p)
        (level, permissions) = (request.level, request.permissions)
    }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        let hub = call.hub
        let session = call.session!
        try Self.check(permissions, on: hub.configuration.platform)
        // A client that pipelines requests must not grow the daemon without bound.
        guard !hub.authorization.isWaitingListFull(session.id) else {
            throw RPCError(
                .tooManyRequests, "at most \(AuthorizationEngine.maxWaitingRequests) authorization.request calls may wait at once")
        }
        // Hub+Store: a decision the policy makes at once is committed before it applies.
        return hub.requestAuthorization(session.id, level: level, permissions: permissions, token: hub.makeToken(for: call.peer, id: call.id))
    }

    /// `permissions` is Android's (AN1), and Android refuses some sets (AN7).
    static func check(_ permissions: Set<AndroidPermission>?, on platform: DevicePlatform) throws(RPCError) {
        guard let permissions else { return }
        guard let api = platform.androidAPI else {
            throw .invalidParams("\"permissions\" is Android's: this phone is iOS (sextantd --platform ios): ask with \"level\"")
        }
        if let problem = AndroidRequestRules.problem(with: permissions, api: api) { throw .invalidParams(problem) }
    }
}
