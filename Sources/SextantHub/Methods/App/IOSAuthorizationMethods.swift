import SextantCore
import SextantProtocol

/// `authorization.requestTemporaryFullAccuracy` (docs/platforms.md I9, I10): the purpose
/// key's prompt; answered with the authorization once it is answered (or cancelled), or at
/// once with 1014 `promptDeclined`. Nothing is stored: the grant is the session's.
struct AuthorizationRequestTemporaryFullAccuracyMethod: RPCMethod {
    static let name = Method.authorizationRequestTemporaryFullAccuracy
    static let requiresSession = true
    let purposeKey: String

    init(_ p: Params) throws(RPCError) { purposeKey = try AuthorizationRequestTemporaryFullAccuracy(p).purposeKey }

    func run(_ call: MethodCall) throws(RPCError) -> Reply {
        let hub = call.hub
        let session = call.session!
        guard !hub.authorization.isWaitingListFull(session.id) else {
            throw RPCError(.tooManyRequests, "at most \(AuthorizationEngine.maxWaitingRequests) authorization requests may wait at once")
        }
        let (token, time, key) = (hub.makeToken(for: call.peer, id: call.id), hub.now, purposeKey)
        let outcome = hub.applyDecision { $0.requestTemporaryFullAccuracy(session.id, purposeKey: key, token: token, at: time) }
        switch outcome {
        case .success(let effects):
            hub.perform(effects)
            return .deferred
        case .failure(let declined):
            hub.forgetAuthorizationWaiter(token)
            throw declined.rpcError
        }
    }
}

extension Hub {
    /// What the app declared at `hello` that the iOS rules read (I9, I11, I12).
    func declare(_ session: AppSession, _ declaration: IOSAppDeclaration) {
        applyDecision { $0.declare(session.id, declaration) }
    }

    /// I12: `location.start` from the background by an app authorized for it that declared
    /// its background modes without `location` fails with 1001, saying why.
    func checkBackgroundMode(_ session: AppSession) throws(RPCError) {
        guard appState(of: session) == .background, authorization.authorization(of: session.id).status == .authorizedAlways,
            authorization.declaration(of: session.id)?.allowsBackgroundLocation == false
        else { return }
        throw RPCError(
            .notAuthorized,
            "the app did not declare the location background mode at hello (backgroundModes: [\"location\"], UIBackgroundModes): it gets no locations in the background")
    }

    /// I8: a background session with the indicator keeps the app in use while it runs.
    func setIndicatorSession(_ session: AppSession, running: Bool) {
        let time = now
        perform(applyDecision { $0.setIndicatorSession(session.id, running: running, at: time) })
    }
}

extension StoredPermission {
    /// A `permissions.list` entry with the iOS facets that are set (docs/platforms.md I2,
    /// I6): `provisional` (the app reads authorizedAlways, Settings says While Using) and
    /// `alwaysAsked`; absent when false, so the entries of other apps read as before.
    func json(app: String, ios: IOSAppFacets) -> JSONValue {
        guard case .object(var members) = json(app: app) else { return json(app: app) }
        if ios.provisional, status == .authorizedAlways {
            members["provisional"] = true
            members["settings"] = "While Using"
        }
        if ios.alwaysAsked { members["alwaysAsked"] = true }
        return .object(members)
    }
}

extension JSONValue {
    /// The object with `more`'s members added (nil adds nothing).
    func adding(_ more: [String: JSONValue]?) -> JSONValue {
        guard let more, case .object(var members) = self else { return self }
        members.merge(more) { $1 }
        return .object(members)
    }
}
